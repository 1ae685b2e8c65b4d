"""``pbem demo``: a whole Braveheart game, bot against bot, through the full protocol.

Everything a real game does happens in a folder: three identities, the referee's manifest and
dice commitment, sealed reports, bot-written drafts checked and sealed by each player,
adjudication, the signed ledger; then verify and audit. Only this command reads the clock
(to print how long it took); adjudication never does.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.game import fails_cleanly, ruleset_named
from pbem.hammer import bots, drafts

SIDES = ("england", "scotland")


@dataclass
class GameSummary:
    folder: Path
    winner: str = ""
    reason: str = ""
    years: int = 0
    steps: int = 0
    game_turns: int = 0
    step_kinds: dict[str, int] = field(default_factory=dict)
    verified: bool = False
    audited: bool = False

    @property
    def exchanges_per_turn(self) -> float:
        """Steps (email round trips) per Game Turn; winter steps count against the turns too."""
        return self.steps / self.game_turns if self.game_turns else 0.0


def make_keys(folder: Path) -> dict[str, Path]:
    """Private keys and public identities for the referee and both players."""
    from pbem.core import identity

    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name in ("referee", *SIDES):
        priv = identity.generate(name)
        identity.save_private(priv, folder / f"{name}.key")
        identity.save_public(priv, folder / f"{name}.pub.toml")
        paths[name] = folder / f"{name}.key"
    return paths


def play_bot_game(folder: Path, scenario: str = "braveheart", bot: dict[str, str] | None = None,
                  seed: bytes = b"", max_steps: int = 2000) -> GameSummary:
    """Play one game with bots through sealed files in ``folder``; verify and audit it at the end."""
    from pbem.core import game as core_game
    from pbem.core import identity

    bot = bot or {"england": "simple", "scotland": "random"}
    keys = make_keys(folder / "keys")
    game_dir = folder / "game"
    rules = ruleset_named("hammer")
    priv = {name: identity.load_private(path) for name, path in keys.items()}
    pubs = {s: identity.load_public(folder / "keys" / f"{s}.pub.toml") for s in SIDES}
    core_game.new_game(game_dir, rules, scenario, {}, priv["referee"], pubs)
    summary = GameSummary(folder=folder)
    drafts_dir = folder / "drafts"
    drafts_dir.mkdir(exist_ok=True)
    for _ in range(max_steps):
        info = core_game.status(game_dir)
        owes: dict[str, str] = dict(info["owes"])
        if not owes:
            break
        step = int(info["step"])
        envelopes: list[Path] = []
        for side, kind in sorted(owes.items()):
            report_path = core_game.report_path(game_dir, step, side)
            report = core_game.open_report(report_path, priv[side])
            d = bots.auto_draft(report, bot[side], seed + f"|{step}|{side}".encode())
            drafts.check_draft(d, report)
            draft_path = drafts_dir / f"{step:04d}-{side}.toml"
            draft_path.write_text(drafts.dump_draft(d), encoding="utf-8")
            armored = core_game.write_order(game_dir, priv[side], side, step, d.body())
            env = folder / "outbox" / f"{step:04d}-{side}.asc"
            env.parent.mkdir(exist_ok=True)
            env.write_text(armored if isinstance(armored, str) else armored.decode("ascii"), encoding="utf-8")
            envelopes.append(env)
            summary.step_kinds[kind] = summary.step_kinds.get(kind, 0) + 1
            if kind == "card" and side == SIDES[0]:
                summary.game_turns += 1
        core_game.adjudicate(game_dir, priv["referee"], envelopes)
        summary.steps += 1
    final = core_game.status(game_dir)
    result = final.get("result", {}) or {}
    summary.winner, summary.reason = result.get("winner", ""), result.get("reason", "")
    summary.years = _years(final, scenario, rules)
    summary.verified = bool(core_game.verify(game_dir))
    summary.audited = bool(core_game.audit(game_dir, priv["referee"]))
    return summary


def _years(final: dict[str, Any], scenario: str, rules: Any) -> int:
    from pbem.hammer.scenario import scenario as scenario_of

    year = int((final.get("result") or {}).get("year") or final.get("year") or 0)
    first = scenario_of(scenario).first_year
    return max(0, year - first + 1) if year else 0


@fails_cleanly
def demo(
    folder: Annotated[Path | None, typer.Option("--folder", help="Where to play (default: a new "
                                                "temporary folder, kept so you can look).")] = None,
    scenario: Annotated[str, typer.Option("--scenario", help="braveheart, the_bruce or campaign.")] = "braveheart",
    england: Annotated[str, typer.Option("--england", help="Bot for England: random or simple.")] = "simple",
    scotland: Annotated[str, typer.Option("--scotland", help="Bot for Scotland: random or simple.")] = "simple",
    seed: Annotated[str, typer.Option("--seed", help="Text that seeds the bots' choices.")] = "demo",
) -> None:
    """Play a whole game bot against bot through the full protocol, then verify and audit it."""
    where = folder or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    started = time.monotonic()
    s = play_bot_game(where, scenario, {"england": england, "scotland": scotland}, seed.encode())
    took = time.monotonic() - started
    typer.echo(f"winner: {s.winner or 'none'}{f' ({s.reason})' if s.reason else ''}")
    typer.echo(f"years played: {s.years}; game turns: {s.game_turns}; steps: {s.steps}")
    typer.echo("steps by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(s.step_kinds.items())))
    typer.echo(f"exchanges per game turn: {s.exchanges_per_turn:.2f}")
    typer.echo(f"verify: {'ok' if s.verified else 'FAILED'}; audit: {'ok' if s.audited else 'FAILED'}")
    typer.echo(f"time: {took:.1f}s")
    typer.echo(f"files: {where} (keys/, game/ with ledger/ and reports/, drafts/, outbox/)")
    if not (s.verified and s.audited):
        raise typer.Exit(code=1)
