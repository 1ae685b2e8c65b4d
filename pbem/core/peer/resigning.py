"""Resign (protocol §13.13): a side of a two-seat peer game gives the game up at the head of a step.

Its own module so the verb's checks (two seats, head of step) sit above folder.py and below the CLI,
with no import circle: it reads the record through folder.py and writes through its ``send_signed``.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.errors import LedgerError
from pbem.core.identity import PrivateIdentity
from pbem.core.peer import folder
from pbem.core.peer.record import compute
from pbem.core.peer.rounds import entry_hash, get


def write_resign(game_dir: Path, me: PrivateIdentity, clock: int | None = None) -> str:
    """The signed resign of ``me``'s side for the step at the head of the record, taken into its own record."""
    man = folder.manifest(game_dir)
    side = folder.side_of(man, me)
    if len(man.sides) != 2:
        raise LedgerError(f"game {man.game} has {len(man.sides)} seats: resign ends a game of two seats only "
                          "(protocol §13.13).")
    found = folder.messages(game_dir, man)
    out = compute(man, found)
    if out.verdict:
        raise LedgerError(f"game {man.game} is over: {out.verdict}.")
    if not out.entries:
        raise LedgerError(f"game {man.game} has no set-up yet: resign comes at the head of a step (protocol §13.13).")
    step, prev = len(out.entries), entry_hash(out.entries[-1])
    held = {m.slot: m for m in found}
    if any(get(held, step, phase, s) is not None for s in man.sides for phase in ("reveal", "play", "final")) or any(
            m.side == side and m.step == step for m in held.values()):
        raise LedgerError(f"{side} may resign only at the head of a step, before it commits to anything in it "
                          "and before any reveal or play of the step (protocol §13.13).")
    return folder.send_signed(game_dir, me, man, side, step, prev, "resign", folder.clock_now(clock), {})
