"""docs/plans.md: standing battle plans answer the engine's questions as written (5.31, 5.41,
5.5, 5.6, 5.9); "ask" pauses; a malformed plan is refused naming its field."""

from __future__ import annotations

import tomllib

import pytest
from fakes import ScriptedDice, bare_state, battle_at, put

from pbem.hammer.rules import battle
from pbem.hammer.rules.decisions import NeedDecision, Question
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.plans import decider, parse_plans

PLAN = tomllib.loads("""
hits = ["Douglas"]
[battle]
retreat_if_outnumbered = true
retreat_from_round = 2
retreat_to = ["Lennox", "Mentieth"]
regroup = ["Lennox"]
[areas.Lothian]
retreat_if_outnumbered = false
retreat_below_percent = 50
""")


def action(round_: int = 2, area: str = "Fife", **ctx: object) -> Question:
    return Question(
        side="scotland",
        kind="battle_action",
        options=("fire", "retreat:Lennox", "retreat:Mentieth", "pass"),
        context={"area": area, "round": round_, "block": "Wallace", **ctx},
        rule="5.31",
    )


def test_5_31_a_plan_retreats_when_outnumbered_from_its_round_to_its_preferred_area() -> None:
    d = decider("scotland", {"plans": PLAN})
    assert d.decide(action(2, own_steps=3, enemy_steps=5, steps_lost=0)) == "retreat:Lennox"
    assert d.decide(action(1, own_steps=3, enemy_steps=5, steps_lost=0)) == "fire"   # not before round 2
    assert d.decide(action(3, own_steps=5, enemy_steps=5, steps_lost=0)) == "fire"   # not outnumbered


def test_5_31_an_area_plan_overrides_the_battle_plan() -> None:
    d = decider("scotland", {"plans": PLAN})
    # Lothian: below 50% only (from round 2 and the retreat areas inherited, key by key)
    assert d.decide(action(2, "Lothian", own_steps=3, enemy_steps=5, steps_lost=0)) == "fire"
    assert d.decide(action(2, "Lothian", own_steps=2, enemy_steps=5, steps_lost=0)) == "retreat:Lennox"


def test_5_31_without_a_plan_blocks_fire_and_never_retreat() -> None:
    d = decider("scotland", {})
    assert d.decide(action(3, own_steps=1, enemy_steps=20, steps_lost=9)) == "fire"
    q = Question(
        side="scotland", kind="battle_action", options=("retreat:Lennox", "pass"), context={"area": "Fife", "round": 3}
    )
    assert d.decide(q) == "pass"


def test_5_41_hits_follow_the_plan_then_spare_leaders_and_good_fighters() -> None:
    d = decider("scotland", {"plans": PLAN})
    q = Question(side="scotland", kind="hit", options=("Douglas", "Wallace"), context={"area": "Fife"}, rule="5.41")
    assert d.decide(q) == "Douglas"
    plain = decider("scotland", {})
    assert plain.decide(q) == "Douglas"   # Wallace is a leader: hit last
    q2 = Question(side="scotland", kind="hit", options=("Douglas", "Keith", "Norse"), context={"area": "Fife"})
    assert plain.decide(q2) == "Douglas"   # C before B before A
    q3 = Question(side="scotland", kind="hit", options=("Douglas", "Lindsay"), context={"area": "Fife"})
    assert plain.decide(q3) == "Lindsay"   # C2 before C3


def test_5_5_5_6_retreat_and_regroup_follow_the_preference_lists() -> None:
    d = decider("scotland", {"plans": PLAN})
    assert d.decide(Question("scotland", "retreat", ("Atholl", "Mentieth"), {"area": "Fife"})) == "Mentieth"
    assert d.decide(Question("scotland", "retreat", ("Atholl", "Badenoch"), {"area": "Fife"})) == "Atholl"
    assert d.decide(Question("scotland", "regroup", ("stay", "Lennox"), {"area": "Fife"})) == "Lennox"
    assert (
        decider("scotland", {}).decide(Question("scotland", "regroup", ("stay", "Lennox"), {"area": "Fife"})) == "stay"
    )


def test_5_9_raid_loss_takes_the_listed_block() -> None:
    d = decider("england", {"plans": {"raid_loss": ["Hobelars"]}})
    assert d.decide(Question("england", "raid_loss", ("Durham Infantry", "Hobelars"), {})) == "Hobelars"


def test_plans_ask_pauses_with_the_question() -> None:
    d = decider("scotland", {"plans": {"ask": ["regroup"], "areas": {"Lennox": {"ask": True}}}})
    q = Question("scotland", "regroup", ("stay", "Lennox"), {"area": "Fife"})
    with pytest.raises(NeedDecision) as info:
        d.decide(q)
    assert info.value.question == q
    with pytest.raises(NeedDecision):
        d.decide(action(1, "Lennox"))
    assert d.decide(action(1, "Fife")) == "fire"
    with pytest.raises(NeedDecision):
        decider("scotland", {"plans": {"ask": True}}).decide(action(1))


def test_5_31_a_plan_retreats_once_it_has_lost_the_steps_it_names() -> None:
    d = decider("scotland", {"plans": {"battle": {"retreat_if_steps_lost": 3, "retreat_to": ["Mentieth"]}}})
    assert d.decide(action(1, own_steps=9, enemy_steps=1, steps_lost=2)) == "fire"
    assert d.decide(action(1, own_steps=9, enemy_steps=1, steps_lost=3)) == "retreat:Mentieth"


def test_5_31_below_percent_compares_own_steps_with_a_share_of_the_enemys() -> None:
    d = decider("scotland", {"plans": {"battle": {"retreat_below_percent": 50}}})
    assert d.decide(action(1, own_steps=3, enemy_steps=6, steps_lost=0)) == "fire"            # 3 = 50% of 6
    assert d.decide(action(1, own_steps=2, enemy_steps=6, steps_lost=0)) == "retreat:Lennox"  # first by name


def test_5_31_a_round_without_a_condition_retreats_from_that_round() -> None:
    d = decider("scotland", {"plans": {"battle": {"retreat_from_round": 3}}})
    assert d.decide(action(2, own_steps=9, enemy_steps=1, steps_lost=0)) == "fire"
    assert d.decide(action(3, own_steps=9, enemy_steps=1, steps_lost=0)) == "retreat:Lennox"


def test_plans_a_battle_question_without_the_battle_numbers_is_refused_not_guessed() -> None:
    with pytest.raises(InvalidOrder, match="own_steps"):
        decider("scotland", {"plans": PLAN}).decide(action(2))


def test_5_31_a_plan_reads_the_battle_numbers_the_engine_puts_in_the_question() -> None:
    """Two Scots (4 steps) against three English (9): outnumbered in round 2, the Scots retreat."""
    s = bare_state()
    put(s, "scotland", "Fife", "Barclay", strength=2)
    put(s, "england", "Fife", "Hobelars", "Durham Infantry", "Northumber Infantry", strength=3)
    battle_at(s, "Fife", "england", main=["Hobelars", "Durham Infantry", "Northumber Infantry"],
              entered={"england": ["Fife-Mentieth"]})
    scots = decider("scotland", {"plans": {"battle": {"retreat_if_outnumbered": True, "retreat_from_round": 2,
                                                       "retreat_to": ["Atholl"]}}})
    from pbem.hammer.rules.decisions import BySide
    both = BySide(england=decider("england", {}), scotland=scots)
    log = battle.fight(s, "Fife", ScriptedDice([6] * 40), both)
    assert s.blocks["Barclay"].location == "Atholl"   # the plan's choice, not the first by name
    retreat = [e for e in log if e.what == "retreat"]
    assert retreat and retreat[0].facts["round"] == 2 and retreat[0].facts["block"] == "Barclay"


@pytest.mark.parametrize("raw, field", [
    ({"battle": {"retreat_from_round": 5}}, "plans.battle.retreat_from_round"),
    ({"battle": {"retreat_below_percent": "50%"}}, "plans.battle.retreat_below_percent"),
    ({"battle": {"retreat_if_outnumbered": "yes"}}, "plans.battle.retreat_if_outnumbered"),
    ({"areas": {"Narnia": {}}}, "plans.areas.Narnia"),
    ({"areas": {"Fife": {"retreat_to": ["Narnia"]}}}, "plans.areas.Fife.retreat_to"),
    ({"hits": ["Edward"]}, "plans.hits"),
    ({"ask": ["dance"]}, "plans.ask"),
    ({"retreat": "always"}, "plans.retreat"),
    ({"raid_loss": ["Wallace"]}, "plans.raid_loss"),
    ({"battle": {"regroup": 3}}, "plans.battle.regroup"),
])
def test_plans_malformed_plans_are_refused_naming_the_field(raw: dict, field: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_plans("scotland", raw)
    message = str(info.value)
    assert message.startswith(field + ":"), message
    assert message.count(". ") == 0


def test_plans_winter_questions_go_to_the_winter_plan() -> None:
    d = decider("scotland", {"plans": {}, "winter": {"moray": "disband"}})
    q = Question("scotland", "winter_moray", ("home", "stay", "disband"), {}, "7.1")
    assert d.decide(q) == "disband"


def test_5_9_without_a_plan_the_raid_takes_the_weakest_block_of_the_live_game() -> None:
    s = bare_state()
    put(s, "england", "England", "Durham Infantry", strength=3)
    put(s, "england", "Lothian", "Hobelars", strength=1)
    q = Question("england", "raid_loss", ("Durham Infantry", "Hobelars"), {}, "5.9")
    assert decider("england", {}, state=s).decide(q) == "Hobelars"
    s.blocks["Hobelars"].strength, s.blocks["Durham Infantry"].strength = 3, 1
    assert decider("england", {}, state=s).decide(q) == "Durham Infantry"


def test_5_31_fire_order_is_a_list_of_the_sides_own_blocks() -> None:
    from pbem.hammer.rules.plans import parse_plans
    assert parse_plans("scotland", {"fire_order": ["Grant", "Barclay"]}).fire_order == ("Grant", "Barclay")
    with pytest.raises(InvalidOrder, match=r"plans\.fire_order: 'York Knights' is not a scotland block"):
        parse_plans("scotland", {"fire_order": ["York Knights"]})
