"""``pbem status``: which step a game is at and who owes what, from the public ledger.

A module of its own, apart from the other game verbs (pbem.cli.game, which re-exports it), so
that the verb loads the ledger and nothing else of the protocol (docs/architecture.md "Start-up").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.lazy import lazy

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import ledger, standing
else:
    ledger = lazy("pbem.core.ledger")  # loaded when a status is read, not when pbem.cli.game shows its help
    standing = lazy("pbem.core.standing")


# The game folder of a verb: the argument, or PBEM_GAME when it is left out (docs/playing.md "Less typing").
GameDir = Annotated[Path, typer.Argument(help="The game folder.", envvar="PBEM_GAME")]


def _when(t: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))


@fails_cleanly
def status(game_dir: GameDir) -> None:
    """Which step the game is at, who owes what (from the public ledger) and, for the referee, which orders
    have arrived (kept in GAME/.pbem/pending until the step is adjudicated)."""
    from pbem.cli import peer as peer_cli
    if peer_cli.is_peer(game_dir):
        peer_cli.status(game_dir)
        return
    info = standing.status(game_dir)
    say(describe(info))
    warning = deadline_warning(info)
    if warning:
        say(warning)
    for line in arrived(game_dir, info):  # nothing on a player's copy: no blank line either
        say(line)


def deadline_warning(info: dict[str, Any], now: int | None = None) -> str:
    """A plain-words warning when the step's deadline is near (under a quarter of the game's hours, at
    most 12 hours) or past (§8.3); "" otherwise. ``now``: unix seconds (None: the clock)."""
    deadline, step = int(info.get("deadline") or 0), info.get("step", "?")
    if not deadline or not info.get("owes"):
        return ""
    now = int(time.time()) if now is None else now
    near = min(int(info.get("hours") or 0) * 3600 // 4, 12 * 3600)
    if now > deadline:
        return (f"warning: the deadline of step {step} ({_when(deadline)}) has PASSED: an order sent now is refused "
                "as late and a side that sent none gets the default orders. If it had already passed when this "
                "copy first showed the step, the referee's clock was behind or it backdated the entry: run "
                "pbem verify and keep this folder, it is evidence (protocol §8.3).")
    if deadline - now < near:
        left = deadline - now
        return (f"warning: the deadline of step {step} is near: {left // 3600} h {left % 3600 // 60} min left, "
                f"until {_when(deadline)}; send your orders well before it (protocol §8.3).")
    return ""


def arrived(game_dir: Path, info: dict[str, Any]) -> list[str]:
    """The referee's view of the step: which owed orders are kept in .pbem/pending and which are awaited.
    Nothing when the private area is absent (a player's copy of the public folder)."""
    owes = dict(info.get("owes") or {})
    if not owes or not (ledger.private_dir(game_dir) / "lock").exists():  # the referee's folder; a player's
        # copy has at most its record of first sights there (§8.3)
        return []
    step = int(info.get("step", 0))
    have = [s for s in sorted(owes) if ledger.pending_path(game_dir, step, s).exists()]
    wait = [s for s in sorted(owes) if s not in have]
    return [f"orders arrived for step {step}: {', '.join(have) or 'none'}; "
            f"still awaited: {', '.join(wait) or 'none (ready: pbem adjudicate ' + str(game_dir) + ')'}"]


def describe(info: dict[str, Any]) -> str:
    """One human line about a step: its number, who owes what, or the result."""
    step = info.get("step", "?")
    owes = info.get("owes") or {}
    result = info.get("result") or {}
    if isinstance(result, dict) and result.get("winner"):
        return f"step {step}: game over, {result['winner']} wins ({result.get('reason', '')})"
    if not owes:
        return f"step {step}: nobody owes orders"
    deadline = int(info.get("deadline") or 0)
    return (f"step {step}: " + ", ".join(f"{s} owes {k}" for s, k in sorted(owes.items()))
            + (f" (deadline {_when(deadline)})" if deadline else ""))
