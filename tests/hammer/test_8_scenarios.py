"""8.1-8.3 scenario set-ups and 9.2 tournament bids, as scenario.setup builds them."""

from __future__ import annotations

import pytest

from pbem.core.drbg import Drbg
from pbem.hammer.rules.blocks import blocks, spec
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.scenario import draw_levy, edward_barred, scenario, setup
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, GameState, Options


def start(sid: str, seed: int = 0, **options: object) -> GameState:
    return setup(sid, Options(**options), Drbg(seed.to_bytes(4, "big") * 8))  # type: ignore[arg-type]


def placed(state: GameState, side: str) -> dict[str, list[str]]:
    """Blocks on the Scottish map (England excluded: the levy lands there at random)."""
    out: dict[str, list[str]] = {}
    for name in state.blocks_of(side):
        loc = state.blocks[name].location
        if loc not in (POOL, DEAD, OFF_MAP, "England"):
            out.setdefault(loc, []).append(name)
    return out


NOBLES_BRAVEHEART_ENGLISH = {"Comyn": "Badenoch", "Angus": "Angus", "Argyll": "Argyll", "Mar": "Mar",
                             "Lennox": "Lennox", "Buchan": "Buchan", "Ross": "Ross", "Atholl": "Atholl",
                             "Dunbar": "Dunbar", "Mentieth": "Mentieth", "Steward": "Lanark"}


def test_8_1_braveheart_english_nobles_at_home_comyn_in_badenoch() -> None:
    state = start("braveheart")
    for noble, area in NOBLES_BRAVEHEART_ENGLISH.items():
        assert state.blocks[noble].owner == "england" and state.blocks[noble].location == area
        assert area in spec(noble).homes
    assert placed(state, "england")["Lothian"] == ["Cumbria Infantry"]
    assert sorted(placed(state, "england")["Mentieth"]) == ["Mentieth", "Northumber Infantry"]


def test_8_1_braveheart_scottish_deployment() -> None:
    assert placed(start("braveheart"), "scotland") == {
        "Annan": ["Bruce"], "Galloway": ["Galloway"], "Fife": ["Barclay", "Douglas", "Wallace"],
        "Moray": ["Fraser", "Moray"], "Strathspey": ["Grant"]}


def test_8_1_every_placed_block_is_at_full_strength() -> None:
    for sid in ("braveheart", "the_bruce", "campaign"):
        state = start(sid)
        for name, b in state.blocks.items():
            if b.location not in (POOL, DEAD, OFF_MAP):
                assert b.strength == spec(name).steps, (sid, name)


def test_8_1_braveheart_english_pool_13_minus_a_levy_of_4() -> None:
    state = start("braveheart")
    assert len(state.blocks_of("england", "England")) == 4
    assert len(state.pool("england")) == 9
    assert scenario("braveheart").english_levy == 4


def test_8_1_braveheart_scottish_pool_7_king_and_french_knights_off_map() -> None:
    state = start("braveheart")
    assert len(state.pool("scotland")) == 7
    assert state.blocks_of("scotland", OFF_MAP) == ["French Knights", "King"]
    assert state.blocks_of("scotland", DEAD) == [] and state.king == ""


def test_8_1_braveheart_runs_1297_to_1305() -> None:
    sc = scenario("braveheart")
    assert (sc.first_year, sc.last_year) == (1297, 1305)
    assert start("braveheart").year == 1297


def test_8_1_every_noble_is_in_play_for_exactly_one_side_at_the_start() -> None:
    for sid in ("braveheart", "the_bruce", "campaign"):
        state = start(sid)
        for name, s in blocks().items():
            if s.is_noble and state.blocks[name].location != DEAD:
                assert state.blocks[name].location not in (POOL, OFF_MAP), (sid, name)
                assert state.blocks[name].owner in s.sides


def test_8_2_the_bruce_english_deployment() -> None:
    state = start("the_bruce")
    eng = placed(state, "england")
    for noble in ("Comyn", "Angus", "Argyll", "Buchan", "Galloway", "Ross"):  # the 6 Comyn nobles
        assert spec(noble).faction == "comyn"
        assert state.blocks[noble].owner == "england"
    assert state.blocks["Comyn"].location == "Badenoch"
    assert eng["Moray"] == ["Cumbria Infantry"]
    assert sorted(eng["Mentieth"]) == ["Mentieth", "Northumber Infantry"]
    assert eng["Lothian"] == ["Durham Infantry"]
    assert sorted(eng["Lanark"]) == ["Steward", "Westmor Infantry"]


def test_8_2_the_bruce_scottish_deployment_king_crowned_wallace_and_moray_dead() -> None:
    state = start("the_bruce")
    assert placed(state, "scotland") == {
        "Dunbar": ["Dunbar"], "Lennox": ["Campbell", "Lennox"], "Atholl": ["Atholl"], "Mar": ["Mar"],
        "Carrick": ["Bruce", "Lindsay"], "Fife": ["Barclay", "Douglas", "King"]}
    assert state.blocks_of("scotland", DEAD) == ["Moray", "Wallace"]
    assert state.blocks_of("scotland", OFF_MAP) == ["French Knights"]
    assert state.king == "Bruce"


def test_8_2_the_bruce_pools_11_english_minus_a_levy_of_6_and_7_scottish() -> None:
    state = start("the_bruce")
    assert len(state.blocks_of("england", "England")) == 6
    assert len(state.pool("england")) == 5
    assert len(state.pool("scotland")) == 7


def test_8_2_the_bruce_runs_1306_to_1314_with_edward_i_alive() -> None:
    state = start("the_bruce")
    sc = scenario("the_bruce")
    assert (sc.first_year, sc.last_year) == (1306, 1314) and state.year == 1306
    assert state.edward == "I" and state.edward_wintered == 0


def test_8_3_campaign_starts_as_braveheart_with_no_last_year() -> None:
    camp, brave = start("campaign", 7), start("braveheart", 7)
    assert scenario("campaign").last_year == 0 and camp.year == 1297
    assert {n: (b.owner, b.location, b.strength) for n, b in camp.blocks.items()} == \
           {n: (b.owner, b.location, b.strength) for n, b in brave.blocks.items()}
    assert camp.hands == brave.hands


def test_8_0_set_up_deals_five_cards_each_and_every_block_has_one_place() -> None:
    for sid in ("braveheart", "the_bruce", "campaign"):
        state = start(sid, 3)
        assert sorted(state.blocks) == sorted(blocks())
        assert len(state.hands["england"]) == len(state.hands["scotland"]) == 5
        assert sorted(state.hands["england"] + state.hands["scotland"] + state.deck) == sorted(deck())
        assert state.check() == []


def test_8_0_unknown_scenario_is_refused() -> None:
    with pytest.raises(InvalidOrder, match="unknown scenario 'falkirk'"):
        start("falkirk")


def test_8_0_set_up_is_a_function_of_the_stream() -> None:
    assert start("braveheart", 11).hash() == start("braveheart", 11).hash()
    assert len({start("braveheart", s).hash() for s in range(5)}) == 5


def test_9_2_e_bid_keeps_edward_in_the_pool_undrawable_for_that_many_years() -> None:
    for seed in range(40):
        state = start("braveheart", seed, bid="E2")
        assert state.blocks["Edward"].location == POOL, seed
    state = start("braveheart", 0, bid="E2")
    assert edward_barred(state, 1297) and edward_barred(state, 1298) and not edward_barred(state, 1299)
    assert not edward_barred(start("braveheart", 0, bid="S2"), 1297)
    assert not edward_barred(start("braveheart", 0), 1297)


def test_9_2_without_a_bid_edward_can_be_drawn_in_the_first_levy() -> None:
    assert any(start("braveheart", seed).blocks["Edward"].location == "England" for seed in range(40))


def test_9_2_barred_edward_still_counts_toward_the_levy_size() -> None:
    state = start("braveheart", 0, bid="E1")
    pool = state.pool("england")
    assert "Edward" in pool  # counted in the pool: a levy of "half the pool" counts him (7.7, 9.2)
    drawn = draw_levy(state, Drbg(b"levy-levy-levy-levy!" * 2), len(pool), 1297)
    assert "Edward" not in drawn and len(drawn) == len(pool) - 1
    assert state.pool("england") == ["Edward"]


def test_9_2_e_bid_in_the_bruce_counts_from_1306() -> None:
    state = start("the_bruce", 0, bid="E1")
    assert edward_barred(state, 1306) and not edward_barred(state, 1307)


def test_9_2_s_bid_adds_blocks_to_the_first_levy() -> None:
    state = start("braveheart", 0, bid="S3")
    assert len(state.blocks_of("england", "England")) == 4 + 3
    assert len(state.pool("england")) == 13 - 7
    state = start("the_bruce", 0, bid="S1")
    assert len(state.blocks_of("england", "England")) == 6 + 1


def test_9_2_unknown_bid_is_refused() -> None:
    with pytest.raises(InvalidOrder, match=r"unknown tournament bid 'E4'.*\(9\.2\)"):
        start("braveheart", 0, bid="E4")


def test_5_4_schiltroms_option_is_carried_in_the_state() -> None:
    state = start("braveheart", 0, schiltroms=True)
    assert state.options.schiltroms is True
    assert GameState.from_dict(state.to_dict()).options.schiltroms is True
    assert start("braveheart").options.schiltroms is False


class AlwaysWinter:
    """Says "winter" to Edward's wintering whenever it is offered; otherwise the first option."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def decide(self, question: object) -> str:
        kind, options = question.kind, question.options  # type: ignore[attr-defined]
        self.asked.append(kind)
        return "winter" if kind == "winter_edward" and "winter" in options else options[0]


def _winter_with_edward_in(state: GameState, area: str) -> AlwaysWinter:
    from pbem.hammer.rules import engine
    state.blocks["Edward"].location, state.blocks["Edward"].strength = area, 4
    state.phase, state.turn = "winter", 5
    state.hands = {"england": [], "scotland": []}
    decider = AlwaysWinter()
    engine.run_winter(state, Drbg(b"winter-1306-key!" * 2), decider)
    return decider


def test_8_2_edward_i_cannot_winter_in_scotland_in_1306_and_becomes_edward_ii() -> None:
    state = start("the_bruce")
    decider = _winter_with_edward_in(state, "Lanark")  # English-held, in Scotland
    assert "winter_edward" not in decider.asked
    assert state.blocks["Edward"].location != "Lanark"
    assert state.edward == "II" and state.year == 1307


def test_8_3_campaign_edward_i_may_winter_in_scotland_before_1306() -> None:
    state = start("campaign")
    decider = _winter_with_edward_in(state, "Lanark")
    assert "winter_edward" in decider.asked
    assert state.blocks["Edward"].location == "Lanark" and state.edward == "I"
    assert state.edward_wintered == 1297 and state.year == 1298


# --- data validation on load ---------------------------------------------------------------------

def scenario_data() -> dict:
    import copy

    from pbem.hammer.rules.board import load_toml_resource
    return copy.deepcopy(load_toml_resource("scenarios.toml"))


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["braveheart"]["scottish"]["Fife"].append("Gandalf"), "braveheart places unknown block 'Gandalf'"),
    (lambda d: d["braveheart"]["scottish"]["Fife"].append("Grant"), "braveheart places Grant twice"),
    (lambda d: d["braveheart"]["english"].update(Narnia=["York Knights"]), "unknown area 'Narnia'"),
    (lambda d: d["braveheart"]["english"].update(Fife=["Wallace"]), "gives Wallace to england"),
    (lambda d: d["the_bruce"]["scottish"].pop("Mar"), "the_bruce does not place noble Mar"),
])
def test_8_0_a_bad_scenario_file_is_a_data_error(change: object, message: str) -> None:
    from pbem.hammer.rules.errors import DataError
    from pbem.hammer.rules.scenario import parse_scenarios
    data = scenario_data()
    assert parse_scenarios(scenario_data())  # the shipped data is good
    change(data)  # type: ignore[operator]
    with pytest.raises(DataError, match=message):
        parse_scenarios(data)


def test_8_1_the_english_levy_is_drawn_at_random_from_the_stream() -> None:
    levies = {tuple(start("braveheart", seed).blocks_of("england", "England")) for seed in range(8)}
    assert len(levies) > 1
    assert all(len(levy) == 4 for levy in levies)


def test_3_0_the_first_deal_is_shuffled_by_the_stream() -> None:
    hands = {tuple(start("braveheart", seed).hands["england"]) for seed in range(8)}
    assert len(hands) > 1
