"""9.0-9.1: the end-of-scenario count, the Braveheart tie, sudden death; one place for the result."""

from __future__ import annotations

from fakes import ScriptedDice, bare_state, put

from pbem.hammer import victory, winter
from pbem.hammer.decisions import FirstOption
from pbem.hammer.state import DEAD, POOL, GameState

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
    from pbem.hammer.blocks import spec
    return spec(noble).homes[0]


def test_9_0_majority_of_nobles_at_the_end_of_the_scenario() -> None:
    s = end_of(1305, NOBLES[:8])
    assert victory.check_end_of_scenario(s) == "scotland" and "9.0" in s.win_reason


def test_9_0_no_count_before_the_last_year_ends() -> None:
    s = end_of(1304, NOBLES[:8])
    assert victory.check_end_of_scenario(s) == "" and not s.winner
    s = end_of(1305, NOBLES[:8])
    s.turn, s.hands = 3, {"england": ["move1-1"], "scotland": ["move1-2"]}
    assert victory.check_end_of_scenario(s) == ""


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


def test_9_0_the_last_years_winter_is_not_played_before_the_count() -> None:
    s = end_of(1305, NOBLES[:6])
    put(s, "scotland", "Moray", "Moray")
    put(s, "scotland", "Fife", "Wallace")
    put(s, "england", "Badenoch", "Cumbria Infantry")
    s.blocks["Comyn"].location = "Lochaber"  # a Scottish noble whose homes both hold English
    put(s, "england", "Lochaber", "Westmor Infantry")
    winter.winter(s, ScriptedDice(), FirstOption())
    assert s.winner == "scotland" and s.year == 1305 and s.blocks["Comyn"].owner == "scotland"


def test_8_3_the_campaign_never_ends_by_count() -> None:
    s = end_of(1320, NOBLES[:8], scenario="campaign")
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
