"""7.0-7.8: the Winter Turn in its exact order."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import ScriptedDice, bare_state, put
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.drbg import Drbg
from pbem.hammer.rules import winter as w
from pbem.hammer.rules.decisions import FirstOption, NeedDecision, Scripted
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import OFF_MAP, POOL, GameState, Options


def ask(**answers: list[str]) -> Scripted:
    return Scripted(answers, fallback=FirstOption())


# --- 7.1 / 7.12 nobles ----------------------------------------------------------------------------

def test_7_1_nobles_go_home_and_defect_if_home_is_enemy_occupied() -> None:
    s = bare_state()
    put(s, "england", "Lothian", "Mar", strength=2)
    put(s, "scotland", "Mar", "Keith")
    put(s, "england", "Fife", "Atholl")
    w.nobles_home(s, ScriptedDice(), FirstOption())
    assert (s.blocks["Mar"].owner, s.blocks["Mar"].location, s.blocks["Mar"].strength) == ("scotland", "Mar", 2)
    assert (s.blocks["Atholl"].owner, s.blocks["Atholl"].location) == ("england", "Atholl")


def test_7_1_english_nobles_go_home_before_the_scots() -> None:
    s = bare_state()
    put(s, "england", "Buchan", "Angus")    # leaves Buchan when he goes home first
    put(s, "scotland", "Fife", "Buchan")
    w.nobles_home(s, ScriptedDice(), FirstOption())
    assert (s.blocks["Buchan"].owner, s.blocks["Buchan"].location) == ("scotland", "Buchan")
    t = bare_state()
    put(t, "scotland", "Angus", "Buchan")   # a Scottish noble in Angus makes the English Angus defect
    put(t, "england", "Fife", "Angus")
    w.nobles_home(t, ScriptedDice(), FirstOption())
    assert t.blocks["Angus"].owner == "scotland" and t.blocks["Buchan"].location == "Buchan"


def test_7_12_bruce_chooses_a_home_and_converts_only_when_both_are_enemy_occupied() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Bruce")
    put(s, "england", "Annan", "Cumbria Infantry")
    d = ask()
    w.nobles_home(s, ScriptedDice(), d)
    assert (s.blocks["Bruce"].owner, s.blocks["Bruce"].location) == ("scotland", "Carrick")
    assert d.asked == []  # one free home: no question
    put(s, "england", "Carrick", "Westmor Infantry")
    s.blocks["Bruce"].location = "Fife"
    d = ask(england=["Annan"])
    w.nobles_home(s, ScriptedDice(), d)
    assert (s.blocks["Bruce"].owner, s.blocks["Bruce"].location) == ("england", "Annan")
    assert d.asked[0].side == "england" and d.asked[0].options == ("Annan", "Carrick")


def test_7_12_comyn_asked_between_two_free_homes_staying_home_first() -> None:
    s = bare_state()
    put(s, "england", "Lochaber", "Comyn")
    d = ask()
    w.nobles_home(s, ScriptedDice(), d)
    assert d.asked[0].kind == "winter_home" and d.asked[0].options == ("Lochaber", "Badenoch")


def test_7_1_moray_may_go_home_stay_or_disband() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Moray")
    assert w.moray_options(s) == ["home", "stay", "disband"]
    put(s, "england", "Moray", "Ross")
    assert w.moray_options(s) == ["stay", "disband"]  # never defects, so never home into enemies
    w.nobles_home(s, ScriptedDice(), ask(scotland=["disband"]))
    assert s.blocks["Moray"].location == POOL


# --- 7.2 the King ---------------------------------------------------------------------------------

def test_7_2_king_friendly_or_neutral_cathedral_stay_or_disband() -> None:
    s = bare_state()
    put(s, "scotland", "Mar", "King")
    put(s, "england", "Lennox", "Lennox")
    assert w.king_options(s) == ["stay", "Fife", "Strathspey", "disband"]
    w.scottish_king(s, ScriptedDice(), ask(scotland=["Strathspey"]))
    assert s.blocks["King"].location == "Strathspey"


# --- 7.3 / 7.4 English ----------------------------------------------------------------------------

def english_army() -> GameState:
    s = bare_state("braveheart", 1298)
    put(s, "england", "England", "Lancaster Infantry", "Hobelars")
    put(s, "england", "Lothian", "York Knights", "Wales Archers", "Cumbria Infantry", "Durham Infantry",
        "Wales Infantry")
    put(s, "england", "Mentieth", "Mentieth", "Northumber Infantry")
    return s


def test_7_3_english_blocks_in_england_and_7_31_knights_archers_hobelars_disband() -> None:
    s = english_army()
    w.english_disbanding(s, ScriptedDice(), ask(england=["Wales Infantry"]))
    for name in ("Lancaster Infantry", "Hobelars", "York Knights", "Wales Archers"):
        assert s.blocks[name].location == POOL, name
    assert s.blocks["Northumber Infantry"].location == "Mentieth"


def test_7_32_infantry_over_the_castle_limit_disbands_owner_choice() -> None:
    s = english_army()
    d = ask(england=["Wales Infantry"])
    w.english_disbanding(s, ScriptedDice(), d)
    assert d.asked[0].kind == "winter_disband"
    assert d.asked[0].options == ("Cumbria Infantry", "Durham Infantry", "Wales Infantry")
    assert s.blocks["Wales Infantry"].location == POOL
    assert s.blocks_in("Lothian", "england") == ["Cumbria Infantry", "Durham Infantry"]  # limit 2


def test_7_32_nobles_count_but_never_disband() -> None:
    s = bare_state()
    put(s, "england", "Mentieth", "Mentieth", "Lennox", "Mar", "Northumber Infantry")
    w.english_disbanding(s, ScriptedDice(), FirstOption())
    assert s.blocks["Northumber Infantry"].location == POOL
    assert len(s.blocks_in("Mentieth", "england")) == 3


def test_7_4_edward_wintering_keeps_his_company_regardless_of_limits_and_stops_the_levy() -> None:
    s = english_army()
    put(s, "england", "Lothian", "Edward")
    d = ask(england=["winter"])
    w.english_disbanding(s, ScriptedDice(), d)
    assert d.asked[0].kind == "winter_edward" and d.asked[0].options == ("disband", "winter")
    assert s.blocks_in("Lothian", "england") == ["Cumbria Infantry", "Durham Infantry", "Edward",
                                                 "Wales Archers", "Wales Infantry", "York Knights"]
    assert s.edward_wintered == 1298 and s.winter is not None and s.winter.edward == "Lothian"
    before = len(s.pool("england"))
    assert w.feudal_levy(s, ScriptedDice(), FirstOption())[0].facts["levy"] == 0
    assert len(s.pool("england")) == before


@pytest.mark.parametrize("year, edward, wintered, where", [
    (1306, "I", 0, "Lothian"),       # never in 1306
    (1299, "I", 1298, "Lothian"),    # never two winters running
    (1308, "II", 0, "Lothian"),      # Edward II never
    (1299, "I", 0, "England"),       # never in England
])
def test_7_4_when_edward_cannot_winter_he_disbands(year: int, edward: str, wintered: int, where: str) -> None:
    s = english_army()
    s.year, s.edward, s.edward_wintered = year, edward, wintered
    put(s, "england", where, "Edward")
    d = ask()
    w.english_disbanding(s, ScriptedDice(), d)
    assert "winter_edward" not in [q.kind for q in d.asked]
    assert s.blocks["Edward"].location == POOL


# --- 7.5 Scottish ---------------------------------------------------------------------------------

def test_7_5_scottish_blocks_over_the_castle_limit_disband_owner_choice_nobles_never() -> None:
    s = bare_state()
    put(s, "scotland", "Atholl", "Atholl", "Douglas", "Barclay", "Grant")  # limit 1
    d = ask(scotland=["Grant", "Barclay", "Douglas"])
    w.scottish_disbanding(s, ScriptedDice(), d)
    assert d.asked[0].options == ("Barclay", "Douglas", "Grant")
    assert s.blocks_in("Atholl") == ["Atholl"]


def test_7_1_moray_meets_the_castle_limit_at_7_1_and_other_blocks_give_way_at_7_5() -> None:
    s = bare_state()
    put(s, "scotland", "Atholl", "Moray", "Douglas")  # limit 1, no noble at home there
    assert w.moray_options(s) == ["home", "stay", "disband"]
    w.nobles_home(s, ScriptedDice(), ask(scotland=["stay"]))
    d = ask()
    w.scottish_disbanding(s, ScriptedDice(), d)
    assert s.blocks["Moray"].location == "Atholl" and s.blocks["Douglas"].location == POOL
    assert all(q.kind != "winter_disband" for q in d.asked)  # Douglas the only candidate: unasked


def test_7_1_moray_may_not_remain_where_nobles_at_home_fill_the_castle_limit() -> None:
    s = bare_state()
    put(s, "scotland", "Atholl", "Moray", "Atholl")  # limit 1, filled by the noble Atholl
    assert w.moray_options(s) == ["home", "disband"]
    put(s, "england", "Moray", "Ross")
    assert w.moray_options(s) == ["disband"]


def test_7_5_cathedral_adds_one_to_the_scottish_limit() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas", "Barclay", "Grant")  # castle 2 + cathedral
    w.scottish_disbanding(s, ScriptedDice(), FirstOption())
    assert len(s.blocks_in("Fife")) == 3


def test_7_5_wallace_to_selkirk_gains_two_steps_and_winters_there() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", strength=1)
    assert w.wallace_options(s) == ["selkirk", "stay", "disband"]
    w.scottish_disbanding(s, ScriptedDice(), FirstOption())
    assert (s.blocks["Wallace"].location, s.blocks["Wallace"].strength) == ("Selkirk", 3)


def test_7_5_wallace_not_to_an_enemy_selkirk() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", strength=1)
    put(s, "england", "Selkirk", "Edward")
    assert w.wallace_options(s) == ["stay", "disband"]


def test_7_5_no_scot_winters_in_england() -> None:
    s = bare_state()
    put(s, "scotland", "England", "Douglas")
    w.scottish_disbanding(s, ScriptedDice(), FirstOption())
    assert s.blocks["Douglas"].location == POOL


def test_7_5_blocks_within_limits_may_still_disband_by_choice() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas")
    d = ask(scotland=["Douglas"])
    w.scottish_disbanding(s, ScriptedDice(), d)
    assert d.asked[0].kind == "winter_release" and d.asked[0].options == ("keep", "Douglas")
    assert s.blocks["Douglas"].location == POOL


# --- 7.6 builds -----------------------------------------------------------------------------------

def test_7_6_replacement_points_are_castle_limits_plus_cathedral_for_the_scots() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas")
    put(s, "scotland", "Selkirk", "Wallace")
    put(s, "england", "Lennox", "Lennox")
    assert w.replacement_points(s, "scotland") == {"Fife": 3}
    assert w.replacement_points(s, "england") == {"Lennox": 1}


def test_7_62_scottish_draws_at_strength_1_and_steps_to_a_block_just_drawn() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas", strength=3)
    pool = w.drawable(s, "Fife")
    d = ask(scotland=["draw", f"step:{pool[2]}", "step:Douglas"])
    w.builds(s, ScriptedDice(below=[2]), d)
    assert (s.blocks[pool[2]].location, s.blocks[pool[2]].strength) == ("Fife", 2)
    assert s.blocks["Douglas"].strength == 4
    assert d.asked[0].options[0] == "draw" and d.asked[0].options[-1] == "pass"


def test_7_62_draws_obey_the_castle_limit_and_unused_points_are_lost() -> None:
    s = bare_state()
    put(s, "scotland", "Atholl", "Douglas", strength=4)  # limit 1, full, at full strength
    d = ask()
    w.builds(s, ScriptedDice(), d)
    assert d.asked == []  # nothing to do with the RP: lost


def test_7_62_norse_and_french_are_never_drawn_for_an_inland_area() -> None:
    s = bare_state()
    s.blocks["French Knights"].location = POOL
    put(s, "scotland", "Badenoch", "Grant")
    assert "Norse" not in w.drawable(s, "Badenoch") and "French Knights" not in w.drawable(s, "Badenoch")
    assert "Norse" in w.drawable(s, "Fife") and "French Knights" in w.drawable(s, "Fife")


def test_7_61_french_knights_join_the_pool_with_8_scottish_nobles() -> None:
    s = bare_state()
    nobles = ["Angus", "Argyll", "Mar", "Lennox", "Buchan", "Ross", "Atholl"]
    for n in nobles:
        put(s, "scotland", n, n)
    w.builds(s, ScriptedDice(), ask(scotland=["pass"] * 20))
    assert s.blocks["French Knights"].location == OFF_MAP
    put(s, "scotland", "Dunbar", "Dunbar")
    w.builds(s, ScriptedDice(), ask(scotland=["pass"] * 20))
    assert s.blocks["French Knights"].location == POOL


def test_7_63_english_points_only_strengthen_infantry_and_nobles_there() -> None:
    s = bare_state()
    put(s, "england", "Lothian", "Cumbria Infantry", strength=1)
    put(s, "england", "Lothian", "York Knights", strength=1)
    d = ask()
    w.builds(s, ScriptedDice(), d)
    assert d.asked[0].options == ("step:Cumbria Infantry", "pass")
    assert s.blocks["Cumbria Infantry"].strength == 3 and s.blocks["York Knights"].strength == 1


# --- 7.7 levy, 7.8 new year ---------------------------------------------------------------------

def test_7_7_levy_is_half_the_pool_rounded_up_at_full_strength_in_england() -> None:
    s = bare_state()
    pool = s.pool("england")
    assert len(pool) == 15 and w.levy_size(s) == 8
    w.feudal_levy(s, ScriptedDice(), FirstOption())
    drawn = s.blocks_in("England", "england")
    assert drawn == sorted(pool[:8])
    assert all(s.blocks[n].strength == s.max_strength(n) for n in drawn)


def test_7_7_a_barred_edward_counts_for_the_levy_but_is_not_drawn() -> None:
    s = bare_state()
    s.options.bid = "E2"  # Edward face-up for 1297 and 1298 levies
    w.feudal_levy(s, ScriptedDice(), FirstOption())  # the levy for 1298
    assert len(s.blocks_in("England")) == 8 and s.blocks["Edward"].location == POOL


def test_7_8_the_year_turns_and_new_hands_are_dealt_edward_ii_after_1306() -> None:
    s = bare_state("the_bruce", 1306)
    s.turn = 5
    w.new_year(s, ScriptedDice(), FirstOption())
    assert s.year == 1307 and s.turn == 0 and s.edward == "II"
    assert len(s.hands["england"]) == 5 and len(s.hands["scotland"]) == 5


# --- the whole winter -----------------------------------------------------------------------------

def test_7_0_a_whole_winter_from_the_braveheart_setup() -> None:
    s = setup("braveheart", Options(), Drbg(b"w" * 32))
    levy = len(s.blocks_in("England"))
    pool = len(s.pool("england")) + levy  # the opening levy's blocks disband in England first (7.3)
    w.winter(s, Drbg(b"x" * 32), FirstOption())
    assert s.year == 1298 and s.turn == 0 and s.winter is None and not s.check()
    assert s.blocks["Wallace"].location == "Fife"  # at full strength he stays by default
    assert s.blocks["Comyn"].location == "Badenoch" and s.blocks["Bruce"].location == "Annan"
    assert len(s.blocks_in("England")) == (pool + 1) // 2  # the levy (7.7)
    assert len(s.hands["england"]) == 5


class Learning:
    """A player who pauses at every question it has not seen, then answers it (the first option)."""

    def __init__(self) -> None:
        self.known: set[str] = set()

    def decide(self, question: Any) -> str:
        key = repr(question.to_dict())
        if key not in self.known:
            self.known.add(key)
            raise NeedDecision(question)
        return question.options[0]


def test_7_0_winter_resumes_after_a_pause_with_the_same_outcome() -> None:
    start = setup("braveheart", Options(), Drbg(b"w" * 32))
    one = start.copy()
    w.winter(one, Drbg(b"x" * 32), FirstOption())
    two = start.copy()
    rng, player = Drbg(b"x" * 32), Learning()
    progress: list[list[str]] = []
    for _ in range(100):
        try:
            w.winter(two, rng, player)
            break
        except NeedDecision:
            progress.append(list(two.winter.done) if two.winter is not None else [])
    assert len(progress) > 3 and ["7.1", "7.2"] in progress  # paused, and kept finished steps
    assert two.hash() == one.hash()


# --- winter plans -----------------------------------------------------------------------------------

def test_7_0_a_winter_plan_answers_the_winter_questions() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", strength=2)
    put(s, "scotland", "Fife", "Douglas", strength=3)
    put(s, "scotland", "Mar", "Moray")
    plan = {"wallace": "stay", "moray": "home", "builds": {"Fife": ["step:Douglas", "step:Douglas", "pass"]}}
    d = w.plan_decider("scotland", plan)
    w.nobles_home(s, ScriptedDice(), d)
    w.scottish_disbanding(s, ScriptedDice(), d)
    w.builds(s, ScriptedDice(), d)
    assert s.blocks["Moray"].location == "Moray"
    assert (s.blocks["Wallace"].location, s.blocks["Wallace"].strength) == ("Fife", 2)
    # the second step:Douglas is no longer legal (full) and is skipped; then pass: the rest is lost
    assert s.blocks["Douglas"].strength == 4 and s.blocks["Wallace"].strength == 2


def test_7_0_a_winter_plan_may_ask_for_a_kind_of_question() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", strength=2)
    with pytest.raises(NeedDecision) as need:
        w.winter(s, ScriptedDice(), w.plan_decider("scotland", {"ask": ["winter_wallace"]}))
    assert need.value.question.kind == "winter_wallace"
    assert s.winter is not None and s.winter.done == ["7.1", "7.2", "7.3"]


@pytest.mark.parametrize("side, plan, rule", [
    ("england", {"wallace": "selkirk"}, "7.5"),
    ("scotland", {"edward": "winter"}, "7.4"),
    ("scotland", {"homes": {"Mar": "Mar"}}, "7.12"),
    ("scotland", {"homes": {"Bruce": "Fife"}}, "7.12"),
    ("scotland", {"king": "Lothian"}, "7.2"),
    ("england", {"builds": {"Lothian": ["draw"]}}, "7.63"),
])
def test_7_0_winter_plans_are_validated_with_the_rule(side: str, plan: dict, rule: str) -> None:
    from pbem.hammer.rules.errors import IllegalOrder
    with pytest.raises(IllegalOrder) as err:
        w.validate_winter_plan(side, plan)
    assert err.value.rule == rule


@pytest.mark.parametrize("plan", [{"wallaec": "stay"}, {"disband": "Grant"}, {"builds": {"Fife": ["dra"]}},
                                  {"ask": ["winter_everything"]}, {"disband": ["York Knights"]}])
def test_7_0_malformed_winter_plans_are_invalid(plan: dict) -> None:
    from pbem.hammer.rules.errors import InvalidOrder
    with pytest.raises(InvalidOrder):
        w.validate_winter_plan("scotland", plan)


class RandomChoices:
    """Any legal answer, chosen by a seeded stream: winter must hold its invariants whatever is chosen."""

    def __init__(self, seed: int) -> None:
        self.rng = Drbg(seed.to_bytes(4, "big") * 8)

    def decide(self, question: Any) -> str:
        return question.options[self.rng.randbelow(len(question.options))]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), sid=st.sampled_from(["braveheart", "the_bruce"]))
def test_7_0_after_any_winter_the_castle_limits_hold(seed: int, sid: str) -> None:
    from pbem.hammer.rules.blocks import spec
    from pbem.hammer.rules.board import board
    s = setup(sid, Options(), Drbg(seed.to_bytes(4, "big") * 8))
    year = s.year
    w.winter(s, Drbg(b"r" * 16 + seed.to_bytes(4, "big") * 4), RandomChoices(seed))
    assert s.year == year + 1 and not s.check()
    camp = s.blocks["Edward"].location if s.edward_wintered == year else ""
    for area in board().area_names():
        for side in ("england", "scotland"):
            here = s.blocks_in(area, side)
            if area == "England":
                assert side == "england" or not here  # no Scot winters in England
                continue
            if area == camp and side == "england":
                continue
            others = [n for n in here if not spec(n).is_noble and not (n == "Wallace" and area == "Selkirk")]
            nobles = [n for n in here if spec(n).is_noble]
            limit = board().area(area).castle_limit(side)
            assert not others or len(others) + len(nobles) <= limit, (area, here)
        for n in s.blocks_in(area, "england"):
            if area not in ("England", camp):
                assert spec(n).type not in ("knights", "archers", "hobelars"), n


WINTER_ORDER = ["7.1", "7.2", "7.3", "7.4", "7.31", "7.32", "7.5", "7.61", "7.63", "7.62", "7.7", "7.8"]


def test_7_0_the_winter_actions_come_in_the_exact_order() -> None:
    """7.0 "Play the Winter actions in the exact order given" (7.4 decided before 7.31, see notes)."""
    s = bare_state("braveheart", 1299)
    put(s, "england", "Fife", "Mar", strength=2)                    # English noble away from home
    put(s, "scotland", "Lennox", "Angus")                            # Scottish noble away from home
    put(s, "scotland", "Mar", "King")
    put(s, "scotland", "Moray", "Moray")
    put(s, "scotland", "Lanark", "Wallace", strength=1)
    put(s, "scotland", "Angus", "Douglas", "Barclay", "Fraser")      # limit 2: one disbands (7.5)
    for noble in ("Argyll", "Ross", "Buchan", "Atholl", "Galloway", "Dunbar"):  # 8 Scottish nobles (7.61)
        put(s, "scotland", noble, noble, strength=1)
    put(s, "scotland", "Argyll", "Campbell", strength=1)
    put(s, "england", "Lothian", "Edward", "York Knights", "Cumbria Infantry", "Durham Infantry", "Wales Infantry",
        strength=1)                                                  # limit 2: one infantry disbands (7.32)
    put(s, "england", "England", "Hobelars")
    log = w.winter(s, ScriptedDice(), FirstOption())
    steps = [str(e.facts["step"]) for e in log if "step" in e.facts]
    assert steps == sorted(steps, key=WINTER_ORDER.index), steps
    assert set(steps) == set(WINTER_ORDER)
    homes = [str(e.facts["noble"]) for e in log if e.facts.get("step") == "7.1"]
    assert homes.index("Mar") < homes.index("Angus")  # English nobles first


def test_7_2_a_disbanded_king_returns_to_the_draw_pool_and_may_be_drawn_again() -> None:
    s = bare_state()
    s.king = "Bruce"
    put(s, "scotland", "Mar", "King")
    w.scottish_king(s, ScriptedDice(), ask(scotland=["disband"]))
    assert s.blocks["King"].location == POOL and s.king == "Bruce"  # crowned once per game (6.2)
    assert "King" in w.drawable(s, "Fife") and not s.winner  # disbanding is no death in battle (9.1)
