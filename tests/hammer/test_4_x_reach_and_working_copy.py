"""4.0-4.7 on random positions (Truce, pins, closed borders, border limits part used, any card value):
the moves a report lists (``legal_group_moves``, whose areas are found breadth first) are the
destinations of the legal steps, also for a side as Player 1 of a new turn with a card of value 1
(the reach a card report lists, 4.1); and a Move Phase is made on a working copy that shares the
block records with the state until a block moves: checking an order changes no record of the
state, making it changes the state's own records (a caller holding one sees the new area)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_movement_properties import positions, with_main_attacks

from pbem.hammer.play.order_kinds.card import A_MOVE_CARD
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.movement import apply_moves, check_moves, legal_group_moves, legal_steps
from pbem.hammer.rules.orders import MoveOrder
from pbem.hammer.rules.state import GameState, Turn


def _from_steps(state: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, set[str]]] = {}
    for step in legal_steps(state, side):
        out.setdefault(step.origin, {}).setdefault(step.block, set()).add(step.destination)
    return {o: {b: sorted(d) for b, d in sorted(bs.items())} for o, bs in sorted(out.items())}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_4_x_listed_reach_is_the_legal_steps_destinations_on_random_positions(position: Any) -> None:
    state, side = position
    assert legal_group_moves(state, side) == _from_steps(state, side)
    as_player1 = state.copy()
    as_player1.current = Turn(cards={side: A_MOVE_CARD}, player1=side)
    assert legal_group_moves(as_player1, side) == _from_steps(as_player1, side)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_4_0_a_move_phase_touches_the_states_block_records_only_when_made(data: st.DataObject) -> None:
    state, side = data.draw(positions())
    steps = legal_steps(state, side)
    order = MoveOrder()
    if steps:
        order = MoveOrder(moves=(data.draw(st.sampled_from(steps)).group_move(),))
    order = with_main_attacks(state, side, order)
    records = dict(state.blocks)
    before = copy.deepcopy(state.to_dict())
    try:
        check_moves(state, side, order)
    except IllegalOrder:
        pass
    assert state.to_dict() == before and all(state.blocks[n] is r for n, r in records.items())
    try:
        apply_moves(state, side, order)
    except IllegalOrder:
        assert state.to_dict() == before
        return
    assert all(state.blocks[n] is r for n, r in records.items())  # the same records, moved in place
    for gm in order.moves:
        for part in gm.parts:
            for block in part.blocks:
                assert records[block].location == part.path[-1]
