"""A second reading of the rules: interactions between rules that the clause tests missed.

Each test is named after the rule it checks and was red before its fix.
"""

from __future__ import annotations

import pytest
from fakes import Recorder, ScriptedDice, bare_state, put

from pbem.hammer.rules import engine, events
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import as_entry
from pbem.hammer.rules.state import GameState


def _both_events(england: str, scotland: str) -> GameState:
    """A bare board in the Event step of a turn where both sides played an Event."""
    s = bare_state()
    s.phase, s.turn = "event", 1
    s.current.cards = {"england": england, "scotland": scotland}
    s.current.player1 = "england"
    return s


# --- 5.9 / 3.12: a Truce keeps the Scots out of England, by Sea Move too -------------------------------

def test_5_9_no_scottish_sea_move_into_england_during_a_truce() -> None:
    s = _both_events("truce", "sea_move")
    put(s, "scotland", "England", "Douglas")          # already raiding: England is friendly to them
    put(s, "scotland", "Lothian", "Barclay")
    engine.submit_events(s, "england", {}, ScriptedDice(), Recorder())   # England's Truce first (3.12)
    move = {"from": "Lothian", "to": "England", "blocks": ["Barclay"]}
    assert move not in events.legal_events(s, "scotland")
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as err:
        engine.submit_events(s, "scotland", move, ScriptedDice(), Recorder())
    assert err.value.rule == "5.9" and "Truce" in str(err.value)
    assert s.blocks["Barclay"].location == "Lothian"
    assert s.to_dict() == before


def test_5_9_scottish_sea_move_into_england_without_a_truce_is_a_raid() -> None:
    s = _both_events("victuals", "sea_move")
    put(s, "scotland", "England", "Douglas")
    put(s, "scotland", "Lothian", "Barclay")
    engine.submit_events(s, "england", {"pass": True}, ScriptedDice(), Recorder())
    move = {"from": "Lothian", "to": "England", "blocks": ["Barclay"]}
    assert move in events.legal_events(s, "scotland")
    engine.submit_events(s, "scotland", move, ScriptedDice(), Recorder())
    assert s.blocks["Barclay"].location == "England"


# --- interactions probed and found right: kept as regression tests ----------------------------------

def test_5_9_under_a_truce_raiders_already_in_england_stay_and_england_still_loses_a_block() -> None:
    s = _both_events("truce", "victuals")
    put(s, "scotland", "England", "Douglas")
    put(s, "england", "Lothian", "Cumbria Infantry")
    put(s, "england", "Mar", "Mar")                   # nobles are never the raid's loss
    put(s, "scotland", "Lennox", "Lennox")            # no sudden death (9.1)
    engine.submit_events(s, "england", {}, ScriptedDice(), Recorder())
    engine.submit_events(s, "scotland", {"pass": True}, ScriptedDice(), Recorder())
    assert s.blocks["Douglas"].location == "England"
    assert s.blocks["Cumbria Infantry"].location == "pool"
    assert s.blocks["Mar"].location == "Mar"
    assert s.phase == "winter"                         # two Events: the year ends after the raid (3.12)


def test_1_4_a_noble_converted_by_herald_attacks_his_home_at_b2_and_captured_back_defends_at_b3() -> None:
    s = bare_state()
    put(s, "scotland", "Mar", "Mar", "Douglas")
    log = events.resolve_event(s, "england", "herald", {"noble": "Mar"}, ScriptedDice([1] + [3] * 40), Recorder())
    fire = [e for e in map(as_entry, log) if e.what == "fire"]
    assert fire[0].facts["block"] == "Mar" and fire[0].facts["rating"] == "B2" and fire[0].facts["hits"] == 0
    captured = [e for e in map(as_entry, log) if e.what == "eliminated"]
    assert captured and captured[0].facts["block"] == "Mar" and captured[0].facts["now"] == "scotland"
    assert s.blocks["Mar"].owner == "scotland" and s.blocks["Mar"].strength == 1
