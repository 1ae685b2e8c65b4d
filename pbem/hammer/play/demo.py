"""Hammer's bot game for ``pbem demo``: a whole game, bot against bot, through the full protocol.

Everything a real game does happens in a folder: three identities, the referee's manifest and
dice commitment, sealed reports, bot-written drafts checked and sealed by each player,
adjudication, the signed ledger and the receipts; then verify and audit. Only this command
reads the clock (to print how long it took); the game runs on a clock of its own (``DEMO_START``,
one hour per step), so its deadlines and receipt times do not depend on when it is played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core import ruleset as rs
from pbem.core.errors import FormatError, PbemError
from pbem.hammer.play import bots, drafts
from pbem.hammer.rules.scenario import scenario as scenario_of

SIDES = ("england", "scotland")
# The dice chain's length (docs/random-stream.md): the most steps the game may take. A bot game
# of Braveheart takes about 100 steps and a Campaign a few hundred, so 1000 is ample, and
# shorter than the protocol's default for games between people, which cuts each step's reveal.
DEMO_CHAIN = 1000
DEMO_START = 1_735_689_600  # the demo game's clock starts at 2025-01-01 00:00 UTC (in the past: verify dates entries)
DEMO_STEP_SECONDS = 3600  # and each step takes an hour, well inside the 72-hour deadline


@dataclass
class GameSummary:
    """What one bot game cost. A *step* is one exchange (reports out, orders in, one
    adjudication); an *order* is one side's sealed file, so a step both sides owe has two."""

    folder: Path
    winner: str = ""
    reason: str = ""
    years: int = 0
    steps: int = 0
    game_turns: int = 0
    steps_by_kind: dict[str, int] = field(default_factory=dict)
    orders_by_kind: dict[str, int] = field(default_factory=dict)
    verified: bool = False
    audited: bool = False
    problems: list[str] = field(default_factory=list)
    # Group moves made, by "side/player1" or "side/player2" (4.1), from the public move lines of
    # each side's reports; and the moves steps in which Player 2 stood attacked, so pinned (4.6).
    group_moves: dict[str, int] = field(default_factory=dict)
    pinned_steps: int = 0

    @property
    def orders(self) -> int:
        return sum(self.orders_by_kind.values())

    @property
    def exchanges_per_turn(self) -> float:
        """Steps (email round trips) per Game Turn; winter steps count against the turns too."""
        return self.steps / self.game_turns if self.game_turns else 0.0

    def lines(self, took: float | None = None) -> list[str]:
        """The summary ``pbem demo`` prints; the step and order counts add up as printed."""
        out = [f"winner: {self.winner or 'none'}{f' ({self.reason})' if self.reason else ''}",
               f"years played: {self.years}; game turns: {self.game_turns}",
               f"steps (exchanges, one adjudication each): {self.steps} = " + _by_kind(self.steps_by_kind),
               f"orders sealed (one per side owing): {self.orders} = " + _by_kind(self.orders_by_kind),
               f"exchanges per game turn: {self.exchanges_per_turn:.2f} (target at most 2.5)",
               "group moves: " + "; ".join(f"{s} {self.group_moves.get(s + '/player1', 0)} as Player 1, "
                                           f"{self.group_moves.get(s + '/player2', 0)} as Player 2" for s in SIDES)
               + f"; Player 2 pinned (4.6) in {self.pinned_steps} moves steps",
               f"verify: {'ok' if self.verified else 'FAILED'}; audit: {'ok' if self.audited else 'FAILED'}"]
        if took is not None:
            out.append(f"time taken: {took:.1f}s")
        out.append(f"files: {self.folder} (keys/, game/ with ledger/ and reports/, drafts/, outbox/)")
        return out


def _by_kind(counts: dict[str, int]) -> str:
    return " + ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "0"


def make_keys(folder: Path) -> dict[str, Path]:
    """Private keys and public identities for the referee and both players."""
    from pbem.core import identity  # start-up: the player side loads no cryptography until a demo runs

    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name in ("referee", *SIDES):
        priv = identity.generate(name)
        identity.save_private(priv, folder / f"{name}.key")
        identity.save_public(priv, folder / f"{name}.pub.toml")
        paths[name] = folder / f"{name}.key"
    return paths


def play_bot_game(folder: Path, scenario: str = "braveheart", bot: dict[str, str] | None = None,
                  seed: bytes = b"", max_steps: int = 2000, start: int = DEMO_START,
                  chain_length: int = DEMO_CHAIN) -> GameSummary:
    """Play one game with bots through sealed files in ``folder``; verify and audit it at the end.

    The game's clock starts at ``start`` (unix seconds) and moves one hour per step, so receipts
    and deadlines are the same on every run; every order arrives in time and gets a receipt.
    """
    from pbem.core import audit as core_audit  # start-up, as identity
    from pbem.core import game as core_game  # start-up, as identity
    from pbem.core import identity  # start-up: the player side loads no cryptography until a demo runs

    bot = bot or {"england": "simple", "scotland": "random"}
    keys = make_keys(folder / "keys")
    game_dir = folder / "game"
    rules = rs.load("hammer")
    priv = {name: identity.load_private(path) for name, path in keys.items()}
    pubs = {s: identity.load_public(folder / "keys" / f"{s}.pub.toml") for s in SIDES}
    # The unbiased set-up (protocol §8.1): the referee opens the game, each side joins with its
    # own entropy, and only then are the levy and the first hands drawn.
    core_game.open_game(game_dir, rules, scenario, {}, priv["referee"], pubs, chain_length=chain_length)
    joins = [core_game.write_join(game_dir, priv[s], s) for s in SIDES]
    now = start
    held: list[tuple[str, bytes]] = []
    core_game.start_game(game_dir, priv["referee"], joins, now=now)
    summary = GameSummary(folder=folder)
    drafts_dir = folder / "drafts"
    drafts_dir.mkdir(exist_ok=True)
    info = core_game.status(game_dir)
    for _ in range(max_steps):
        owes: dict[str, str] = dict(info["owes"])
        if not owes:
            break
        step = int(info["step"])
        envelopes: list[Path] = []
        for side, kind in sorted(owes.items()):
            report_path = core_game.report_path(game_dir, step, side)
            report = core_game.open_report(report_path, priv[side])
            _count_moves(summary, report, tally=not envelopes)  # the step's public lines: once per step
            d = bots.auto_draft(report, bot[side], seed + f"|{step}|{side}".encode())
            drafts.check_draft(d, report)
            draft_path = drafts_dir / f"{step:04d}-{side}.toml"
            draft_path.write_text(drafts.dump_draft(d), encoding="utf-8")
            armored = core_game.write_order(game_dir, priv[side], side, step, d.body(), now=now)
            env = folder / "outbox" / f"{step:04d}-{side}.asc"
            env.parent.mkdir(exist_ok=True)
            env.write_text(armored if isinstance(armored, str) else armored.decode("ascii"), encoding="utf-8")
            envelopes.append(env)
            summary.orders_by_kind[kind] = summary.orders_by_kind.get(kind, 0) + 1
        step_kind = "+".join(sorted(set(owes.values())))
        summary.steps_by_kind[step_kind] = summary.steps_by_kind.get(step_kind, 0) + 1
        if "card" in owes.values():
            summary.game_turns += 1
        now += DEMO_STEP_SECONDS
        info = core_game.adjudicate(game_dir, priv["referee"], envelopes, now=now)
        for receipt in info.get("receipts", []):  # each player keeps its receipts for the audit
            held.append((f"receipt {receipt.step:04d}-{receipt.side}", receipt.armored.encode("ascii")))
        summary.steps += 1
    final = info
    result = final.get("result", {}) or {}
    summary.winner, summary.reason = result.get("winner", ""), result.get("reason", "")
    summary.years = _years(final, scenario)
    try:  # verify and audit raise on a fault: the summary says FAILED instead of pretending
        core_game.verify(game_dir)
        summary.verified = True
        core_audit.audit_game(game_dir, priv["referee"], receipt_files=held)
        summary.audited = True
    except PbemError as exc:
        summary.problems.append(f"{'audit' if summary.verified else 'verify'} failed: {exc}")
    return summary


def _count_moves(summary: GameSummary, report: dict[str, Any], tally: bool) -> None:
    """Tally the group moves of the step the report tells of (its public move lines, both sides',
    when ``tally``) and whether the report's side, owing moves as Player 2, stands attacked by
    Player 1 somewhere (its blocks there pinned, 4.6)."""
    side, view = report["side"], report["view"]
    for e in report.get("log", []) if tally else []:
        if e.get("what") == "moves" and e.get("public") and e.get("side") in SIDES:
            role = f"{e['side']}/{'player1' if e['side'] == view.get('player1') else 'player2'}"
            summary.group_moves[role] = summary.group_moves.get(role, 0) + 1
    if report.get("asks") == "moves" and view.get("player1") != side:
        summary.pinned_steps += any(b["attacker"] != side and b["blocks"].get(side) for b in view.get("battles", []))


def _years(final: dict[str, Any], scenario: str) -> int:

    year = int((final.get("result") or {}).get("year") or final.get("year") or 0)
    first = scenario_of(scenario).first_year
    return max(0, year - first + 1) if year else 0


def check_demo_args(folder: Path | None, scenario: str, bot_names: tuple[str, ...]) -> None:
    """Refuse before anything is written: the demo makes new keys, so it never plays in a used folder."""
    if folder is not None and folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FormatError(f"--folder {folder} is not a new or empty folder; the demo writes new keys and a new game "
                          "there, and never over other files.", hint="give a new folder name")
    scenarios = rs.load("hammer").scenarios()
    if scenario not in scenarios:
        raise FormatError(f"unknown scenario {scenario!r}; choose one of {', '.join(scenarios)}.")
    for name in bot_names:
        if name not in bots.BOTS:
            raise FormatError(f"unknown bot {name!r}; choose one of {', '.join(bots.BOTS)}.")
