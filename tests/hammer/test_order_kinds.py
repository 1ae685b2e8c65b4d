"""Issue 15 item 3: each order kind (card, event, moves, decide, winter) is one object with its parse,
validate, options, default, template and bot (pbem/hammer/order_kinds); the ruleset, drafts and bots
ask the registry. Checked here on real positions of bot games of all three scenarios: each kind's
default order, template and bot drafts are accepted by the referee and by the player's check, and an
illegal order of each kind is refused by both with the same message, citing the rule it breaks."""

from __future__ import annotations

import collections
import copy
import inspect
import re
from collections.abc import Callable
from typing import Any

import pytest
from check_corpus import SCENARIOS, Position, positions

from pbem.core.canonical import canonical_bytes
from pbem.core.ruleset import load as load_ruleset
from pbem.hammer import ruleset
from pbem.hammer.play import bots, drafts, known
from pbem.hammer.play.order_kinds import ORDER_KINDS, Ask, rules_for
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.errors import DataError, IllegalOrder, InvalidOrder
from pbem.hammer.rules.vocab import ORDER_KINDS as KIND_NAMES
from pbem.hammer.ruleset import HammerRuleset, ask_of

R = HammerRuleset()
# a set-up key that deals England Move 2-5 and the Scots Move 1-2 (docs/draws.md, the deal)
BRAVEHEART_KEY = b"t" * 28 + (19364).to_bytes(4, "big")
OPERATIONS = ("parse", "validate", "notes", "options", "default", "template", "bot")


def _positions() -> list[Position]:
    out: list[Position] = []
    for i, scenario in enumerate(SCENARIOS):
        out += positions(scenario, i + 3, max_steps=60, every=1)  # seeds whose games ask a decide of several questions
    return out


POSITIONS = _positions()


def _by_kind() -> collections.Counter[str]:
    return collections.Counter(p.asks for p in POSITIONS)


def test_the_positions_cover_every_order_kind() -> None:
    assert set(_by_kind()) == set(KIND_NAMES), _by_kind()


def test_every_order_kind_is_in_the_registry_and_offers_every_operation() -> None:
    assert set(ORDER_KINDS) == set(KIND_NAMES)
    assert drafts.KINDS == ("card", "event", "moves", "decide", "winter")  # the order the drafts' messages list
    for kind, rules in ORDER_KINDS.items():
        assert rules.kind == kind and rules_for(kind) is rules
        assert rules.sections[0] == kind, "a kind's own section comes first"
        for name in OPERATIONS:
            assert callable(getattr(rules, name, None)), f"{kind} lacks {name}"


def test_an_unknown_order_kind_has_no_rules() -> None:
    with pytest.raises(DataError, match="unknown order kind 'orders'"):
        rules_for("orders")


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_parse_refuses_a_section_the_kind_may_not_carry(kind: str) -> None:
    """drafts.from_body asks the kind which sections it may carry (docs/playing.md)."""
    foreign = next(s for s in ("card", "moves", "winter") if s not in rules_for(kind).sections)
    with pytest.raises(InvalidOrder, match=rf"a {kind} order cannot carry \[{foreign}\]"):
        drafts.from_body({"game": "g", "side": "england", "step": 0, "kind": kind, foreign: {}})


def test_card_parse_needs_a_card_and_decide_parse_an_answer() -> None:
    with pytest.raises(InvalidOrder, match=r"\[card\] needs play"):
        ORDER_KINDS["card"].parse({"card": {}}, "draft")
    with pytest.raises(InvalidOrder, match=r"\[decide\] needs answer"):
        ORDER_KINDS["decide"].parse({"decide": {"answer": "fire", "answers": ["fire"]}}, "draft")
    assert ORDER_KINDS["decide"].parse({"decide": {"answers": ["fire", "stay"]}}, "d") == {
        "decide": {"answers": ["fire", "stay"]}}


def test_the_players_check_sees_the_ask_the_referee_sees() -> None:
    """The game rebuilt from a report (known.py) owes what the secret state owes, question and all."""
    for p in POSITIONS:
        referee = ask_of(p.state, p.side)
        assert isinstance(referee, Ask) and referee.kind == p.asks and referee.side == p.side
        assert ask_of(known.state_from_report(p.report), p.side) == referee


def test_each_kind_lists_in_the_report_what_its_options_give() -> None:
    for p in POSITIONS:
        ask = ask_of(p.state, p.side)
        assert ask is not None
        listed = rules_for(ask.kind).options(ruleset.game_of(p.state), ask)
        assert listed == p.report["options"] == R.options(p.state, p.side)


def _accepted(p: Position, body: dict[str, Any]) -> None:
    """Both judges accept: the referee on the secret state, the player's check on the report."""
    R.validate(p.state, p.side, body)
    drafts.check_draft(drafts.from_body(body), p.report)


def test_playing_md_deadline_each_kinds_default_order_is_legal_in_real_positions() -> None:
    for p in POSITIONS:
        body = R.default_order(p.state, p.side)
        assert body["kind"] == p.asks and body["step"] == p.report["step"]
        _accepted(p, body)


def test_playing_md_each_kinds_template_parses_and_passes_both_checks_untouched() -> None:
    for p in POSITIONS:
        draft = drafts.parse_draft(drafts.template(p.report), "template")
        assert draft.kind == p.asks and draft.kind in draft.sections
        _accepted(p, draft.body())


@pytest.mark.parametrize("bot", bots.BOTS)
def test_each_kinds_bot_draft_passes_both_checks(bot: str) -> None:
    for n, p in enumerate(POSITIONS):
        d = bots.auto_draft(p.report, bot, bytes([n % 256]))
        assert d.kind == p.asks and set(d.sections) <= set(rules_for(p.asks).sections)
        _accepted(p, d.body())


KIND = "(card|event|moves|decide|winter)"
ORDER_NAMES = re.compile(rf'[=!]=\s*"{KIND}"|\{{"{KIND}"\}}|asks in \(')


def test_issue_15_drafts_bots_and_the_rulesets_orders_name_no_order_kind() -> None:
    """The if/elif chains over kinds are gone: these places ask the registry."""
    sources = {m.__name__: inspect.getsource(m) for m in (drafts, bots, known)}
    sources["ruleset orders"] = "".join(inspect.getsource(f) for f in (
        HammerRuleset.default_order, HammerRuleset.validate, HammerRuleset.options, ruleset._options, ask_of,
        ruleset.run_step))
    for name, text in sources.items():
        assert not ORDER_NAMES.search(text), (name, ORDER_NAMES.search(text))


# --- each kind refuses an illegal order, the referee and the player's check alike -------------------

REFEREE = load_ruleset("hammer")  # the referee's check, as the protocol loads it


def _first(kind: str, where: Callable[[Position], bool] = lambda p: True) -> Position:
    return next(p for p in POSITIONS if p.asks == kind and where(p))


def _body(p: Position, **sections: Any) -> dict[str, Any]:
    return {"game": "g", "side": p.side, "step": p.report["step"], "kind": p.asks, **sections}


def _refused_alike(p: Position, body: dict[str, Any], rule: str) -> str:
    """The referee (on the secret state) and ``pbem orders check`` (on the side's report) both refuse
    ``body`` with the same message, citing ``rule``; the message is returned."""
    with pytest.raises(IllegalOrder) as referee:
        REFEREE.validate(copy.deepcopy(p.state), p.side, copy.deepcopy(body))
    with pytest.raises(IllegalOrder) as player:
        drafts.check_draft(drafts.from_body(copy.deepcopy(body), "draft"), copy.deepcopy(p.report))
    message = str(referee.value)
    assert str(player.value) == message
    assert referee.value.rule == player.value.rule == rule, message
    assert f"({rule})" in message, message
    return message


def _one_move_per_origin(reach: dict[str, dict[str, list[str]]]) -> list[dict[str, Any]]:
    """One legal single-block group move from each area that has a block able to move (4.2)."""
    out = []
    for origin, blocks in sorted(reach.items()):
        movable = [(block, areas) for block, areas in sorted(blocks.items()) if areas]
        if movable:
            block, areas = movable[0]
            out.append({"from": origin, "to": areas[0], "blocks": [block]})
    return out


def test_3_1_a_card_order_playing_a_card_not_in_hand_is_refused() -> None:
    p = _first("card")
    hand = p.report["options"]["hand"]
    absent = next(c for c in sorted(deck()) if c not in hand)
    message = _refused_alike(p, _body(p, card={"play": absent}), "3.1")
    assert f"play {absent!r}: that card is not in {p.side}'s hand" in message


def test_4_2_a_card_orders_if_player1_moves_beyond_the_cards_value_are_refused() -> None:
    p = _first("card", lambda p: any(not card_of(c).is_event for c in p.report["options"]["hand"]))
    play = min((c for c in p.report["options"]["hand"] if not card_of(c).is_event), key=lambda c: card_of(c).value)
    value = card_of(play).value
    moves = _one_move_per_origin(p.report["options"]["moves"])[:value + 1]
    assert len(moves) == value + 1, "the position has enough groups able to move"
    # each move alone is legal: only their number is refused
    REFEREE.validate(copy.deepcopy(p.state), p.side, _body(p, card={"play": play}, if_player1={"moves": moves[:1]}))
    message = _refused_alike(p, _body(p, card={"play": play}, if_player1={"moves": moves}), "4.2")
    assert f"0 of the card's {value} are left" in message


def test_3_12_a_card_orders_herald_on_its_own_noble_is_refused() -> None:
    p = _first("card", lambda p: "herald" in p.report["options"]["hand"] and bool(p.report["view"]["own_nobles"]))
    noble = p.report["view"]["own_nobles"][0]
    message = _refused_alike(p, _body(p, card={"play": "herald"}, event={"noble": noble}), "3.12")
    assert f"Herald on {noble}: {noble} is not an enemy noble on the map" in message


def test_3_12_an_event_orders_herald_on_its_own_noble_is_refused() -> None:
    p = _first("event", lambda p: p.report["options"]["event"] == "herald" and bool(p.report["view"]["own_nobles"]))
    noble = next(n for n in p.report["view"]["own_nobles"] if n != "Moray")  # Moray is refused by 5.7
    assert {"noble": noble} not in p.report["options"]["event_params"]
    message = _refused_alike(p, _body(p, event={"noble": noble}), "3.12")
    assert f"Herald on {noble}: {noble} is not an enemy noble on the map" in message


def test_4_2_a_moves_order_with_more_group_moves_than_the_card_allows_is_refused() -> None:
    p = _first("moves", lambda p: bool(p.report["options"]["card"]))
    value = card_of(p.report["options"]["card"]).value
    moves = _one_move_per_origin(p.report["options"]["moves"])[:value + 1]
    assert len(moves) == value + 1, "the position has enough groups able to move"
    REFEREE.validate(copy.deepcopy(p.state), p.side, _body(p, moves={"moves": moves[:value]}))
    message = _refused_alike(p, _body(p, moves={"moves": moves}), "4.2")
    assert f"move {value + 1} from {moves[-1]['from']}: a group move costs one move point" in message


def _steps(origin: str, area: str) -> int:
    """Borders crossed on the shortest path, whatever they are: more than 3 is out of every card's reach."""
    seen, ring, n = {origin}, [origin], 0
    while area not in seen:
        ring = sorted({b for a in ring for b in board().neighbours(a)} - seen)
        seen |= set(ring)
        n += 1
    return n


def test_2_13_a_moves_order_moving_a_block_out_of_reach_is_refused() -> None:
    p = _first("moves")
    origin, reach = next(iter(sorted(p.report["options"]["moves"].items())))
    block = sorted(reach)[0]
    far = next(a for a in sorted(board().areas) if a != origin and a not in reach[block] and _steps(origin, a) > 3)
    message = _refused_alike(p, _body(p, moves={"moves": [{"from": origin, "to": far, "blocks": [block]}]}), "2.13")
    assert f"{block} {origin}→{far}: out of reach" in message


def test_plans_md_a_decide_answer_not_among_the_options_is_refused() -> None:
    p = _first("decide")
    asked = p.report["options"].get("questions") or [p.report["options"]["question"]]
    rule = str(asked[0]["rule"])
    answers = [str(q["options"][0]) for q in asked]
    answers[0] = "fire" if "fire" not in asked[0]["options"] else "nowhere"
    decide = {"answers": answers} if len(asked) > 1 else {"answer": answers[0]}
    message = _refused_alike(p, _body(p, decide=decide), rule)
    assert f"{answers[0]!r}" in message and f"not one of {', '.join(asked[0]['options'])}" in message


def test_plans_md_a_decide_order_answering_too_few_of_a_battles_questions_is_refused() -> None:
    p = _first("decide", lambda p: len(p.report["options"].get("questions", [])) > 1)
    asked = p.report["options"]["questions"]
    answers = [str(q["options"][0]) for q in asked][:-1]
    message = _refused_alike(p, _body(p, decide={"answers": answers}), str(asked[0]["rule"]))
    assert f"{len(asked)} question(s) of this battle are asked" in message and f"not {len(answers)}" in message


def test_7_2_a_winter_plan_for_a_king_the_scots_do_not_have_is_refused() -> None:
    p = _first("winter", lambda p: p.side == "scotland" and "king" not in p.report["options"]["winter_plan"])
    message = _refused_alike(p, _body(p, winter={"king": "stay"}), "7.2")
    assert "winter.king = 'stay': the King is not a block of yours on the map" in message


def test_7_32_an_english_winter_disband_not_offered_is_refused() -> None:
    p = _first("winter", lambda p: p.side == "england")
    offered = p.report["options"]["winter_plan"]["disband"]
    assert "Edward" not in offered
    message = _refused_alike(p, _body(p, winter={"disband": ["Edward"]}), "7.32")
    assert "winter.disband: 'Edward' is not one of the blocks that may disband by choice this winter" in message


@pytest.mark.parametrize(("plan", "message"), [
    ({"colour": "red"}, r"^winter\.colour: unknown key; use homes, moray, "),
    ({"builds": {"Narnia": ["draw"]}}, r"^winter\.builds\.Narnia: unknown area \(1\.1\)$"),
    ({"disband": "Wallace"}, r"^winter\.disband: a list of names$"),
])
def test_7_0_the_referee_refuses_a_winter_plan_of_the_wrong_shape_and_changes_nothing(
        plan: dict[str, Any], message: str) -> None:
    """The winter kind's validate checks the plan's shape (winter.validate_winter_plan) before its choices."""
    owing = [p for p in POSITIONS if p.asks == "winter"]
    assert {p.side for p in owing} == {"england", "scotland"}
    for p in owing[:2]:
        before = canonical_bytes(p.state)
        with pytest.raises(InvalidOrder, match=message):
            R.validate(p.state, p.side, {**R.default_order(p.state, p.side), "winter": plan})
        assert canonical_bytes(p.state) == before


# --- an untouched draft is the deadline's default (docs/playing.md "Default orders") ---------------

def test_playing_md_an_untouched_card_draft_plays_what_the_deadline_default_plays() -> None:
    """A fresh card draft sealed as it is plays the deadline's card, and an Event with its empty
    [event] (its own defaults), never an Event picked by the alphabet."""
    cards = [p for p in POSITIONS if p.asks == "card"]
    assert any(len({card_of(c).is_event for c in p.report["options"]["hand"]}) == 2 for p in cards)
    for p in cards:
        draft = drafts.parse_draft(drafts.template(p.report), "template")
        default = R.default_order(p.state, p.side)
        assert draft.sections["card"] == default["card"], p.report["options"]["hand"]
        assert draft.sections.get("event") == default.get("event")


def _england_card_report(hand: list[str]) -> dict[str, Any]:
    from pbem.core.drbg import Drbg
    s = R.setup("braveheart", {}, Drbg(BRAVEHEART_KEY))
    g = ruleset.game_of(s)
    g.hands["england"] = hand
    s["game"] = g.to_dict()
    return R.report(s, "england", [], "g", 0)


def test_3_1_a_fresh_card_draft_with_herald_first_by_name_plays_the_lowest_move_card() -> None:
    text = drafts.template(_england_card_report(["herald", "move3-1", "move2-1", "truce"]))
    assert drafts.parse_draft(text).sections["card"] == {"play": "move2-1"}
    assert "\n# filled in: what the deadline would play for you, your lowest Move card" in text
    assert "\n[event]" not in text  # the Events' hints stay commented


def test_3_12_a_fresh_card_draft_holding_only_events_passes_the_first_by_name_as_the_deadline_would() -> None:
    text = drafts.template(_england_card_report(["truce", "herald"]))
    draft = drafts.parse_draft(text)
    assert draft.sections["card"] == {"play": "herald"} and draft.sections["event"] == {}
    assert "# herald is filled in, with an empty [event] as the deadline would send" in text


# --- decide answers: counted from 1 as the draft lists the questions, a misspelt one named ---------

def _misspelt(name: str) -> str:
    return name[:-2] + name[-1]  # "Strathspey" -> "Strathspy"


def test_plans_md_a_misspelt_answer_to_question_2_of_n_is_named_from_1_with_a_suggestion() -> None:
    p = _first("decide", lambda p: len(p.report["options"].get("questions", [])) > 1)
    asked = p.report["options"]["questions"]
    answers = [str(q["options"][0]) for q in asked]
    meant = max(asked[1]["options"], key=len)
    answers[1] = _misspelt(meant)
    question_line = next(x for x in drafts.template(p.report).splitlines() if x.startswith("# question 2 of"))
    message = _refused_alike(p, _body(p, decide={"answers": answers}), str(asked[1]["rule"]))
    assert message.startswith(f"answer 2 of {len(asked)} {answers[1]!r} (regroup {asked[1]['context']['block']}): "
                              f"not one of {', '.join(asked[1]['options'])}"), (message, question_line)
    assert message.endswith(f"; did you mean {meant}?"), message


def test_plans_md_a_misspelt_single_answer_gets_a_suggestion() -> None:
    p = _first("decide", lambda p: "questions" not in p.report["options"])
    q = p.report["options"]["question"]
    meant = max(q["options"], key=len)
    message = _refused_alike(p, _body(p, decide={"answer": _misspelt(meant)}), str(q["rule"]))
    assert message == (f"answer {_misspelt(meant)!r}: not one of {', '.join(q['options'])} ({q['rule']}); "
                       f"did you mean {meant}?")


# --- a move section's faults name the section the player wrote -------------------------------------

def _invalid_alike(p: Position, body: dict[str, Any]) -> str:
    """The referee and ``pbem orders check`` both refuse ``body``'s shape with the same message."""
    with pytest.raises(InvalidOrder) as referee:
        REFEREE.validate(copy.deepcopy(p.state), p.side, copy.deepcopy(body))
    with pytest.raises(InvalidOrder) as player:
        drafts.check_draft(drafts.from_body(copy.deepcopy(body), "draft"), copy.deepcopy(p.report))
    assert str(player.value) == str(referee.value)
    return str(referee.value)


def test_orders_md_moves_an_unknown_key_in_if_player1_names_if_player1() -> None:
    p = _first("card", lambda p: any(not card_of(c).is_event for c in p.report["options"]["hand"]))
    play = next(c for c in p.report["options"]["hand"] if not card_of(c).is_event)
    message = _invalid_alike(p, _body(p, card={"play": play}, if_player1={"moves": [], "foo": 1}))
    assert message == ("if_player1: unknown key 'foo' (expected moves, main_attack, pins, battle_order; e.g. "
                       'moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ])')
    reach = p.report["options"]["moves"]
    origin = next(o for o, blocks in sorted(reach.items()) if any(blocks.values()))
    move = {"from": origin, "to": origin, "blocks": ["Nobody"]}
    message = _invalid_alike(p, _body(p, card={"play": play}, if_player1={"moves": [move]}))
    assert message.startswith("if_player1: move 1.blocks: 'Nobody' is not a block of the game (2.0)"), message


def test_orders_md_moves_an_unknown_key_in_moves_names_moves() -> None:
    p = _first("moves")
    message = _invalid_alike(p, _body(p, moves={"moves": [], "foo": 1}))
    assert message.startswith("moves: unknown key 'foo' (expected moves, main_attack, pins, battle_order; e.g. ")


# --- 5.1: Player 1's battle order names only areas where a battle can be fought ----------------------
# Braveheart's set-up: England holds Lothian (Cumbria Infantry, next to the Scots in Fife); no block
# stands in Carrick.

def _braveheart() -> dict[str, Any]:
    from pbem.core.drbg import Drbg
    return R.setup("braveheart", {}, Drbg(BRAVEHEART_KEY))


def _england_card_position() -> Position:
    s = _braveheart()
    return Position(s, "england", R.report(s, "england", [], "g", 0))


def _england_player1_moves_position() -> Position:
    """England played a Move 2 card without [if_player1], the Scots a Move 1: England, Player 1,
    owes a moves step of its own (4.1)."""
    from pbem.core.drbg import Drbg
    s = _braveheart()
    orders = {"england": {"game": "g", "side": "england", "step": 0, "kind": "card", "card": {"play": "move2-5"}},
              "scotland": {"game": "g", "side": "scotland", "step": 0, "kind": "card", "card": {"play": "move1-2"}}}
    s = R.adjudicate(s, orders, Drbg(b"u" * 32)).state
    assert R.owes(s) == {"england": "moves"}
    return Position(s, "england", R.report(s, "england", [], "g", s["step"]))


ATTACK_FIFE = {"from": "Lothian", "to": "Fife", "blocks": ["Cumbria Infantry"]}


def _notes_alike(p: Position, body: dict[str, Any]) -> list[str]:
    """The referee accepts ``body``; the player's check accepts it too and returns its notes."""
    R.validate(copy.deepcopy(p.state), p.side, copy.deepcopy(body))
    notes = drafts.check_draft(drafts.from_body(copy.deepcopy(body), "draft"), copy.deepcopy(p.report))
    assert notes == R.notes(copy.deepcopy(p.state), p.side, copy.deepcopy(body))
    return notes


def test_5_1_a_moves_orders_battle_order_naming_an_area_with_no_battle_possible_is_refused() -> None:
    """The issue's case: battle_order = ["Lothian"], the only English block there moving out."""
    p = _england_player1_moves_position()
    message = _refused_alike(p, _body(p, moves={"moves": [ATTACK_FIFE], "battle_order": ["Fife", "Lothian"]}), "5.1")
    assert message == ("moves.battle_order: no battle can be fought in Lothian this turn: none stands there after "
                       "these moves, and with no block of yours there Player 2 cannot start one (5.1)")


def test_5_1_a_battle_order_naming_the_battle_its_own_moves_start_is_accepted_without_a_note() -> None:
    p = _england_player1_moves_position()
    assert _notes_alike(p, _body(p, moves={"moves": [ATTACK_FIFE], "battle_order": ["Fife"]})) == []
    c = _england_card_position()
    body = _body(c, card={"play": "move2-5"}, if_player1={"moves": [ATTACK_FIFE], "battle_order": ["Fife"]})
    assert _notes_alike(c, body) == []


def test_5_1_a_battle_order_naming_an_own_area_player_2_may_attack_is_accepted_with_a_note() -> None:
    c = _england_card_position()
    body = _body(c, card={"play": "move2-5"}, if_player1={"moves": [], "battle_order": ["Lothian"]})
    assert _notes_alike(c, body) == ["if_player1.battle_order: no battle stands in Lothian after these moves; "
                                     "it is fought there only if Player 2 attacks Lothian (5.1)"]


def test_5_1_a_card_orders_if_player1_battle_order_naming_an_empty_area_is_refused() -> None:
    c = _england_card_position()
    body = _body(c, card={"play": "move2-5"}, if_player1={"moves": [], "battle_order": ["Carrick"]})
    message = _refused_alike(c, body, "5.1")
    assert message.startswith("if_player1.battle_order: no battle can be fought in Carrick this turn"), message


def test_5_1_only_player_1_sends_a_battle_order() -> None:
    p = _first("moves", lambda p: p.report["view"]["player1"] != p.side)
    area = sorted(p.report["options"]["moves"])[0]  # one of its own areas
    message = _refused_alike(p, _body(p, moves={"moves": [], "battle_order": [area]}), "5.1")
    assert message == (f"moves.battle_order: only Player 1 chooses the order of battles, and {p.side} is Player 2 "
                       f"this turn (5.1)")


@pytest.mark.parametrize("order, said", [
    (["Fife", "Fife"], "if_player1.battle_order: Fife is listed twice"),
    (["Fyfe"], "if_player1.battle_order: 'Fyfe' is not an area of the map (1.1); did you mean Fife?"),
    ("Fife", "if_player1.battle_order: give a list of area names, like battle_order = [\"AREA\"] (5.1), not 'Fife'"),
])
def test_5_1_a_battle_order_is_a_list_of_areas_each_named_once(order: Any, said: str) -> None:
    """Before, a repeated area passed the check and then stopped the adjudication (battle.battle_order)."""
    c = _england_card_position()
    body = _body(c, card={"play": "move2-5"}, if_player1={"moves": [ATTACK_FIFE], "battle_order": order})
    assert _invalid_alike(c, body) == said


def test_5_1_only_player_1s_moves_draft_offers_a_battle_order() -> None:
    hint = '# battle_order = ["AREA"]   # battles to fight first, in order: areas with a battle (5.1)'
    assert hint in drafts.template(_england_player1_moves_position().report).splitlines()
    player2 = _first("moves", lambda p: p.report["view"]["player1"] != p.side)
    assert "battle_order" not in drafts.template(player2.report)
