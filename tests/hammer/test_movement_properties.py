"""The legal-move generator agrees exactly with the validator (4.0-4.7), on random positions.

Positions: random blocks in random areas (each area held by one side or empty) at random
strengths, random cards, either side as Player 1, sometimes a Truce; when Player 2 moves,
Player 1 first makes random legal moves (attacks included), so pinning and closed borders apply.
"""

from __future__ import annotations

from typing import Any

import pytest
from fakes import bare_state, put
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import CARD, OTHER_CARD

from pbem.hammer.rules.blocks import blocks, other_side
from pbem.hammer.rules.board import board
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.movement import Step, apply_moves, legal_steps, scratch_copy
from pbem.hammer.rules.orders import SEA, GroupMove, MainAttack, MoveOrder, MovePart
from pbem.hammer.rules.state import GameState

AREAS = board().area_names()


@st.composite
def positions(draw: Any) -> tuple[GameState, str]:
    """A position in a Move Phase and the side whose turn it is to move."""
    state = bare_state()
    holder = {a: draw(st.sampled_from(["england", "scotland", "", ""])) for a in AREAS}
    for name, s in blocks().items():
        if name in ("King", "French Knights") or not draw(st.booleans()):
            continue
        side = draw(st.sampled_from(s.sides))
        areas = [a for a in AREAS if holder[a] == side]
        if not areas:
            continue
        area = draw(st.sampled_from(areas))
        put(state, side, area, name, strength=draw(st.integers(1, s.steps)))
    p1 = draw(st.sampled_from(["england", "scotland"]))
    values = {"england": draw(st.integers(0, 3)), "scotland": draw(st.integers(0, 3))}
    state.current.cards = {"england": CARD[values["england"]], "scotland": OTHER_CARD[values["scotland"]]}
    state.current.player1 = p1
    state.phase = "move"
    if draw(st.integers(0, 5)) == 0:  # a Truce: its player is Player 1 and does not move
        state.current.cards[p1] = "truce"
        state.current.truce = p1
        return state, other_side(p1)
    if draw(st.booleans()):
        return state, p1
    # Player 1 moves first, at random, then it is Player 2's turn.
    done = MoveOrder()
    for _ in range(values[p1]):
        options = legal_steps(state, p1, done)
        if not options:
            break
        step = draw(st.sampled_from(options))
        done = MoveOrder(moves=done.moves + (step.group_move(),))
    apply_moves(state, p1, with_main_attacks(state, p1, done))
    return state, other_side(p1)


def with_main_attacks(state: GameState, side: str, order: MoveOrder) -> MoveOrder:
    """Declare the first attacking group in every attacked area the Main Attack (5.32)."""
    main: dict[str, MainAttack] = {}
    for gm in order.moves:
        paths = [(gm.sea_to,)] if gm.is_sea else [p.path for p in gm.parts]
        for path in paths:
            dest = path[-1]
            battle = state.current.battles.get(dest)
            defending = battle is not None and battle.attacker != side  # reinforcements (5.33)
            if state.is_enemy_occupied(dest, side) and not defending and dest not in main:
                via = SEA if gm.is_sea else (path[-2] if len(path) > 1 else gm.origin)
                main[dest] = MainAttack(gm.origin, via)
    return MoveOrder(moves=order.moves, main_attack=main, pins=order.pins)


def accepted(state: GameState, side: str, order: MoveOrder) -> bool:
    try:
        apply_moves(scratch_copy(state), side, order)
    except IllegalOrder:
        return False
    return True


@st.composite
def candidates(draw: Any, state: GameState, side: str) -> Step:
    """A random single-block move, often illegal: any block, a random walk, sometimes a jump."""
    names = sorted(n for n, b in state.blocks.items() if b.location in board().areas)
    block = (
        draw(st.sampled_from(names)) if names and draw(st.integers(0, 9)) else draw(st.sampled_from(sorted(blocks())))
    )
    here = state.blocks[block].location
    origin = here if here in board().areas and draw(st.integers(0, 9)) else draw(st.sampled_from(AREAS))
    if block == "Norse" and draw(st.booleans()):
        return Step(origin, block, (draw(st.sampled_from(AREAS)),), sea=True)
    path: list[str] = []
    cur = origin
    for _ in range(draw(st.integers(1, 4))):
        nxt = draw(st.sampled_from(board().neighbours(cur))) if draw(st.integers(0, 9)) else \
            draw(st.sampled_from(AREAS))
        path.append(nxt)
        cur = nxt
    return Step(origin, block, tuple(path))


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_4_x_every_generated_step_is_accepted_and_every_accepted_step_is_generated(data: st.DataObject) -> None:
    state, side = data.draw(positions())
    steps = legal_steps(state, side)
    assert steps == sorted(steps, key=lambda s: (s.origin, s.block, len(s.path), s.path))
    assert len(set(steps)) == len(steps)
    for step in steps:
        assert accepted(state, side, step.order()), step
    generated = set(steps)
    for _ in range(25):
        step = data.draw(candidates(state, side))
        assert accepted(state, side, step.order()) == (step in generated), step


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_4_x_steps_after_earlier_moves_are_accepted_after_them(data: st.DataObject) -> None:
    state, side = data.draw(positions())
    done = MoveOrder()
    for _ in range(3):
        steps = legal_steps(state, side, done)
        for step in steps[:: max(1, len(steps) // 15)]:
            trial = MoveOrder(moves=done.moves + (step.group_move(),))
            assert accepted(state, side, with_main_attacks(state, side, trial)), step
        if not steps:
            break
        done = MoveOrder(moves=done.moves + (data.draw(st.sampled_from(steps)).group_move(),))


def test_4_x_a_multi_block_part_is_checked_block_by_block() -> None:
    """Two blocks on one path: the red-border limit of 2 lets exactly two through (4.3)."""
    state = bare_state()
    put(state, "scotland", "Buchan", "Wallace", "Douglas", "Campbell")
    state.current.cards = {"england": "move1-1", "scotland": "move1-2"}
    state.current.player1 = "scotland"
    two = MoveOrder(moves=(GroupMove("Buchan", parts=(MovePart(("Wallace", "Douglas"), ("Badenoch",)),)),))
    three = MoveOrder(
        moves=(GroupMove("Buchan", parts=(MovePart(("Wallace", "Douglas", "Campbell"), ("Badenoch",)),)),)
    )
    assert accepted(state, "scotland", two) and not accepted(state, "scotland", three)
