"""Names read from outside (a stored state, a position, a report) are checked one way, against the
values of their Literal type (pbem.hammer.rules.vocab.named): a known name comes back as itself, any
other is refused with one sentence naming what kind of name it is and the names there are."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

import pytest

from pbem.hammer.rules import engine
from pbem.hammer.rules.battle_state import STAGE_NAMES, Fight, Stage, stage_named
from pbem.hammer.rules.errors import DataError, InvalidOrder
from pbem.hammer.rules.state import GameState
from pbem.hammer.rules.vocab import (
    ORDER_KINDS,
    PHASE_NAMES,
    SIDE_NAMES,
    OrderKind,
    Phase,
    Side,
    named,
    order_kind_named,
    phase_named,
    side_named,
)


def test_names_each_tuple_holds_exactly_its_literal_types_values() -> None:
    assert SIDE_NAMES == get_args(Side)
    assert PHASE_NAMES == get_args(Phase)
    assert ORDER_KINDS == get_args(OrderKind)
    assert STAGE_NAMES == get_args(Stage)
    assert engine.STEP_NAMES == get_args(engine.StepName)


def test_names_a_known_name_comes_back_and_any_other_is_one_sentence() -> None:
    assert named("move", PHASE_NAMES, "phase") == "move"
    with pytest.raises(DataError) as err:
        named("Move", PHASE_NAMES, "phase", "in the game state")
    assert str(err.value) == ("unknown phase 'Move' in the game state; "
                              "the phases are card, event, move, battle, end_turn, winter, over")


@pytest.mark.parametrize(("check", "names", "message"), [
    (side_named, SIDE_NAMES, "unknown side 'wales'; the sides are england, scotland"),
    (phase_named, PHASE_NAMES,
     "unknown phase 'wales'; the phases are card, event, move, battle, end_turn, winter, over"),
    (order_kind_named, ORDER_KINDS,
     "unknown order kind 'wales'; the order kinds are card, moves, event, decide, winter"),
    (stage_named, STAGE_NAMES, "unknown battle stage 'wales'; the battle stages are round_start, turns, round_end, "
                               "forced_retreat, end, regroup, done"),
    (engine.step_named, engine.STEP_NAMES, "unknown step 'wales' in the stored state's paused call; the steps are "
                                           "submit_cards, submit_events, submit_moves, run_battles, run_winter, "
                                           "end_turn, advance"),
])
def test_names_every_reader_of_a_name_refuses_an_unknown_one_with_data_error(
        check: Callable[[str], str], names: tuple[str, ...], message: str) -> None:
    for name in names:
        assert check(name) == name
    with pytest.raises(DataError) as err:
        check("wales")
    assert str(err.value) == message


def test_5_a_stored_battle_in_an_unknown_stage_is_refused_by_name() -> None:
    data = Fight(area="Fife", attacker="england", defender="scotland", original_attacker="england").to_data()
    assert Fight.from_data(data).stage == "round_start"
    with pytest.raises(DataError, match=r"^unknown battle stage 'melee'; the battle stages are round_start, "):
        Fight.from_data({**data, "stage": "melee"})


def test_3_0_an_engine_call_in_an_unknown_phase_is_refused_as_an_invalid_order() -> None:
    state = GameState(scenario="braveheart", year=1297)
    assert engine.next_step(state) == "card"
    state.phase = "lunch"  # type: ignore[assignment]
    with pytest.raises(InvalidOrder) as err:
        engine.next_step(state)
    assert str(err.value) == ("unknown phase 'lunch' in the game state; "
                              "the phases are card, event, move, battle, end_turn, winter, over")
