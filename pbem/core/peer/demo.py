"""``pbem demo --no-referee``: a whole peer game between the ruleset's bots, one folder per side (protocol §13).

Each side has its own keys and its own game folder; every message a side writes (``write_owed``, into
its folder's ``messages/``) is handed to every other side's folder (``take``), as mail or git would.
The ruleset's hidden-fact seam gives the bot (``bot_order``: an order from what its own folder holds)
and may count Game Turns (``game_turns``). Printed: the result, the exchanges per game turn (an
exchange is one wave of messages that must all be in before the next can be written; the set-up's
and the end's are counted apart), and each folder's verify and audit. Keys, salts and deal keys are
fresh random draws, so each run plays another deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.core import identity
from pbem.core import ruleset as rs
from pbem.core.errors import FormatError, PbemError
from pbem.core.peer import chain
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts, hidden_rules
from pbem.core.ruleset import DemoResult

MAX_WAVES = 2000


def joined(dirs: dict[str, Path], keys: dict[str, identity.PrivateIdentity], ruleset: str, scenario: str,
           options: dict[str, Any], length: int = chain.DEFAULT_LENGTH, clock: int | None = None,
           ) -> tuple[dict[str, Path], Callable[[str, str], None]]:
    """A peer game opened by the first side, its manifest copied into every other side's folder and every
    side's join taken by the others; returns the folders and ``send(side, text)``, which hands a message
    of ``side`` to every other folder (as mail or git would)."""
    sides = list(dirs)
    peer.open_game(dirs[sides[0]], ruleset, scenario, options, {s: k.public for s, k in keys.items()}, 24,
                   length=length)
    for s in sides[1:]:
        dirs[s].mkdir(parents=True)
        (dirs[s] / "game.toml").write_bytes((dirs[sides[0]] / "game.toml").read_bytes())

    def send(side: str, text: str) -> None:
        for other in sides:
            if other != side:
                peer.take(dirs[other], text.encode("ascii"), f"the message of {side}")

    for s in sides:
        send(s, peer.write_join(dirs[s], keys[s], s, clock=clock))
    return dirs, send


def play(where: Path, ruleset: str, scenario: str, options: dict[str, Any]) -> DemoResult:
    rules = rs.load(ruleset, options)
    hidden = hidden_rules(rules)
    bot = getattr(hidden, "bot_order", None)
    if hidden is None or bot is None:
        raise FormatError(f"the {ruleset} rules have no bot for a game with no referee, so pbem demo --no-referee "
                          "cannot play them (protocol §13.10).")
    sides = tuple(rules.sides)
    keys = {s: identity.generate(s) for s in sides}
    dirs, send = joined({s: where / s / "game" for s in sides}, keys, ruleset, scenario, options)
    waves = setup = 0
    out = peer.outcome(dirs[sides[0]])
    for _ in range(MAX_WAVES):
        out = peer.outcome(dirs[sides[0]])
        if out.verdict or (out.entries and not out.owes):
            break
        if out.entries and set(out.owes.values()) != {"final"}:
            waves += 1
        else:
            setup += 1
        for s in sorted(out.owes):
            order = None
            if out.owes[s] == "commit":
                mine = peer.own_facts(peer.read_hands(dirs[s], peer.manifest(dirs[s]), hidden, s, out), out, s)
                order = bot(out.state, s, Facts(out.revealed, out.owners, mine))
            send(s, peer.write_owed(dirs[s], keys[s], order)[1])
    last = json.loads(out.entries[-1]) if out.entries else {}
    state: dict[str, Any] = next((json.loads(e)["state"] for e in reversed(out.entries) if "state" in json.loads(e)),
                                 {})
    turns = int(getattr(hidden, "game_turns", lambda public: 0)(state))
    result = last.get("result") or hidden.result(state)
    lines = [f"played in {where}: one folder per side ({', '.join(str(dirs[s]) for s in sides)})",
             f"winner: {result.get('winner') or 'nobody'}"
             f"{' (' + result['reason'] + ')' if result.get('reason') else ''}"
             f"{'; ' + out.verdict if out.verdict else ''}",
             f"exchanges per game turn: {waves / max(turns, 1):.2f} ({waves} exchanges in {turns} game turns; "
             f"{setup} for the set-up, the deal and the end)"]
    checks = {s: (_checked(peer.verify, dirs[s]), _checked(peer.audit, dirs[s])) for s in sides}
    problems: list[str] = []
    for s, (v, a) in checks.items():
        lines.append(f"{s}: {v[0] if v else ''}; {a[-1] if a else ''}")
        problems += [f"{s}: {line}" for line in (*v, *a) if "cheated" in line]
    verified = all(any("verify ok" in line for line in v) for v, _ in checks.values())
    audited = all(any("audit ok" in line for line in a) for _, a in checks.values())
    same = all(_public_files(dirs[s]) == _public_files(dirs[sides[0]]) for s in sides)
    lines.append("the folders' records are byte for byte the same" if same else "the folders' records DIFFER")
    return DemoResult(lines, verified and same, audited, problems)


def _checked(check: Callable[[Path], list[str]], game_dir: Path) -> list[str]:
    """verify's or audit's lines, or its refusal as one line (the demo reports, never pretends)."""
    try:
        return check(game_dir)
    except PbemError as exc:
        return [f"refused: {exc}"]


def _public_files(game_dir: Path) -> dict[str, bytes]:
    return {f"{sub}/{p.name}": p.read_bytes() for sub in ("ledger", "messages")
            for p in sorted((game_dir / sub).iterdir())}
