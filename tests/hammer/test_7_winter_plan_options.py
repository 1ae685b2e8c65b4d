"""7.0 winter plans as order data: the options listing (``winter.winter_plan_options``) is the
legal-move generator; every plan built from it is accepted by ``validate_winter_plan`` and plays
a whole Winter Turn that keeps the Castle Limits."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from fakes import bare_state, game_positions, put
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.drbg import Drbg
from pbem.hammer.rules import winter as w
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.decisions import BySide
from pbem.hammer.rules.state import GameState

SIDES = ("england", "scotland")


@cache
def winter_positions() -> tuple[GameState, ...]:
    """Positions waiting for the Winter Turn, from a few random games of both scenarios."""
    found: list[GameState] = []
    for sid, seed in (("braveheart", 1), ("braveheart", 2), ("the_bruce", 3), ("the_bruce", 4)):
        found += game_positions(sid, seed, "winter")
    return tuple(found)


def plan_from(options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
    """A plan using the listed choices only, picked by ``rng``."""
    pick = lambda seq: seq[rng.randbelow(len(seq))]  # noqa: E731
    plan: dict[str, Any] = {}
    for key, value in options.items():
        if key == "ask" or rng.randbelow(4) == 0:  # some keys left out: their questions take the default
            continue  # (a plan that pauses is tested in test_7_winter; here the winter runs through)
        if key == "homes":
            plan[key] = {n: pick(homes) for n, homes in value.items()}
        elif key == "builds":
            plan[key] = {a: [pick(entries) for _ in range(rng.randbelow(5))] for a, entries in value.items()}
        elif key in ("disband", "release"):
            plan[key] = rng.shuffled([n for n in value if rng.randbelow(2)])
        else:
            plan[key] = pick(value)
    return plan


def test_7_0_winter_plan_options_list_each_choice_the_position_allows() -> None:
    s = bare_state("braveheart", 1299)
    put(s, "scotland", "Fife", "Wallace", "Douglas", strength=2)
    put(s, "scotland", "Mar", "Moray")
    put(s, "scotland", "Carrick", "Bruce")
    put(s, "england", "Lothian", "Edward", "York Knights", "Cumbria Infantry", "Dunbar")
    scots, english = w.winter_plan_options(s, "scotland"), w.winter_plan_options(s, "england")
    assert scots["homes"] == {"Bruce": ["Annan", "Carrick"], "Comyn": ["Badenoch", "Lochaber"]} == english["homes"]
    assert scots["moray"] == ["home", "stay", "disband"] and scots["wallace"] == ["selkirk", "stay", "disband"]
    assert "king" not in scots and "edward" not in scots
    assert english["edward"] == ["disband", "winter"] and english["edward_company"] == ["stay", "disband"]
    assert english["disband"] == english["release"] == ["Cumbria Infantry"]  # the choice is about infantry (7.32)
    assert scots["release"] == ["Douglas", "Wallace"]  # Moray disbands by 7.1's choice, not here
    assert scots["builds"] == {"Carrick": ["draw", "step:Bruce", "pass"], "Fife": ["draw", "step:Douglas",
                               "step:Wallace", "pass"], "Mar": ["draw", "step:Moray", "pass"]}
    # 7.63: English RPs only for infantry and nobles; never a draw
    assert english["builds"] == {"Lothian": ["step:Cumbria Infantry", "step:Dunbar", "pass"]}
    s.edward_wintered = 1298  # not two winters running (7.4)
    assert w.winter_plan_options(s, "england")["edward"] == ["disband"]
    assert "edward_company" not in w.winter_plan_options(s, "england")


@pytest.mark.parametrize("index", range(0, 40, 4))
def test_7_0_every_listed_winter_choice_is_accepted_by_the_validator(index: int) -> None:
    positions = winter_positions()
    s = positions[index % len(positions)]
    for side in SIDES:
        options = w.winter_plan_options(s, side)
        for key, value in options.items():
            if key == "homes":
                for noble, homes in value.items():
                    for home in homes:
                        assert w.validate_winter_plan(side, {key: {noble: home}})
            elif key == "builds":
                for area, entries in value.items():
                    assert w.validate_winter_plan(side, {key: {area: list(entries)}})
            elif key in ("disband", "release", "ask"):
                assert w.validate_winter_plan(side, {key: list(value)})
            else:
                for choice in value:
                    assert w.validate_winter_plan(side, {key: choice})


class _AnswersWhenAsked:
    """A player at the table: a plan choice the winter itself made illegal is asked (7.0), and
    the player answers it (the first option); any other pause is a failure."""

    def __init__(self, plans: Any) -> None:
        self.plans = plans

    def decide(self, question: Any) -> str:
        from pbem.hammer.rules.decisions import NeedDecision
        try:
            return self.plans.decide(question)
        except NeedDecision as need:
            assert need.question.kind in ("winter_home", "winter_moray", "winter_king", "winter_edward",
                                          "winter_edward_company", "winter_wallace"), need.question
            return question.options[0]


def castle_limits_hold(s: GameState, camp: str) -> None:
    for area in board().area_names():
        for side in SIDES:
            here = s.blocks_in(area, side)
            if area == "England":
                assert side == "england" or not here  # no Scot winters in England (7.5)
                continue
            if area == camp and side == "england":
                continue  # Edward I's company, regardless of limits (7.4)
            others = [n for n in here if not spec(n).is_noble and not (n == "Wallace" and area == "Selkirk")]
            nobles = [n for n in here if spec(n).is_noble]
            assert not others or len(others) + len(nobles) <= board().area(area).castle_limit(side), (area, here)


@settings(max_examples=30, deadline=None)
@given(index=st.integers(0, 10**6), seed=st.integers(0, 2**32 - 1))
def test_7_0_any_plan_built_from_the_listing_is_valid_and_plays_the_winter(index: int, seed: int) -> None:
    positions = winter_positions()
    s = positions[index % len(positions)].copy()
    year = s.year
    rng = Drbg(seed.to_bytes(4, "big") * 8)
    plans = {side: plan_from(w.winter_plan_options(s, side), rng) for side in SIDES}
    for side in SIDES:
        assert w.validate_winter_plan(side, plans[side]) == plans[side]
        assert w.check_winter_plan(s, side, plans[side]) == plans[side]  # the referee's check (7.0)
    decider = _AnswersWhenAsked(BySide(w.plan_decider("england", plans["england"]),
                                       w.plan_decider("scotland", plans["scotland"])))
    w.winter(s, rng, decider)
    assert s.winner or (s.year == year + 1 and s.check() == [])
    if not s.winner:
        castle_limits_hold(s, s.blocks["Edward"].location if s.edward_wintered == year else "")


def test_2_0_the_winter_options_never_tell_where_the_enemy_nobles_stand() -> None:
    """Fog of war: the listing is in the report, so it must not depend on whether the enemy's
    Bruce is on the map or in the pool (both sides may come to place a converted Bruce, 7.12)."""
    on_map, in_pool = bare_state(), bare_state()
    put(on_map, "scotland", "Annan", "Bruce")
    put(on_map, "england", "Lothian", "Cumbria Infantry")
    put(in_pool, "scotland", "pool", "Bruce")
    put(in_pool, "england", "Lothian", "Cumbria Infantry")
    assert w.winter_plan_options(on_map, "england") == w.winter_plan_options(in_pool, "england")
    assert w.winter_plan_options(on_map, "england")["homes"] == {"Bruce": ["Annan", "Carrick"],
                                                                 "Comyn": ["Badenoch", "Lochaber"]}


def test_7_5_the_referee_refuses_a_winter_choice_not_offered_with_the_rule() -> None:
    """Wallace in England may go to Selkirk or disband; "stay" is refused by the referee's
    validation, citing 7.5, rather than replaced by the default."""
    from pbem.hammer.play import drafts
    from pbem.hammer.rules.errors import IllegalOrder
    from pbem.hammer.ruleset import HammerRuleset
    s = bare_state("braveheart", 1299)
    s.phase = "winter"
    put(s, "scotland", "England", "Wallace", strength=2)
    state = {"game": s.to_dict(), "owes": {"england": "winter", "scotland": "winter"},
             "pending": {"england": {}, "scotland": {}}, "resume": None, "question": None, "paused": None, "step": 7}
    d = drafts.Draft(side="scotland", step=7, kind="winter")
    d.sections["winter"] = {"wallace": "stay"}
    with pytest.raises(IllegalOrder, match=r"winter\.wallace = 'stay': not a choice this winter; choose one of "
                                           r"selkirk, disband \(7\.5\)") as exc:
        HammerRuleset().validate(state, "scotland", d.body())
    assert exc.value.rule == "7.5"
    d.sections["winter"] = {"wallace": "disband", "moray": "stay"}  # Moray is not on the map: no such choice
    with pytest.raises(IllegalOrder, match=r"winter\.moray = 'stay': Moray is not a block of yours on the map"):
        HammerRuleset().validate(state, "scotland", d.body())
    d.sections["winter"] = {"wallace": "disband"}
    assert HammerRuleset().accepted(state, "scotland", d.body()).sections["winter"] == {"wallace": "disband"}


def test_7_0_a_plan_choice_the_winter_made_illegal_is_asked_not_defaulted() -> None:
    """The King's plan names Fife's cathedral; at 7.1 an English noble comes home... to a
    cathedral area held by the English, so the choice is gone: the Scots are asked (7.2)."""
    from fakes import ScriptedDice

    from pbem.hammer.rules.decisions import FirstOption, NeedDecision
    s = bare_state("braveheart", 1299)
    s.phase = "winter"
    put(s, "scotland", "Fife", "King", "Douglas")
    put(s, "england", "Mentieth", "Lennox")          # Lennox goes home to Lennox (a cathedral) at 7.1
    plan = {"king": "Lennox"}
    assert w.check_winter_plan(s, "scotland", plan) == plan  # offered when written
    with pytest.raises(NeedDecision) as need:
        w.winter(s, ScriptedDice(), BySide(FirstOption(), w.plan_decider("scotland", plan)))
    assert need.value.question.kind == "winter_king" and "Lennox" not in need.value.question.options
