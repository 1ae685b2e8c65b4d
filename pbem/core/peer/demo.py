"""``pbem demo --no-referee``: a whole peer game between bots, one folder per side (protocol §13).

Each side has its own keys and its own game folder; every message a side writes is handed to every
other side's folder (autoplay.py), as mail or git would. The bot is the game's (its player side passes
one, or the ruleset's hidden-fact seam offers ``bot_order``); the seam may count the game's turns
(``game_turns``, named by ``turn_name``). Printed: the result, the exchanges per turn (an exchange is
one wave of messages that must all be in before the next can be written; the set-up's, the later deals'
and the end's are counted apart), and each folder's verify and audit. Keys, salts and deal keys are fresh random
draws, so each run plays another deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pbem.core import identity, inputs
from pbem.core import ruleset as rs
from pbem.core.errors import FormatError, PbemError
from pbem.core.peer import autoplay, chain
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts, hidden_rules
from pbem.core.ruleset import DemoResult


def joined(dirs: dict[str, Path], keys: dict[str, identity.PrivateIdentity], ruleset: str, scenario: str,
           options: dict[str, Any], length: int = chain.DEFAULT_LENGTH, clock: int | None = None, hours: int = 24,
           ) -> tuple[dict[str, Path], Callable[[str, str], object]]:
    """A peer game opened by the first side and joined by every side; returns the folders and
    ``send(side, text)``, which hands a message of ``side`` to every other folder (as mail or git would)."""
    autoplay.opened(dirs, keys, ruleset, scenario, options, hours, length)
    autoplay.join_all(dirs, keys, clock)
    return dirs, lambda side, text: autoplay.send(dirs, side, text)


def play(where: Path, ruleset: str, scenario: str, options: Mapping[str, Any], bot: autoplay.Bot | None = None,
         hours: int = 24) -> DemoResult:
    rules = rs.load(ruleset, dict(options))
    hidden = hidden_rules(rules)
    bot = bot or _offered(hidden)
    if hidden is None or bot is None:
        raise FormatError(f"the {ruleset} rules have no bot for a game with no referee, so pbem demo --no-referee "
                          "cannot play them (protocol §13.10).")
    sides = tuple(getattr(hidden, "sides", None) or rules.sides)
    keys = {s: identity.generate(s) for s in sides}
    dirs = {s: where / s / "game" for s in sides}
    autoplay.opened(dirs, keys, ruleset, scenario, options, hours)
    played = autoplay.play(dirs, keys, bot, part=getattr(hidden, "turn_part", None))
    out = played.outcome
    state: dict[str, Any] = next((json.loads(e)["state"] for e in reversed(out.entries) if "state" in json.loads(e)),
                                 {})
    last = json.loads(out.entries[-1]) if out.entries else {}
    result = last.get("result") or hidden.result(state)
    turns = int(getattr(hidden, "game_turns", lambda public: 0)(state))
    name = str(getattr(hidden, "turn_name", "game turn"))
    waves = played.exchanges - played.setup
    apart = sum(played.parts.values())
    parts = "".join(f"; {n} for the {p}s" for p, n in sorted(played.parts.items()))
    counted_in = f"; {waves / max(turns, 1):.2f} with {' and '.join(f'the {p}s' for p in sorted(played.parts))} " \
        "counted in" if apart else ""
    lines = [f"played in {where}: one folder per side ({', '.join(str(dirs[s]) for s in sides)})",
             f"winner: {result.get('winner') or 'nobody'}"
             f"{' (' + result['reason'] + ')' if result.get('reason') else ''}"
             f"{'; ' + out.verdict if out.verdict else ''}",
             f"exchanges per {name}: {(waves - apart) / max(turns, 1):.2f} ({waves - apart} exchanges in {turns} "
             f"{name}s{parts}; {played.setup} for the set-up, the deals and the end){counted_in}"]
    checks = {s: _verify_and_audit(dirs[s]) for s in sides}
    problems: list[str] = []
    for s, (v, a) in checks.items():
        lines.append(f"{s}: {v[0] if v else ''}; {a[-1] if a else ''}")
        problems += [f"{s}: {line}" for line in (*v, *a) if "cheated" in line or line.startswith("refused")]
    verified = all(any("verify ok" in line for line in v) for v, _ in checks.values())
    audited = all(any("audit ok" in line for line in a) for _, a in checks.values())
    same = all(_public_files(dirs[s]) == _public_files(dirs[sides[0]]) for s in sides)
    lines.append("the folders' records are byte for byte the same" if same else "the folders' records DIFFER")
    if not same:
        problems.append("the folders' records differ")
    return DemoResult(lines, verified and same, audited, problems)


def _offered(hidden: Any) -> autoplay.Bot | None:
    """The bot the hidden-fact seam offers (``bot_order(public, side, facts)``), or None."""
    offered = getattr(hidden, "bot_order", None)
    if offered is None:
        return None

    def bot(side: str, public: dict[str, Any], facts: Facts) -> Any:
        return offered(public, side, facts)
    return bot


def _checked(check: Callable[[Path], list[str]], game_dir: Path) -> list[str]:
    """verify's or audit's lines, or its refusal as one line (the demo reports, never pretends)."""
    try:
        return check(game_dir)
    except PbemError as exc:
        return [f"refused: {exc}"]


def _verify_and_audit(game_dir: Path) -> tuple[list[str], list[str]]:
    """verify's lines and audit's from one replay of the record (audit checks the record verify computed), a
    refusal as one line; verify refused, audit is refused alike."""
    try:
        lines, out = peer.verified(game_dir)
    except PbemError as exc:
        return [f"refused: {exc}"], [f"refused: {exc}"]
    return lines, _checked(lambda d: peer.audited(d, lines, out), game_dir)


def _public_files(game_dir: Path) -> dict[str, bytes]:
    """A folder's public files by name (its ``.pbem/`` is never compared: it is each side's own)."""
    return {f"{sub}/{p.name}": inputs.read_input(p, peer.LIMIT, "a file of the record")
            for sub in ("ledger", "messages") if (game_dir / sub).is_dir() for p in sorted((game_dir / sub).iterdir())}
