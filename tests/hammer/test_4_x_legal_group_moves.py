"""4.x: the moves a report lists (``legal_group_moves``, worked out from each area's paths) are
exactly the destinations of the legal steps (``legal_steps``), in the same order, at every step
of whole games and for either side as Player 1 of a new turn (the reach a card report lists)."""

from __future__ import annotations

import pytest

from pbem.hammer.play.bots import random_game
from pbem.hammer.rules.movement import legal_group_moves, legal_steps
from pbem.hammer.rules.state import GameState, Options, Turn


def _from_steps(state: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for step in legal_steps(state, side):
        dests = out.setdefault(step.origin, {}).setdefault(step.block, [])
        if step.destination not in dests:
            dests.append(step.destination)
    return {o: {b: sorted(d) for b, d in sorted(bs.items())} for o, bs in sorted(out.items())}


def _same(state: GameState, side: str) -> None:
    listed, stepped = legal_group_moves(state, side), _from_steps(state, side)
    assert listed == stepped
    assert list(listed) == list(stepped) and all(list(listed[o]) == list(stepped[o]) for o in listed)


def _check(state: GameState, step: str) -> None:
    for side in ("england", "scotland"):
        _same(state, side)
        as_player1 = state.copy()
        as_player1.current = Turn(cards={side: "move3-3"}, player1=side)
        _same(as_player1, side)


@pytest.mark.parametrize("sid", ["braveheart", "the_bruce", "campaign"])
def test_4_x_listed_moves_are_the_legal_steps_destinations(sid: str) -> None:
    random_game(sid, 1, Options(schiltroms=True), after_step=_check, until_year=1310)
