"""Issue 15 item 3: each order kind (card, event, moves, decide, winter) is one object with its parse,
validate, options, default, template and bot (pbem/hammer/order_kinds); the ruleset, drafts and bots
ask the registry. Checked here on real positions of bot games of all three scenarios: each kind's
default order, template and bot drafts are accepted by the referee and by the player's check."""

from __future__ import annotations

import collections
import inspect
import re
from typing import Any

import pytest
from check_corpus import SCENARIOS, Position, positions

from pbem.core.canonical import canonical_bytes
from pbem.hammer import bots, drafts, known, ruleset
from pbem.hammer.errors import DataError, InvalidOrder
from pbem.hammer.order_kinds import ORDER_KINDS, Ask, rules_for
from pbem.hammer.ruleset import HammerRuleset, ask_of
from pbem.hammer.vocab import ORDER_KINDS as KIND_NAMES

R = HammerRuleset()
OPERATIONS = ("parse", "validate", "options", "default", "template", "bot")


def _positions() -> list[Position]:
    out: list[Position] = []
    for i, scenario in enumerate(SCENARIOS):
        out += positions(scenario, i, max_steps=60, every=1)
    return out


POSITIONS = _positions()


def _by_kind() -> collections.Counter[str]:
    return collections.Counter(p.asks for p in POSITIONS)


def test_the_positions_cover_every_order_kind() -> None:
    assert set(_by_kind()) == set(KIND_NAMES), _by_kind()


def test_every_order_kind_is_in_the_registry_and_offers_all_six_operations() -> None:
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


ORDER_NAMES = re.compile(r'[=!]=\s*"(card|event|moves|decide|winter)"|asks in \(')


def test_issue_15_drafts_bots_and_the_rulesets_orders_name_no_order_kind() -> None:
    """The if/elif chains over kinds are gone: these places ask the registry."""
    sources = {m.__name__: inspect.getsource(m) for m in (drafts, bots, known)}
    sources["ruleset orders"] = "".join(inspect.getsource(f) for f in (
        HammerRuleset.default_order, HammerRuleset.validate, HammerRuleset.options, ruleset._options, ask_of))
    for name, text in sources.items():
        assert not ORDER_NAMES.search(text), (name, ORDER_NAMES.search(text))


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
