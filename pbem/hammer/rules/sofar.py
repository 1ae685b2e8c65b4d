"""What an engine call has done so far, read at a question that pauses it (docs/playing.md §5).

A call paused for a decision is replayed whole once the side has answered (ruleset._call), so
the log it returns arrives only when it ends. The reports of the decide step must still show
each side the call up to the question: the game as it then stands and the log lines written so
far, each as that side sees it. Both live on the call's stack: an Event and each winter sub-step
change a working copy of the game that is kept only if it finishes (``engine._atomic``,
``winter.winter``), and a step keeps the lines of its finished parts (the battles fought, the
Herald's die) until it returns them with the rest.

So the engine says here, for as long as it does so, which game it is changing (``working``) and
which lines it holds to return later (``writing``); ``now`` reads them at a question, the lines in
the order the call will return them. The lines of a battle in progress are not held here: the
battle keeps them in the game itself (``current.fight.log``). Nothing here changes what a call
does, the dice it rolls or the log it returns.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, NamedTuple

from pbem.hammer.rules.log import Data, LogEntry, Plain, as_entry

if TYPE_CHECKING:
    from pbem.hammer.rules.state import GameState

Line = LogEntry | Mapping[str, Plain]  # a test double may still write the data form


class _Frame(NamedTuple):
    lines: Sequence[Line] = ()
    game: GameState | None = None


_OPEN: ContextVar[tuple[_Frame, ...]] = ContextVar("pbem_hammer_sofar", default=())


@contextmanager
def _open(frame: _Frame) -> Iterator[None]:
    token = _OPEN.set(_OPEN.get() + (frame,))
    try:
        yield
    finally:
        _OPEN.reset(token)


@contextmanager
def writing(lines: Sequence[Line]) -> Iterator[None]:
    """While the block runs, ``lines`` (a list the caller only appends to, and returns whole at
    its end) are lines of the call written so far."""
    with _open(_Frame(lines=lines)):
        yield


@contextmanager
def working(game: GameState) -> Iterator[None]:
    """While the block runs, ``game`` is the game the call is changing (a working copy)."""
    with _open(_Frame(game=game)):
        yield


class SoFar(NamedTuple):
    """The call at a question: the game it is changing (None: the one it was handed) and the data
    form of the lines it has written, outside any battle in progress, in the order it returns them."""

    game: GameState | None
    lines: list[Data]


def now() -> SoFar:
    """What the open calls have done so far (copies: the call goes on changing its own)."""
    game: GameState | None = None
    lines: list[Data] = []
    for frame in _OPEN.get():
        if frame.game is not None:
            game = frame.game
        lines += [as_entry(line).to_data() for line in frame.lines]
    return SoFar(game, lines)


__all__ = ["SoFar", "now", "working", "writing"]
