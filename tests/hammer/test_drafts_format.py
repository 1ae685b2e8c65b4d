"""Order drafts (docs/playing.md, schemas/draft.schema.json): parse, dump, template, check."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from pbem.hammer.play import drafts
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "draft.schema.json").read_text())

CARD = """game = "g1"
side = "england"
step = 0
kind = "card"

[card]
play = "move2-1"

[if_player1]
moves = [{ from = "Lothian", to = "Fife", blocks = ["Cumbria Infantry"] }]
battle_order = ["Fife"]
"""



def _real_report(asks: str = "card", cards: dict[str, str] | None = None) -> dict:
    """England's report at the start of a Braveheart game (hand move2-1, move2-3, move2-8, move3-1,
    move3-3; Cumbria Infantry in Lothian), owing ``asks``; ``cards`` as if played this turn."""
    from pbem.core.drbg import Drbg
    from pbem.hammer.ruleset import HammerRuleset

    rules = HammerRuleset()
    rep = rules.report(rules.setup("braveheart", {}, Drbg(b"x" * 32)), "england", [], "g1", 0)
    if asks != "card":
        rep = {**rep, "asks": asks, "owes": {"england": asks}}
    if cards:
        rep["view"] = {**rep["view"], "cards": cards, "player1": "england"}
    return rep


# The checks run on the report's view (the referee's validation, docs/orders.md "Checking a
# draft"); the options here only feed the templates.
REPORT = {**_real_report(), "options": {"hand": ["move2-1", "move3-1"],
                                        "moves": {"Lothian": {"Cumbria Infantry": ["Fife", "Lanark"]}}}}


def test_draft_card_order_round_trips_and_matches_the_schema() -> None:
    d = drafts.parse_draft(CARD)
    assert d.sections["card"] == {"play": "move2-1"}
    again = drafts.parse_draft(drafts.dump_draft(d))
    assert again == d
    jsonschema.validate(d.body(), SCHEMA)
    jsonschema.validate(tomllib.loads(CARD), SCHEMA)


@pytest.mark.parametrize("text, message", [
    ("side = 'england'\nstep = 0\n", "lacks 'kind'"),
    ("side = 'wales'\nstep = 0\nkind = 'card'\n[card]\nplay='x'\n", "side 'wales'"),
    ("side = 'england'\nstep = -1\nkind = 'card'\n", "not a step number"),
    ("side = 'england'\nstep = 0\nkind = 'dance'\n", "kind 'dance'"),
    ("side = 'england'\nstep = 0\nkind = 'card'\n", "needs play"),
    ("side = 'england'\nstep = 0\nkind = 'winter'\n[card]\nplay='x'\n", r"cannot carry \[card\]"),
    ("side = 'england'\nstep = 0\nkind = 'decide'\n[decide]\n", "needs answer"),
    ("side = 'england'\nstep = = 0\n", "not valid TOML"),
])
def test_draft_malformed_is_refused_with_one_sentence(text: str, message: str) -> None:
    with pytest.raises(InvalidOrder, match=message):
        drafts.parse_draft(text, "x.toml")


def test_draft_schema_refuses_what_the_parser_refuses() -> None:
    bad = {"side": "england", "step": 0, "kind": "winter", "card": {"play": "x"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_5_1_the_draft_schema_refuses_a_battle_order_naming_an_area_twice() -> None:
    card = tomllib.loads(CARD)
    jsonschema.validate(card, SCHEMA)
    card["if_player1"]["battle_order"] = ["Fife", "Fife"]
    with pytest.raises(jsonschema.ValidationError, match="non-unique"):
        jsonschema.validate(card, SCHEMA)


def test_draft_template_is_a_valid_draft_for_what_the_report_asks() -> None:
    text = drafts.template(REPORT)
    d = drafts.parse_draft(text)
    assert (d.side, d.step, d.kind) == ("england", 0, "card")
    assert "move3-1" in text  # the hand is listed
    drafts.check_draft(d, REPORT)


def test_3_1_check_refuses_a_card_not_in_hand() -> None:
    d = drafts.parse_draft(CARD.replace("move2-1", "move1-7"))
    with pytest.raises(IllegalOrder, match="3.1"):
        drafts.check_draft(d, REPORT)


def test_2_13_check_refuses_a_move_out_of_reach() -> None:
    d = drafts.parse_draft(CARD.replace('to = "Fife"', 'to = "Ross"'))
    with pytest.raises(IllegalOrder, match=r"Cumbria Infantry Lothian→Ross: out of reach \(2\.13\)"):
        drafts.check_draft(d, REPORT)


def test_4_2_check_refuses_blocks_given_as_a_string_not_a_list() -> None:
    """A move's blocks are a list; a bare string is refused as such, not read letter by letter."""
    d = drafts.parse_draft(CARD.replace('blocks = ["Cumbria Infantry"]', 'blocks = "Cumbria Infantry"'))
    with pytest.raises(InvalidOrder, match="blocks: give a non-empty list of block names"):
        drafts.check_draft(d, REPORT)


def test_8_0_the_schiltroms_option_is_true_or_false_never_a_guess() -> None:
    from pbem.hammer.ruleset import parse_options
    assert parse_options({"schiltroms": "true"}).schiltroms and not parse_options({"schiltroms": "off"}).schiltroms
    with pytest.raises(InvalidOrder, match="schiltroms='ture': say true or false"):
        parse_options({"schiltroms": "ture"})


def test_draft_check_refuses_the_wrong_step_or_side() -> None:
    d = drafts.parse_draft(CARD.replace("step = 0", "step = 3"))
    with pytest.raises(InvalidOrder, match="step 0"):
        drafts.check_draft(d, REPORT)
    with pytest.raises(InvalidOrder, match="scotland"):
        drafts.check_draft(drafts.parse_draft(CARD), {**REPORT, "side": "scotland"})


@pytest.mark.parametrize("asks, options, needles", [
    ("card", REPORT["options"], ["[if_player1]", "Cumbria Infantry in Lothian can reach: Fife, Lanark", "[plans]"]),
    ("moves", {"card": "move2-1", "moves": {"Fife": {"Wallace": ["Angus"]}}},
     ["your card: move2-1", "Wallace in Fife can reach: Angus", "pins = {", "(4.6)"]),
    ("decide", {"question": {"side": "england", "kind": "hit", "options": ["Edward", "Hobelars"],
                             "context": {"area": "Fife"}, "rule": "5.41"}},
     ['answer = "Edward"', "options: Edward, Hobelars", "area=Fife"]),
    ("event", {"event": "herald", "event_params": [{"noble": "Mar"}, {"pass": True}]}, ['noble = "Mar"', "[event]"]),
    ("winter", {}, ["[winter]", "builds = {", "ask = "]),
])
def test_draft_template_lists_the_legal_options_of_every_kind(asks: str, options: dict, needles: list) -> None:
    rep = {**_real_report(asks, {"england": "herald"} if asks == "event" else None), "options": options}
    text = drafts.template(rep)
    for needle in needles:
        assert needle in text, (needle, text)
    d = drafts.parse_draft(text)
    assert d.kind == asks
    jsonschema.validate(tomllib.loads(text), SCHEMA)
    drafts.check_draft(d, rep)


def test_draft_the_moves_draft_in_docs_orders_md_parses_as_written() -> None:
    import re

    from pbem.hammer.rules.orders import parse_moves
    text = (ROOT / "docs" / "orders.md").read_text()
    block = next(b for b in re.findall(r"```toml\n(.*?)```", text, re.S) if 'kind = "moves"' in b)
    d = drafts.parse_draft('game = "g"\nside = "scotland"\nstep = 3\n' + block)
    order = parse_moves(d.sections["moves"])
    assert order.pins == {"Fife": ("Wallace",)} and len(order.moves) == 1


def test_draft_check_refuses_malformed_battle_and_winter_plans_naming_the_field() -> None:
    d = drafts.parse_draft(CARD + '\n[plans]\nhits = ["Wallace"]\n')
    with pytest.raises(InvalidOrder, match=r"^plans\.hits: 'Wallace' is not a england block"):
        drafts.check_draft(d, REPORT)
    winter = {**_real_report("winter"), "options": {}}
    d = drafts.Draft(
        side="england", step=0, kind="winter", game="g1", sections={"winter": {"builds": {"Fife": ["draw"]}}}
    )
    with pytest.raises(IllegalOrder, match=r"7\.63"):
        drafts.check_draft(d, winter)
    drafts.check_draft(drafts.Draft(side="england", step=0, kind="winter", game="g1", sections={"winter": {}}), winter)


@pytest.mark.parametrize("text, message", [
    ("side = 'england'\nstep = 'six'\nkind = 'card'\n",
     "x.toml: step 'six' is not a step number, the whole number of the step your report asks about (protocol §7.3)"),
    ("side = 'wales'\nstep = 0\nkind = 'card'\n",
     "x.toml: side 'wales' is not one of england, scotland (protocol §7.3)"),
    ("side = 'england'\nstep = 0\nkind = 'dance'\n",
     "x.toml: kind 'dance' is not one of card, event, moves, decide, winter (protocol §7.3)"),
])
def test_protocol_7_3_a_draft_header_fault_cites_the_section_that_defines_the_header(text: str, message: str) -> None:
    with pytest.raises(InvalidOrder) as refused:
        drafts.parse_draft(text, "x.toml")
    assert str(refused.value) == message
