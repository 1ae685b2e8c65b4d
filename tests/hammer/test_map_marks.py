"""docs/reports.md "The map": arrows for the last step's moves, retreats and regroups (only what
the report's own lines tell the side), noble home areas (1.4), the Anglo-Scottish border (4.4),
the ids the interactive board relies on, and the HTML page's odds and width."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from test_map_stacks import whole_games
from test_render_golden import ASKS, position

from pbem.cli.report import svg_of
from pbem.hammer.rules.board import board
from pbem.hammer.show.htmlpage import render_html
from pbem.hammer.show.render import render_report
from pbem.hammer.show.svg import render_svg
from pbem.hammer.show.views import view

SVG = "{http://www.w3.org/2000/svg}"


def arrows(svg: str) -> list[tuple[str, str, str, str]]:
    """Each arrow: its kind, from, to and hover text."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        cls = (g.get("class") or "").split()
        if cls[:1] == ["arrow"]:
            title = g.find(f"{SVG}title")
            text = title.text or "" if title is not None else ""
            out.append((cls[1], g.get("data-from", ""), g.get("data-to", ""), text))
    return out


def test_reports_arrows_show_the_last_moves_and_own_retreats_but_not_a_hidden_retreat() -> None:
    """The English see their move Lothian -> Fife but not where Douglas retreated (hidden from
    them); the Scots see the English move and their own retreat Fife -> Lennox."""
    s, log = position()
    english = arrows(render_svg(view(s, "england", log)))
    scots = arrows(render_svg(view(s, "scotland", log, ASKS)))
    assert [(k, a, b) for k, a, b, _ in english] == [("moves", "Lothian", "Fife")]
    assert sorted((k, a, b) for k, a, b, _ in scots) == [("moves", "Lothian", "Fife"), ("retreat", "Fife", "Lennox")]


def test_reports_arrows_show_only_what_the_reports_own_lines_show() -> None:
    """Non-interference: every arrow of every report of whole games carries, as its hover text, a
    line of that very text report naming its destination (a battle's lines name the battle's area
    on the line above them)."""
    seen = 0
    for rep in whole_games()[::3]:
        text = render_report(rep)
        for kind, a, b, title in arrows(svg_of(rep)):
            assert title and title in text, f"an arrow tells what the report does not: {title!r}"
            assert b in title and a in text, (kind, a, b, title)
            assert "hidden" not in title
            seen += 1
    assert seen > 20


def test_1_4_every_noble_home_is_marked_with_the_noble() -> None:
    s, log = position()
    root = ET.fromstring(render_svg(view(s, "england", log)))
    marks = sorted((g.get("data-noble", ""), label.get("id", "")[len("label-"):])
                   for label in root.iter(f"{SVG}g") if (label.get("id") or "").startswith("label-")
                   for g in label.iter(f"{SVG}g") if g.get("class") == "noble-home")
    want = sorted((n, a) for a in board().area_names() for n in board().area(a).homes)
    assert marks == want and len(want) >= 15
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Comyn", "Bruce", "Steward"} <= texts    # named where the area has another name


def test_4_4_the_anglo_scottish_border_is_drawn_along_england() -> None:
    s, log = position()
    lines = [el for el in ET.fromstring(render_svg(view(s, "england", log))).iter(f"{SVG}line")
             if el.get("class") == "anglo-scottish"]
    assert len(lines) >= 3


def test_reports_every_area_shape_and_own_block_names_itself_for_the_board() -> None:
    s, log = position()
    root = ET.fromstring(render_svg(view(s, "scotland", log, ASKS)))
    areas = {p.get("data-area") for p in root.iter(f"{SVG}path") if p.get("class") == "area"}
    assert areas == set(board().area_names())
    own = [g.get("data-block", "") for g in root.iter(f"{SVG}g") if g.get("data-block")]
    own += [b for g in root.iter(f"{SVG}g") if g.get("data-blocks") for b in g.get("data-blocks", "").split(",")]
    assert sorted(own) == ["Barclay", "Douglas", "Wallace"]    # a count badge lists its blocks in data-blocks
    assert root.find(f".//{SVG}g[@id='blocks-Fife']") is not None


@pytest.mark.slow
def test_reports_the_html_page_carries_the_odds_the_text_shows() -> None:
    """A report with a battle to fight: its odds line is in the text and in the page."""
    for rep in whole_games():
        text = render_report(rep)
        odds = [line.strip() for line in text.splitlines() if re.search(r"\d+%", line) and "win" in line]
        if odds:
            break
    else:
        pytest.fail("no report of the games has odds")
    page = render_html(rep, "t", "")
    for line in odds:
        assert line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in page


def test_reports_the_html_map_scales_with_the_window() -> None:
    s, log = position()
    rep = {"view": view(s, "england", log), "log": None}
    page = render_html(rep, "t", "")
    assert re.search(r"\.map svg \{[^}]*width: 100%", page)
    assert 'viewBox="0 0 ' in page
    assert "720" not in page.split("<svg", 1)[0]
