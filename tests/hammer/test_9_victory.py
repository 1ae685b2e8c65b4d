"""9.0-9.1: the end-of-scenario count, the Braveheart tie, sudden death; one place for the result."""

from __future__ import annotations

from fakes import ScriptedDice, bare_state, owed, put

from pbem.hammer.rules import victory, winter
from pbem.hammer.rules.decisions import FirstOption
from pbem.hammer.rules.state import DEAD, POOL, GameState

NOBLES = ["Comyn", "Angus", "Argyll", "Bruce", "Mar", "Lennox", "Buchan", "Galloway", "Ross", "Atholl",
          "Dunbar", "Mentieth", "Steward"]


def end_of(year: int, scotland: list[str], scenario: str = "braveheart") -> GameState:
    """Every noble at home, ``scotland``'s for the Scots; the year's cards all played."""
    s = bare_state(scenario, year)
    for n in NOBLES:
        put(s, "scotland" if n in scotland else "england", _home(n), n)
    s.turn = 5
    return s


def _home(noble: str) -> str:
    from pbem.hammer.rules.blocks import spec
    return spec(noble).homes[0]


def test_9_0_majority_of_nobles_at_the_end_of_the_scenario() -> None:
    s = end_of(1305, NOBLES[:8])
    assert victory.check_end_of_scenario(s) == "scotland" and "9.0" in s.win_reason


def test_9_0_no_count_before_the_last_year_ends() -> None:
    assert not winter.counts_this_winter(end_of(1304, NOBLES[:8]))
    assert winter.counts_this_winter(end_of(1305, NOBLES[:8]))
    assert not winter.counts_this_winter(end_of(1313, NOBLES[:8], scenario="the_bruce"))
    assert not winter.counts_this_winter(end_of(1313, NOBLES[:8], scenario="campaign"))
    assert winter.counts_this_winter(end_of(1316, NOBLES[:8], scenario="campaign"))


def test_9_0_braveheart_tie_scots_win_if_wallace_is_on_the_map() -> None:
    s = end_of(1305, NOBLES[:6])
    put(s, "scotland", "Moray", "Moray")  # 7-7
    put(s, "scotland", "Fife", "Wallace")
    assert victory.check_end_of_scenario(s) == "scotland"


def test_9_0_braveheart_tie_english_win_if_wallace_is_dead_or_in_the_pool() -> None:
    for where in (DEAD, POOL):
        s = end_of(1305, NOBLES[:6])
        put(s, "scotland", "Moray", "Moray")
        s.blocks["Wallace"].location = where
        assert victory.check_end_of_scenario(s) == "england"


def test_9_0_the_last_years_winter_is_played_up_to_the_count() -> None:
    """Comyn, Scottish, has both homes held by the English: 7.1 makes him defect before the
    count, and 7-7 becomes 6-8 (the English win although Wallace is on the map)."""
    s = end_of(1305, NOBLES[:6])
    put(s, "scotland", "Moray", "Moray")
    put(s, "scotland", "Fife", "Wallace")
    put(s, "england", "Badenoch", "Cumbria Infantry")
    s.blocks["Comyn"].location = "Lochaber"  # a Scottish noble whose homes both hold English
    put(s, "england", "Lochaber", "Westmor Infantry")
    winter.winter(s, ScriptedDice(), FirstOption())
    assert s.winner == "england" and s.year == 1305 and s.blocks["Comyn"].owner == "england"
    assert "8 of 14" in s.win_reason


def test_8_3_a_campaign_tie_is_no_victory() -> None:
    s = end_of(1320, NOBLES[:6], scenario="campaign")
    put(s, "scotland", "Moray", "Moray")
    put(s, "scotland", "Fife", "Wallace")
    assert victory.check_end_of_scenario(s) == ""


def test_9_1_a_side_controlling_every_noble_in_play_wins() -> None:
    s = end_of(1300, NOBLES)
    assert victory.check_sudden_death(s) == "scotland"
    s = end_of(1300, [])
    assert victory.check_sudden_death(s) == "england"


def test_9_1_moray_on_the_map_denies_the_english_sudden_death() -> None:
    s = end_of(1300, [])
    put(s, "scotland", "Moray", "Moray")
    assert victory.check_sudden_death(s) == ""
    s.blocks["Moray"].location = POOL
    assert victory.check_sudden_death(s) == "england"


def test_9_1_the_first_result_stands() -> None:
    s = end_of(1300, [])
    victory.declare_winner(s, "scotland", "Edward II was eliminated in battle (6.1, 9.1)")
    assert victory.check_sudden_death(s) == "scotland" and "Edward II" in s.win_reason


def test_9_0_the_english_win_with_the_majority_too() -> None:
    s = end_of(1305, NOBLES[:5])
    assert victory.check_end_of_scenario(s) == "england" and "8 of 13" in s.win_reason


def test_9_0_the_bruce_is_counted_at_the_end_of_1314() -> None:
    s = end_of(1314, NOBLES[:8], scenario="the_bruce")
    assert victory.check_end_of_scenario(s) == "scotland" and "1314" in s.win_reason


def test_8_3_the_campaign_plays_on_past_1314_while_the_count_gives_no_winner() -> None:
    s = end_of(1314, NOBLES[:6], scenario="campaign")
    put(s, "scotland", "Moray", "Moray")  # 7-7: no victory in the Campaign (8.3)
    s.edward = "II"
    s.hands = {"england": [], "scotland": []}
    winter.winter(s, ScriptedDice(), FirstOption())
    assert not s.winner and s.year == 1315 and len(s.hands["england"]) == 5


def test_9_1_sudden_death_waits_for_the_end_of_the_game_turn() -> None:
    """A Herald converts the last Scottish noble: England wins only when the Game Turn ends."""
    from pbem.hammer.rules import engine
    s = end_of(1300, [])
    s.turn = 0
    s.blocks["Mar"].owner = "scotland"
    s.hands = {"england": ["herald", "move1-1"], "scotland": ["move2-1", "move1-2"]}
    assert victory.check_sudden_death(s) == ""
    engine.submit_cards(s, {"england": "herald", "scotland": "move2-1"}, ScriptedDice([1]), FirstOption())
    engine.submit_events(s, "england", {"noble": "Mar"}, ScriptedDice([1]), FirstOption())
    assert s.blocks["Mar"].owner == "england" and not s.winner  # all nobles English, the turn goes on
    assert owed(s) == {"scotland": "moves"}
    engine.submit_moves(s, "scotland", {"moves": []}, ScriptedDice(), FirstOption())
    assert s.winner == "england" and "9.1" in s.win_reason and engine.next_step(s) == "over"


def test_9_1_no_winner_when_no_noble_is_in_play() -> None:
    s = bare_state()
    assert victory.check_sudden_death(s) == "" and not s.winner


def test_9_2_opposite_bids_cancel_and_the_net_goes_to_the_higher_bidder() -> None:
    import pytest

    from pbem.hammer.rules.errors import InvalidOrder
    assert victory.net_bid("E3", "S3") == ""      # an E3 bid plays an S3 bid: neither applies
    assert victory.net_bid("E2", "S1") == "E1"    # Edward not in play for 1297
    assert victory.net_bid("E1", "S3") == "S2"
    assert victory.net_bid("", "S2") == "S2" and victory.net_bid("E2", "") == "E2"
    with pytest.raises(InvalidOrder, match=r"\(9\.2\)"):
        victory.net_bid("S1", "S2")
