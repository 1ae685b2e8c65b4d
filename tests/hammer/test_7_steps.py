"""Brief 7: the protocol's steps (HammerRuleset): who owes what, Player 1's moves with the card,
plans with the card and the moves, decide steps, pins, winter, year end and game end.

The first tests use a stand-in battle (``fake``: one question for the defender unless its plan
answers, one die; no border raids) so only the step machine is tested; the later ones run the
real engine throughout.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.hammer import ruleset
from pbem.hammer.play import drafts
from pbem.hammer.play.order_kinds import base as order_kinds_base
from pbem.hammer.rules import engine
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.decisions import NeedDecision, Question, checked
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PUBLIC, LogEntry, as_entry, entry
from pbem.hammer.rules.state import GameState


class FakeBattle:
    def __init__(self) -> None:
        self.ask = False

    def fight(self, g: GameState, area: str, rng: Any, decider: Any) -> list[LogEntry]:
        die = rng.d6()
        log = [entry("battle", None, PUBLIC, area=area, die=die)]
        if self.ask:
            attacker = g.current.battles[area].attacker
            defender = "scotland" if attacker == "england" else "england"
            answer = checked(decider, Question(defender, "battle_action", ("retreat", "fire"), {"area": area}, "5.41"))
            log.append(entry("battle", None, PUBLIC, area=area, answer=answer))
        for name in g.blocks_in(area, attacker if self.ask else g.current.battles[area].attacker):
            g.blocks[name].location = g.current.battles[area].main_origin or g.blocks[name].location
        return log


class AskingPlans:
    def __init__(self, plans: dict[str, Any], quiet: frozenset[str] = frozenset()) -> None:
        self.plans, self.quiet = plans, quiet

    def decide(self, q: Question) -> str:
        if self.plans.get("always_ask") and q.context.get("area") not in self.quiet:  # asked once per battle
            raise NeedDecision(q)
        return q.options[0]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeBattle:
    fb = FakeBattle()
    monkeypatch.setattr(engine, "_fight", lambda g, area, rng, d: fb.fight(g, area, rng, d))
    monkeypatch.setattr(engine, "_border_raid", lambda g, d: [])
    real = ruleset._plan_decider

    def plans(side: str, pending: dict[str, Any], live: Any = None, quiet: frozenset[str] = frozenset()) -> Any:
        if pending.get("plans", {}).get("always_ask"):
            return AskingPlans(pending["plans"], quiet)
        return real(side, {k: v for k, v in pending.items() if k != "plans"}, live, quiet)

    monkeypatch.setattr(ruleset, "_plan_decider", plans)
    real_parse = order_kinds_base.parse_plans  # the orders' own check lets the asking plans through

    def parse(side: str, raw: Any) -> Any:
        return None if isinstance(raw, dict) and raw.get("always_ask") else real_parse(side, raw)

    monkeypatch.setattr(order_kinds_base, "parse_plans", parse)
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


def paused_on_a_hit() -> tuple[dict[str, Any], Any]:
    """England (Player 1) attacks Fife; Scotland's plan asks for hits: the battle pauses on the
    first tied hit. Returns the state before Scotland's moves and the paused step's result."""
    s = _new(HANDS)
    attack = {"moves": [{"from": "Mentieth", "to": "Fife", "blocks": ["Mentieth", "Northumber Infantry"]}]}
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1=attack),
                         "scotland": _order(s, "scotland", card={"play": "move1-3"})}, Drbg(b"s" * 32)).state
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []}, plans={"ask": ["hit"]})},
                       Drbg(b"a" * 32))
    return s, out


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


@pytest.mark.slow
def test_7_bot_games_run_to_the_end_within_two_and_a_half_exchanges_a_turn(fake: FakeBattle) -> None:
    """Self-play (4.1, 4.6): bots move as Player 1 (from [if_player1]) and as Player 2, and Player 2
    stands pinned where Player 1 attacked it."""
    from pbem.hammer.play import bots

    for i, pair in enumerate((("simple", "random"), ("random", "simple"), ("random", "random"))):
        s = R.setup("braveheart", {}, Drbg(bytes([i + 1]) * 32))
        steps = turns = 0
        moved: dict[tuple[str, str], int] = {}  # (side, "player1" or "player2") -> group moves made
        pinned = 0  # Player 2 asked for moves while Player 1's attackers pin its blocks (4.6)
        while R.owes(s) and steps < 400:
            orders = {}
            for side in R.owes(s):
                rep = R.report(s, side, [], "g", s["step"])
                if rep["asks"] == "moves" and rep["view"]["player1"] != side:
                    pinned += any(b["attacker"] != side and b["blocks"][side] for b in rep["view"]["battles"])
                d = bots.auto_draft(rep, pair[side == "scotland"], bytes([i, steps % 256]))
                drafts.check_draft(d, rep)
                orders[side] = d.body()
            turns += R.owes(s).get("england") == "card"
            p1 = ruleset.game_of(s).current.player1
            out = R.adjudicate(s, orders, Drbg(bytes([i + 1, steps % 256]) * 16))
            p1 = ruleset.game_of(out.state).current.player1 or p1
            for e in out.log:
                if e.get("what") == "moves" and e.get("public"):
                    role = (e["side"], "player1" if e["side"] == p1 else "player2")
                    moved[role] = moved.get(role, 0) + 1
            s = out.state
            steps += 1
        assert ruleset.game_of(s).winner, f"game {i} ended"
        assert steps / turns <= 2.5
        for side in ("england", "scotland"):
            for role in ("player1", "player2"):
                assert moved.get((side, role), 0) > 0, (i, side, role, moved)
        assert pinned > 0, f"game {i}: Player 1 never attacked Player 2's blocks"


# --- the real engine: pins, plans riding with the moves, decide steps, winter plans, game end ----------

ATTACK = {"moves": [{"from": "Mentieth", "to": "Fife", "blocks": ["Northumber Infantry"]}]}


def _attacked() -> dict[str, Any]:
    """England is Player 1 and attacks Fife (Wallace, Douglas, Barclay) with one block; Scotland owes moves."""
    s = _new(HANDS)
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1=ATTACK),
                         "scotland": _order(s, "scotland", card={"play": "move1-3"})}, Drbg(b"s" * 32)).state
    assert R.owes(s) == {"scotland": "moves"}
    return s


def test_4_6_player2_names_its_pinned_blocks_with_its_moves() -> None:
    """One attacker pins one of the three Scots in Fife; Scotland chooses which one, with its moves."""
    s = _attacked()
    wallace_out = {"moves": [{"from": "Fife", "to": "Atholl", "blocks": ["Wallace"]}]}
    with pytest.raises(IllegalOrder, match=r"Wallace: it is pinned in Fife \(4\.6\)"):
        R.validate(s, "scotland", _order(s, "scotland", moves={**wallace_out, "pins": {"Fife": ["Wallace"]}}))
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={**wallace_out, "pins": {"Fife": ["Douglas"]}})},
                       Drbg(b"t" * 32))
    lines = [as_entry(e) for e in out.log]
    moved = [e for e in lines if e.what == "moves" and e.actor == "scotland" and "parts" in e.facts]
    assert [p["blocks"] for p in moved[0].facts["parts"]] == [["Wallace"]]
    revealed = [b["block"] for e in lines if e.what == "reveal" and e.facts.get("area") == "Fife"
                and e.actor == "scotland" for b in e.facts["blocks"]]
    assert revealed and "Wallace" not in revealed and "Douglas" in revealed


def test_4_6_pins_naming_more_blocks_than_the_attackers_pin_are_refused_and_nothing_changes() -> None:
    s = _attacked()
    before = canonical_bytes(s)
    bad = {"moves": [], "pins": {"Fife": ["Wallace", "Douglas"]}}
    with pytest.raises(IllegalOrder, match=r"\(4\.6\)"):
        R.validate(s, "scotland", _order(s, "scotland", moves=bad))
    with pytest.raises(IllegalOrder, match=r"\(4\.6\)"):
        R.adjudicate(s, {"scotland": _order(s, "scotland", moves=bad)}, Drbg(b"t" * 32))
    assert canonical_bytes(s) == before


def test_7_battle_plans_ride_with_the_card_and_fight_the_battle_without_asking() -> None:
    """Scotland, Player 1, attacks Mentieth from Fife; its plans (sent with the card) retreat from round 1."""
    s = _new({"england": HANDS["scotland"], "scotland": HANDS["england"]})
    attack = {"moves": [{"from": "Fife", "to": "Mentieth", "blocks": ["Douglas"]}]}
    plans = {"battle": {"retreat_from_round": 1, "retreat_to": ["Fife"]}}
    s = R.adjudicate(s, {"scotland": _order(s, "scotland", card={"play": "move3-1"}, if_player1=attack, plans=plans),
                         "england": _order(s, "england", card={"play": "move1-3"})}, Drbg(b"s" * 32)).state
    assert R.owes(s) == {"england": "moves"}
    # with this stream Douglas survives the English fire and acts: the plan makes him retreat
    out = R.adjudicate(s, {"england": _order(s, "england", moves={"moves": []})}, Drbg(b"a" * 32))
    assert R.owes(out.state) == {"england": "card", "scotland": "card"}, "no decide step: the plan answered"
    retreats = [e for e in map(as_entry, out.log) if e.what == "retreat" and e.actor == "scotland"]
    assert retreats and all(e.facts["to"] == "Fife" and e.facts["round"] == 1 and not e.facts["forced"]
                            for e in retreats), out.log
    assert ruleset.game_of(out.state).blocks["Douglas"].location == "Fife"


def test_7_an_ask_plan_opens_a_decide_step_with_the_battle_numbers_and_the_dice_stay() -> None:
    s = _attacked()
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []}, plans={"ask": ["battle_action"]})},
                       Drbg(b"t" * 32))
    assert R.owes(out.state) == {"scotland": "decide"}
    q = out.reports["scotland"]["options"]["question"]
    assert q["kind"] == "battle_action" and q["side"] == "scotland" and "fire" in q["options"]
    assert {"own_steps", "enemy_steps", "steps_lost", "area", "round"} <= set(q["context"])
    assert "options" not in out.reports["england"] or not out.reports["england"]["options"]
    s = out.state
    firsts = []
    for key in (b"u", b"v"):  # the decide step's own stream cannot change the battle's dice
        t, seen = s, []
        for i in range(30):
            if R.owes(t) != {"scotland": "decide"}:
                break
            answer = "fire" if "fire" in t["question"]["options"] else t["question"]["options"][0]
            res = R.adjudicate(t, {"scotland": _order(t, "scotland", decide={"answer": answer})}, Drbg(key * 32))
            seen += [(e.get("block"), str(e.get("dice"))) for e in res.log if e.get("what") == "fire"]
            t = res.state
        assert R.owes(t) == {"england": "card", "scotland": "card"}
        firsts.append(seen)
    assert firsts[0] and firsts[0] == firsts[1]


def _to_winter() -> dict[str, Any]:
    s = _new()
    for i in range(40):
        if set(R.owes(s).values()) == {"winter"}:
            return s
        s = R.adjudicate(s, {side: R.default_order(s, side) for side in R.owes(s)}, Drbg(bytes([i + 1]) * 32)).state
    raise AssertionError("no winter within 40 steps")


def test_7_winter_is_one_step_for_both_sides_and_the_winter_plan_is_followed() -> None:
    s = _to_winter()
    assert R.owes(s) == {"england": "winter", "scotland": "winter"}
    g = ruleset.game_of(s)
    year = g.year
    plain = R.adjudicate(s, {side: _order(s, side, winter={}) for side in ("england", "scotland")}, Drbg(b"w" * 32))
    asked = R.adjudicate(s, {"england": _order(s, "england", winter={}),
                             "scotland": _order(s, "scotland", winter={"ask": ["winter_build"]})}, Drbg(b"w" * 32))
    assert R.owes(plain.state) == {"england": "card", "scotland": "card"}
    assert ruleset.game_of(plain.state).year == year + 1
    assert R.owes(asked.state) == {"scotland": "decide"}, "the plan asked to choose the builds itself"
    assert asked.state["question"]["kind"] == "winter_build"


def test_7_the_winter_report_lists_the_plan_choices_and_the_template_and_random_bot_use_them() -> None:
    """A report asking for ``winter`` carries the winter plan's legal choices (the legal-move
    generator for winter orders); the draft template lists them; a random bot's plan built from
    them is accepted and adjudicated."""
    from pbem.hammer.play import bots
    from pbem.hammer.rules.winter import winter_plan_options

    s = _to_winter()
    g = ruleset.game_of(s)
    for side in ("england", "scotland"):
        rep = R.report(s, side, [], "g", s["step"])
        assert rep["options"]["winter_plan"] == winter_plan_options(g, side)
        assert "builds" in rep["options"]["winter_plan"]
        template = drafts.template(rep)
        assert "# your choices now" in template
    orders = {}
    for side in ("england", "scotland"):
        rep = R.report(s, side, [], "g", s["step"])
        d = bots.auto_draft(rep, "random", side.encode())
        R.validate(s, side, d.body())
        orders[side] = d.body()
    assert R.owes(R.adjudicate(s, orders, Drbg(b"w" * 32)).state) != {}


def test_7_a_winter_build_plan_decides_where_the_steps_go() -> None:
    """7.62: the same winter with one damaged Scottish block: ``pass`` leaves it, ``step:`` builds it."""
    from pbem.hammer.rules.blocks import spec
    s = _to_winter()
    g = ruleset.game_of(s)
    name, area = sorted((n, b.location) for n, b in g.blocks.items() if b.owner == "scotland"
                        and g.control(b.location) == "scotland" and b.location != "England"
                        and not spec(n).is_noble and n != "Wallace")[0]
    g.blocks[name].strength = 1
    s = {**s, "game": g.to_dict()}
    strengths = []
    for entries in (["pass"], [f"step:{name}", "pass"]):  # pass forfeits the area's other RPs
        out = R.adjudicate(s, {"england": _order(s, "england", winter={}),
                               "scotland": _order(s, "scotland", winter={"builds": {area: entries}})}, Drbg(b"w" * 32))
        assert R.owes(out.state) == {"england": "card", "scotland": "card"}
        strengths.append(ruleset.game_of(out.state).blocks[name].strength)
    assert strengths == [1, 2], (name, area, strengths)


def test_9_at_game_end_nobody_owes_and_every_report_carries_the_result() -> None:
    from pbem.hammer.play import bots

    s = R.setup("braveheart", {}, Drbg(bytes([9]) * 32))
    for steps in range(400):
        if not R.owes(s):
            break
        orders = {side: bots.auto_draft(R.report(s, side, [], "g", s["step"]), "simple", bytes([steps % 256])).body()
                  for side in R.owes(s)}
        out = R.adjudicate(s, orders, Drbg(bytes([9, steps % 256]) * 16))
        s = out.state
    assert R.is_over(s) and R.owes(s) == {}
    winner = ruleset.game_of(s).winner
    assert winner in ("england", "scotland")
    for side in ("england", "scotland"):
        rep = out.reports[side]
        assert rep["result"]["winner"] == winner and rep["asks"] == "" and rep["options"] == {}
        with pytest.raises(InvalidOrder, match="owes nothing"):
            R.validate(s, side, drafts.Draft(side=side, step=s["step"], kind="card",
                                              sections={"card": {"play": "move1-1"}}).body())


def test_7_a_decide_answer_goes_to_the_question_it_answers_not_to_one_the_plans_answered() -> None:
    """Scotland's plans answer its battle actions but ask for hits. Resumed after the decide
    step, the battle replays: Wallace's fire (answered by the plan, before the pause) must not
    consume the answer given for the hit question."""
    _, out = paused_on_a_hit()
    q = out.state["question"]
    assert R.owes(out.state) == {"scotland": "decide"} and q["kind"] == "hit"
    assert q["options"] == ["Barclay", "Douglas", "Wallace"]
    s = out.state
    res = R.adjudicate(s, {"scotland": _order(s, "scotland", decide={"answer": "Wallace"},
                                               plans={"ask": ["battle_action"]})}, Drbg(b"z" * 32))
    hits = [(e.facts["by"], e.facts["block"]) for e in map(as_entry, res.log) if e.what == "hit"]
    assert ("Mentieth", "Wallace") in hits
    assert R.owes(res.state) == {"england": "card", "scotland": "card"}, "asked once per battle (docs/plans.md)"


def test_7_deadline_defaults_for_every_kind_of_step_are_legal_and_as_documented() -> None:
    """docs/playing.md section 6: moves: none; decide: the first option; winter: the default plans."""
    s = _attacked()
    body = R.default_order(s, "scotland")
    assert body["kind"] == "moves" and body["moves"] == {"moves": []}
    R.validate(s, "scotland", body)
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []}, plans={"ask": ["battle_action"]})},
                       Drbg(b"t" * 32))
    d = out.state
    assert R.owes(d) == {"scotland": "decide"}
    body = R.default_order(d, "scotland")
    assert body["decide"] == {"answer": d["question"]["options"][0]}
    R.validate(d, "scotland", body)
    w = _to_winter()
    for side in ("england", "scotland"):
        body = R.default_order(w, side)
        assert body["kind"] == "winter" and body["winter"] == {}
        R.validate(w, side, body)


def test_2_0_an_engine_line_that_names_no_side_and_is_not_public_reaches_no_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = engine.submit_cards

    def submit(*args: Any) -> Any:
        return list(real(*args) or []) + [{"what": "secret", "note": "referee only"},
                                          {"what": "both_see", "public": True}]

    monkeypatch.setitem(engine.STEPS, "submit_cards", submit)  # the step the ruleset calls by name
    s = _new(HANDS)
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1={"moves": []}),
                           "scotland": _order(s, "scotland", card={"play": "move1-3"})}, Drbg(b"s" * 32))
    assert any(e["what"] == "secret" for e in out.log)
    for side in ("england", "scotland"):
        whats = [e["what"] for e in out.reports[side]["log"]]
        assert "secret" not in whats and "both_see" in whats


EVENT_HANDS = {"england": ["sea_move", "move1-1", "move1-2", "move2-1", "move2-2"],
               "scotland": ["pillage", "herald", "move1-3", "move2-3", "move2-4"]}


def test_3_12_event_parameters_are_checked_against_the_state_in_card_and_event_steps() -> None:
    s = _new(EVENT_HANDS)
    with pytest.raises(IllegalOrder, match=r"\(3\.12\)|\(5\.7\)"):
        R.validate(s, "scotland", _order(s, "scotland", card={"play": "herald"}, event={"noble": "Moray"}))
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move2-1"}, if_player1={"moves": []}),
                         "scotland": _order(s, "scotland", card={"play": "herald"})}, Drbg(b"s" * 32)).state
    assert R.owes(s) == {"scotland": "event"}
    with pytest.raises(IllegalOrder):
        R.validate(s, "scotland", _order(s, "scotland", event={"noble": "Moray"}))
    R.validate(s, "scotland", _order(s, "scotland", event={"noble": "Mar"}))


def test_3_12_event_parameters_the_first_event_made_illegal_are_asked_for_again() -> None:
    """Both play Events: England's Sea Move (resolved first, 3.12) empties Mentieth, so the
    Pillage Scotland sent with its card has no target left: Scotland is asked for new parameters."""
    s = _new(EVENT_HANDS)
    sea = {"from": "Mentieth", "to": "Lothian", "blocks": ["Mentieth", "Northumber Infantry"]}
    pillage = {"from": "Fife", "target": "Mentieth", "steps_to": ["Wallace"]}
    R.validate(s, "scotland", _order(s, "scotland", card={"play": "pillage"}, event=pillage))
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "sea_move"}, event=sea),
                           "scotland": _order(s, "scotland", card={"play": "pillage"}, event=pillage)}, Drbg(b"s" * 32))
    assert R.owes(out.state) == {"scotland": "event"}
    refused = [e for e in out.reports["scotland"]["log"] if e["what"] == "event_refused"]
    assert refused and "Mentieth" in refused[0]["reason"]
    assert not [e for e in out.reports["england"]["log"] if e["what"] == "event_refused"]
    g = ruleset.game_of(out.state)
    assert g.blocks["Mentieth"].location == "Lothian"


def test_7_a_decide_report_shows_the_battle_so_far_to_both_sides() -> None:
    """Brief 7: the side asked sees the battle up to the question (rounds, dice); so does the
    other side, as far as a battle is public; neither sees the other's hidden blocks."""
    from pbem.cli.report import render_report

    _, out = paused_on_a_hit()
    scots, english = out.reports["scotland"]["view"]["fight"], out.reports["england"]["view"]["fight"]
    assert scots["area"] == english["area"] == "Fife" and scots["round"] == 1
    assert scots["line"] == ["Barclay", "Douglas", "Wallace"] and scots["enemy_line"] == 2
    assert english["line"] == ["Mentieth", "Northumber Infantry"] and english["enemy_line"] == 3
    fired = [e for e in scots["log"] if e["what"] == "fire"]
    assert fired and fired[0]["block"] == "Wallace" and fired[0]["dice"] == [e for e in english["log"]
                                                                              if e["what"] == "fire"][0]["dice"]
    text = render_report(out.reports["scotland"])
    assert "battle in progress in Fife, round 1" in text and "Wallace (scotland) fires" in text
    after = R.adjudicate(out.state, {"scotland": _order(out.state, "scotland", decide={"answer": "Wallace"})},
                         Drbg(b"z" * 32))
    assert after.state["paused"] is None and after.reports["scotland"]["view"]["fight"] == {}
