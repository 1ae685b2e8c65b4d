"""6.0-6.22: Edward I and II, coronations, the Return of King Balliol, defection battles."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import ScriptedDice, bare_state, owed, put

from pbem.hammer.rules import events, kings
from pbem.hammer.rules.decisions import FirstOption
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import as_entry
from pbem.hammer.rules.state import DEAD, POOL, GameState


@pytest.fixture
def fights(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str], str]]:
    calls: list[tuple[str, list[str], str]] = []

    def fake(state: GameState, area: str, defectors: list[str], rng: Any, decider: Any) -> list[dict[str, Any]]:
        calls.append((area, list(defectors), state.blocks[defectors[0]].owner))
        return []

    monkeypatch.setattr(kings, "_fight_defection", fake)
    return calls


def test_6_1_edward_i_becomes_edward_ii_at_the_end_of_1306() -> None:
    s = bare_state("the_bruce", 1305)
    kings.end_of_1306(s)
    assert s.edward == "I"
    s.year = 1306
    kings.end_of_1306(s)
    assert s.edward == "II"


def test_6_1_edward_i_killed_returns_as_edward_ii_and_edward_ii_killed_loses() -> None:
    s = bare_state()
    put(s, "england", "Lothian", "Edward")
    kings.edward_dies(s)
    assert s.edward == "II" and s.blocks["Edward"].location == POOL and not s.winner
    kings.edward_dies(s)
    assert s.winner == "scotland" and "9.1" in s.win_reason


def test_6_2_scottish_king_killed_is_an_english_victory() -> None:
    s = bare_state()
    kings.king_dies(s)
    assert s.winner == "england"


def crowning_position() -> GameState:
    s = bare_state("braveheart", 1302)
    s.blocks["Wallace"].location = DEAD
    put(s, "scotland", "Fife", "Bruce", "Douglas")
    put(s, "scotland", "Fife", "Angus")                 # Comyn faction, with the new King
    put(s, "scotland", "Moray", "Moray")                # Comyn faction, never defects
    put(s, "scotland", "Buchan", "Buchan")              # Comyn faction, alone
    put(s, "scotland", "Lennox", "Lennox", "Campbell")  # Bruce faction
    put(s, "england", "Lanark", "Steward")
    return s


def test_6_21_crowning_bruce_places_the_king_and_comyn_nobles_but_moray_defect(fights: list) -> None:
    s = crowning_position()
    log = events.resolve_event(s, "scotland", "truce", {"coronation": "Bruce"}, ScriptedDice(), FirstOption())
    assert s.king == "Bruce" and s.current.truce == ""  # announced instead of the event
    king = s.blocks["King"]
    assert (king.owner, king.location, king.strength) == ("scotland", "Fife", 4)
    assert s.blocks["Bruce"].location == "Fife" and s.blocks["Bruce"].owner == "scotland"
    assert s.blocks["Angus"].owner == "england" and s.blocks["Buchan"].owner == "england"
    assert s.blocks["Moray"].owner == "scotland" and s.blocks["Lennox"].owner == "scotland"
    assert log[0].facts["defectors"] == ["Angus", "Buchan"]
    assert fights == [("Fife", ["Angus"], "england")]  # only where he stands among Scots, attacking


def test_6_21_crowning_comyn_makes_the_bruce_nobles_defect(fights: list) -> None:
    s = crowning_position()
    put(s, "scotland", "Fife", "Comyn")
    events.resolve_event(s, "scotland", "herald", {"coronation": "Comyn"}, ScriptedDice(), FirstOption())
    assert s.king == "Comyn"
    assert s.blocks["Bruce"].owner == "england" and s.blocks["Lennox"].owner == "england"
    assert s.blocks["Angus"].owner == "scotland" and s.blocks["Comyn"].owner == "scotland"
    assert fights == [("Fife", ["Bruce"], "england"), ("Lennox", ["Lennox"], "england")]


@pytest.mark.parametrize("change, rule", [
    (lambda s: setattr(s.blocks["Wallace"], "location", "Fife"), "6.21"),  # Wallace alive
    (lambda s: setattr(s.blocks["Bruce"], "location", "Lennox"), "6.21"),  # not in Fife
    (lambda s: setattr(s, "king", "Balliol"), "6.2"),                      # once per game
])
def test_6_21_coronation_conditions(change: Any, rule: str) -> None:
    s = crowning_position()
    change(s)
    assert "Bruce" not in kings.coronation_candidates(s)
    with pytest.raises(IllegalOrder) as err:
        events.resolve_event(s, "scotland", "victuals", {"coronation": "Bruce"}, ScriptedDice(), FirstOption())
    assert err.value.rule == rule


def test_6_2_only_the_scots_crown_a_king() -> None:
    s = crowning_position()
    with pytest.raises(IllegalOrder, match=r"\(6\.2\)"):
        events.resolve_event(s, "england", "victuals", {"coronation": "Bruce"}, ScriptedDice(), FirstOption())


def test_6_22_return_of_king_balliol(fights: list) -> None:
    s = crowning_position()
    s.blocks["Wallace"].location = "Fife"  # Wallace may be alive
    put(s, "scotland", "Argyll", "French Knights")
    put(s, "scotland", "Mar", "Mar")
    put(s, "england", "Mar", "Northumber Infantry")  # a contested Mar: after defecting, Mar stands with friends
    assert kings.coronation_candidates(s) == ["Balliol"]
    events.resolve_event(s, "scotland", "pillage", {"coronation": "Balliol"}, ScriptedDice(), FirstOption())
    assert s.king == "Balliol"
    assert s.blocks["King"].location == "Argyll" and s.blocks["King"].strength == 4
    assert s.blocks["Bruce"].owner == "england" and s.blocks["Angus"].owner == "scotland"
    assert [f[0] for f in fights] == ["Fife", "Lennox"]  # Mar: the defector now stands with friends only


def test_6_22_balliol_needs_1301_and_the_french_knights_on_the_map() -> None:
    s = crowning_position()
    s.year = 1300
    put(s, "scotland", "Argyll", "French Knights")
    assert "Balliol" not in kings.coronation_candidates(s)
    s.year = 1301
    assert "Balliol" in kings.coronation_candidates(s)
    s.blocks["French Knights"].location = POOL
    assert "Balliol" not in kings.coronation_candidates(s)


def test_6_2_coronation_is_listed_among_the_legal_event_options() -> None:
    s = crowning_position()
    options = events.legal_events(s, "scotland", "truce")
    assert options[0] == {"coronation": "Bruce"} and options[-1] == {"pass": True}
    assert {"coronation": "Bruce"} not in events.legal_events(s, "england", "truce")


def test_6_21_a_defection_battle_is_fought_at_once_with_the_defectors_attacking() -> None:
    """The real battle (battle.py), not a stand-in: fought inside the Event, before any Move Phase."""
    s = crowning_position()
    dice = ScriptedDice([1] * 4)  # the King (A3) fires first: four hits
    log = events.resolve_event(s, "scotland", "truce", {"coronation": "Bruce"}, dice, FirstOption())
    battle = [e for e in map(as_entry, log) if e.what == "battle"]
    assert battle and battle[0].facts["area"] == "Fife" and battle[0].facts["attacker"] == "england"
    assert dice.position > 0 and not s.current.battles and s.current.fight is None  # fought to its end
    assert s.control("Fife") == "scotland"  # every die hits: Angus falls and is captured (5.7)
    assert s.blocks["Angus"].owner == "scotland"


def test_6_2_the_scots_choose_coronation_after_the_english_event_is_resolved() -> None:
    """Both Events: England's Herald first (3.12); the Scottish options are listed only then."""
    from pbem.hammer.rules import engine

    def both_events(english_die: int) -> GameState:
        s = crowning_position()
        s.hands = {"england": ["herald", "move1-1"], "scotland": ["truce", "move1-2"]}
        engine.submit_cards(s, {"england": "herald", "scotland": "truce"}, ScriptedDice(), FirstOption())
        assert owed(s) == {"england": "event"} and {"coronation": "Bruce"} in events.legal_events(s, "scotland")
        dice = ScriptedDice([english_die] + [6] * 60)  # then every battle die misses
        engine.submit_events(s, "england", {"noble": "Bruce"}, dice, FirstOption())
        assert owed(s) == {"scotland": "event"}
        return s

    failed = both_events(6)  # the Herald fails: Bruce may still be crowned
    assert {"coronation": "Bruce"} in events.legal_events(failed, "scotland")
    engine.submit_events(failed, "scotland", {"coronation": "Bruce"}, ScriptedDice([6] * 60), FirstOption())
    assert failed.king == "Bruce" and failed.current.truce == ""
    won = both_events(1)  # Bruce turns English, fights in Fife at once, retreats: no Bruce to crown
    assert won.blocks["Bruce"].owner == "england" and won.blocks["Bruce"].location != "Fife"
    assert {"coronation": "Bruce"} not in events.legal_events(won, "scotland")
    with pytest.raises(IllegalOrder) as err:
        engine.submit_events(won, "scotland", {"coronation": "Bruce"}, ScriptedDice([6] * 60), FirstOption())
    assert err.value.rule == "6.21" and not won.king


def test_6_22_balliol_only_while_no_king_has_been_crowned() -> None:
    s = crowning_position()
    put(s, "scotland", "Argyll", "French Knights")
    assert "Balliol" in kings.coronation_candidates(s)
    s.king = "Comyn"
    assert kings.coronation_candidates(s) == []
    with pytest.raises(IllegalOrder) as err:
        events.resolve_event(s, "scotland", "sea_move", {"coronation": "Balliol"}, ScriptedDice(), FirstOption())
    assert err.value.rule == "6.2"
