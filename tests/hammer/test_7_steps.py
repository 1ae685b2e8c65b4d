"""Brief 7: the protocol's steps over the real engine; battles are a stand-in so only the steps are tested.

The stand-in battle asks the defender one question (unless its plan answers) and rolls one die;
border raids do nothing. Cards, initiative, movement, events, winter and victory are the real ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.drbg import Drbg
from pbem.hammer import drafts, engine, ruleset
from pbem.hammer.cards import card
from pbem.hammer.decisions import NeedDecision, Question, checked
from pbem.hammer.errors import IllegalOrder, InvalidOrder
from pbem.hammer.state import GameState


class FakeBattle:
    def __init__(self) -> None:
        self.ask = False

    def fight(self, g: GameState, area: str, rng: Any, decider: Any) -> list[dict[str, Any]]:
        die = rng.d6()
        log = [{"what": "battle", "area": area, "die": die, "public": True}]
        if self.ask:
            attacker = g.current.battles[area].attacker
            defender = "scotland" if attacker == "england" else "england"
            answer = checked(decider, Question(defender, "battle_action", ("retreat", "fire"), {"area": area}, "5.41"))
            log.append({"what": "battle", "area": area, "answer": answer, "public": True})
        for name in g.blocks_in(area, attacker if self.ask else g.current.battles[area].attacker):
            g.blocks[name].location = g.current.battles[area].main_origin or g.blocks[name].location
        return log


class AskingPlans:
    def __init__(self, plans: dict[str, Any]) -> None:
        self.plans = plans

    def decide(self, q: Question) -> str:
        if self.plans.get("always_ask"):
            raise NeedDecision(q)
        return q.options[0]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeBattle:
    fb = FakeBattle()
    monkeypatch.setattr(engine, "_fight", lambda g, area, rng, d: fb.fight(g, area, rng, d))
    monkeypatch.setattr(engine, "_border_raid", lambda g, d: [])
    real = ruleset._plan_decider

    def plans(side: str, pending: dict[str, Any]) -> Any:
        if pending.get("plans", {}).get("always_ask"):
            return AskingPlans(pending["plans"])
        return real(side, {k: v for k, v in pending.items() if k != "plans"})

    monkeypatch.setattr(ruleset, "_plan_decider", plans)
    return fb


R = ruleset.HammerRuleset()


def _new(hands: dict[str, list[str]] | None = None) -> dict[str, Any]:
    s = R.setup("braveheart", {}, Drbg(b"k" * 32))
    if hands:
        g = ruleset.game_of(s)
        g.hands = {side: sorted(h) for side, h in hands.items()}
        s["game"] = g.to_dict()
    return s


def _order(state: dict[str, Any], side: str, **sections: Any) -> dict[str, Any]:
    return drafts.Draft(side=side, step=state["step"], kind=state["owes"][side], sections=sections).body()


HANDS = {"england": ["move3-1", "move2-1", "move2-2", "move1-1", "move1-2"],
         "scotland": ["move1-3", "move2-3", "move2-4", "move1-4", "move1-5"]}


def test_7_card_step_is_owed_by_both_sides_at_the_start() -> None:
    assert R.owes(_new()) == {"england": "card", "scotland": "card"}


def test_7_player1_moves_ride_with_the_card_so_a_turn_costs_two_exchanges(fake: FakeBattle) -> None:
    s = _new(HANDS)
    e1 = {"moves": [{"from": "Mentieth", "to": "Lennox", "blocks": ["Mentieth"]}]}
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1=e1),
                         "scotland": _order(s, "scotland", card={"play": "move1-3"}, if_player1={"moves": []})},
                     Drbg(b"s" * 32)).state
    g = ruleset.game_of(s)
    assert g.current.player1 == "england" and g.blocks["Mentieth"].location == "Lennox"
    assert R.owes(s) == {"scotland": "moves"}
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []})}, Drbg(b"t" * 32))
    assert R.owes(out.state) == {"england": "card", "scotland": "card"}
    assert out.state["step"] == 2


def test_7_without_moves_ahead_player1_gets_its_own_moves_step(fake: FakeBattle) -> None:
    s = _new(HANDS)
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}),
                           "scotland": _order(s, "scotland", card={"play": "move1-3"})}, Drbg(b"s" * 32))
    assert R.owes(out.state) == {"england": "moves"}


def test_4_2_moves_ahead_are_checked_with_the_card_as_if_player1() -> None:
    s = _new(HANDS)
    far = {"moves": [{"from": "Mentieth", "to": "Ross", "blocks": ["Mentieth"]}]}
    with pytest.raises(IllegalOrder):
        R.validate(s, "england", _order(s, "england", card={"play": "move1-1"}, if_player1=far))


def test_7_an_uncovered_battle_decision_opens_a_decide_step_and_the_dice_do_not_change(fake: FakeBattle) -> None:
    fake.ask = True
    s = _new(HANDS)
    attack = {"moves": [{"from": "Lothian", "to": "Fife", "blocks": ["Cumbria Infantry"]}]}
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1=attack),
                         "scotland": _order(s, "scotland", card={"play": "move1-3"}, plans={"always_ask": True})},
                     Drbg(b"s" * 32)).state
    assert R.owes(s) == {"scotland": "moves"}
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []})}, Drbg(b"t" * 32))
    assert R.owes(out.state) == {"scotland": "decide"}
    rep = out.reports["scotland"]
    assert rep["asks"] == "decide" and rep["options"]["question"]["options"] == ["retreat", "fire"]
    s = out.state
    with pytest.raises(IllegalOrder):
        R.validate(s, "scotland", _order(s, "scotland", decide={"answer": "charge"}))
    first = R.adjudicate(s, {"scotland": _order(s, "scotland", decide={"answer": "fire"})}, Drbg(b"u" * 32))
    other = R.adjudicate(s, {"scotland": _order(s, "scotland", decide={"answer": "fire"})}, Drbg(b"v" * 32))
    assert R.owes(first.state) == {"england": "card", "scotland": "card"}
    assert [(e["area"], e["answer"]) for e in first.log if e.get("answer")] == [("Fife", "fire")]
    die = [e["die"] for e in first.log if "die" in e]
    assert die and die == [e["die"] for e in other.log if "die" in e], "a new step's stream cannot change the battle"


def test_7_deadline_default_plays_the_lowest_move_card_and_no_moves(fake: FakeBattle) -> None:
    s = _new()
    g = ruleset.game_of(s)
    body = R.default_order(s, "scotland")
    lowest = sorted(g.hands["scotland"], key=lambda c: (card(c).is_event, card(c).value, c))[0]
    assert body["card"] == {"play": lowest} and body["if_player1"] == {"moves": []}
    R.validate(s, "scotland", body)


def test_7_orders_for_the_wrong_step_side_or_kind_are_refused() -> None:
    s = _new()
    body = R.default_order(s, "england")
    with pytest.raises(InvalidOrder, match="step 5"):
        R.validate(s, "england", {**body, "step": 5})
    with pytest.raises(InvalidOrder, match="side"):
        R.validate(s, "scotland", body)
    with pytest.raises(IllegalOrder, match="3.1"):
        R.validate(s, "england", {**body, "card": {"play": "no-such-card"}})
    with pytest.raises(InvalidOrder, match="incomplete"):
        R.adjudicate(s, {"england": body}, Drbg(b"s" * 32))


def test_7_a_year_of_default_orders_costs_at_most_two_and_a_fifth_exchanges_a_turn(fake: FakeBattle) -> None:
    s = _new()
    steps = turns = 0
    year = ruleset.game_of(s).year
    while R.owes(s) and ruleset.game_of(s).year == year and steps < 40:
        owes = R.owes(s)
        turns += owes.get("england") == "card"
        s = R.adjudicate(s, {side: R.default_order(s, side) for side in owes}, Drbg(bytes([steps + 1]) * 32)).state
        steps += 1
    assert ruleset.game_of(s).year == year + 1 and R.owes(s) == {"england": "card", "scotland": "card"}
    assert steps <= 2 * turns + 1 + 2  # card + Player 2 moves per turn, one winter, at most two event steps


def test_7_bot_games_run_to_the_end_within_two_and_a_half_exchanges_a_turn(fake: FakeBattle) -> None:
    from pbem.hammer import bots

    for i, pair in enumerate((("simple", "random"), ("random", "simple"), ("random", "random"))):
        s = R.setup("braveheart", {}, Drbg(bytes([i + 1]) * 32))
        steps = turns = 0
        while R.owes(s) and steps < 400:
            orders = {}
            for side in R.owes(s):
                rep = R.report(s, side, [], "g", s["step"])
                d = bots.auto_draft(rep, pair[side == "scotland"], bytes([i, steps % 256]))
                drafts.check_draft(d, rep)
                orders[side] = d.body()
            turns += R.owes(s).get("england") == "card"
            s = R.adjudicate(s, orders, Drbg(bytes([i + 1, steps % 256]) * 16)).state
            steps += 1
        assert ruleset.game_of(s).winner, f"game {i} ended"
        assert steps / turns <= 2.5
