"""Step 16 item 4: a draft's template shows every section a player may write, Main Attack
included (5.32); every shape error shows the syntax expected; reach lists mark the moves that
cross the Anglo-Scottish border (4.4)."""

from __future__ import annotations

import re
import tomllib

import pytest
from test_draft_templates_golden import card_report

from pbem.core.errors import PbemError
from pbem.hammer.play import drafts
from pbem.hammer.play.player import HammerPlayer
from pbem.hammer.rules.board import BORDER_COST, crosses_border
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.show.render import render_report


def test_5_32_the_move_template_shows_main_attack_and_its_line_is_toml() -> None:
    text = drafts.template(card_report())
    line = next(line for line in text.splitlines() if line.startswith("# main_attack = "))
    assert tomllib.loads(line[2:]) == {"main_attack": {"AREA": {"from": "AREA", "via": "AREA"}}}
    assert "(5.32)" in text


@pytest.mark.parametrize(("section", "shows"), [
    ({"moves": {}}, 'moves = [ { from = "AREA"'),
    ({"moves": [{"to": "Fife", "blocks": ["Wallace"]}]}, "{ from = \"AREA\", to = \"AREA\""),
    ({"moves": ["Fife"]}, "{ from = \"AREA\", to = \"AREA\""),
    ({"moves": [{"from": "Fife", "go": "Angus"}]}, "parts = [ { blocks"),
    ({"main_attack": []}, 'main_attack = { AREA = { from = "AREA", via = "AREA" } }'),
    ({"main_attack": {"Fife": {"from": "Angus"}}}, 'main_attack = { AREA = { from = "AREA", via = "AREA" } }'),
    ({"pins": []}, 'pins = { AREA = ["BLOCK"] }'),
    ({"attack": {}}, 'moves = [ { from = "AREA"'),
])
def test_orders_md_every_shape_error_of_a_move_order_shows_the_syntax(section: dict[str, object], shows: str) -> None:
    with pytest.raises(InvalidOrder) as err:
        parse_moves(section, "moves")
    assert shows in str(err.value)


def test_4_4_reach_lists_mark_the_moves_across_the_border_with_its_cost() -> None:
    """England's first card step: its blocks in England can reach Scottish areas, each such
    destination marked "(4.4 border)", once explained, in the draft and in the report."""
    rep = card_report()
    legal = rep["options"]["moves"]
    crossing = [(o, a) for o, reach in legal.items() for areas in reach.values() for a in areas if crosses_border(o, a)]
    assert crossing
    text = drafts.template(rep)
    for line in text.splitlines():
        m = re.match(r"#   .* in (\w+) can reach: (.*)$", line)
        if m:
            for dest in m.group(2).split(", "):
                name = dest.removesuffix(" (4.4 border)")
                assert (dest != name) == crosses_border(m.group(1), name), line
    assert text.count(BORDER_COST) == 1
    assert "(4.4 border)" in render_report(rep) and BORDER_COST in render_report(rep)


def _english_card(if_player1: dict[str, object]) -> tuple[drafts.Draft, dict[str, object]]:
    rep = card_report()
    body = {"game": "g", "side": "england", "step": 0, "kind": "card", "card": {"play": "move3-1"},
            "if_player1": if_player1}
    return drafts.from_body(body), rep


def test_orders_md_check_lists_every_error_of_a_draft_each_with_its_rule() -> None:
    """Three faults in one draft: a move out of reach, a block moved from where it is not, a Main
    Attack where no attack is made; one run of the check names all three, the first as the
    referee words it."""
    bad = {"moves": [{"from": "England", "to": "Ross", "blocks": ["Durham Infantry"]},
                     {"from": "Fife", "to": "Angus", "blocks": ["Hobelars"]}],
           "main_attack": {"Buchan": {"from": "Angus", "via": "Angus"}}}
    draft, rep = _english_card(bad)
    with pytest.raises(PbemError) as referee:
        drafts.check_draft(draft, rep)
    with pytest.raises(PbemError) as check:
        HammerPlayer().check_draft(draft, rep)
    lines = str(check.value).splitlines()
    assert lines[0] == str(referee.value)
    assert lines[1] == "and 2 more errors in this draft:"
    assert any("Hobelars" in line and "(4.2)" in line for line in lines[2:]), lines
    assert any("main_attack Buchan" in line and "(5.32)" in line for line in lines[2:]), lines
    assert "Ross" in lines[0] and "(2.13)" in lines[0]


def test_orders_md_a_draft_with_one_error_is_refused_with_that_error_alone() -> None:
    draft, rep = _english_card({"moves": [{"from": "Fife", "to": "Angus", "blocks": ["Hobelars"]}]})
    with pytest.raises(PbemError) as check:
        HammerPlayer().check_draft(draft, rep)
    assert "\n" not in str(check.value) and "Hobelars" in str(check.value)
