"""docs/reports.md: the text report and the SVG map of a view, pinned by golden files.

Regenerate after a deliberate format change with ``PBEM_REGOLD=1 pytest tests/hammer/test_render_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fakes import bare_state, battle_at, put

from pbem.hammer.rules.state import GameState
from pbem.hammer.show.render import log_line, render_report, render_text
from pbem.hammer.show.svg import render_svg
from pbem.hammer.show.views import view

GOLDEN = Path(__file__).parent / "golden"


def position() -> tuple[GameState, list[dict[str, Any]]]:
    """1297, turn 2: the English attacked Fife; a round of the battle has been fought."""
    s = bare_state(year=1297)
    s.turn, s.phase = 2, "battle"
    put(s, "scotland", "Fife", "Wallace", "Douglas")
    put(s, "scotland", "Lennox", "Barclay", strength=2)
    put(s, "england", "Fife", "Edward", "Hobelars")
    put(s, "england", "Lothian", "Northumber Infantry", "Durham Infantry", strength=3)
    put(s, "england", "England", "Cumbria Infantry")
    s.hands = {"england": ["move2-1", "move3-1", "herald"], "scotland": ["move1-1", "victuals", "move3-2"]}
    s.played = {"england": ["move1-2", "move2-3"], "scotland": ["move3-3", "move1-4"]}
    s.current.cards = {"england": "move2-3", "scotland": "move1-4"}
    s.current.player1 = "england"
    battle_at(s, "Fife", "england", main=["Edward"], attacker_reserves=["Hobelars"])
    log = [
        {"what": "cards", "public": True, "year": 1297, "turn": 2,
         "cards": {"england": "move2-3", "scotland": "move1-4"}, "player1": "england", "events": [],
         "year_ends": False},
        {"what": "moves", "side": "england", "from": "Lothian", "points": 1, "sea": False,
         "parts": [{"blocks": ["Hobelars"], "path": ["Lothian", "Fife"]}]},
        {"what": "moves", "side": "england", "public": True, "from": "Lothian", "to": {"Fife": 1}, "sea": False},
        {"what": "battle", "area": "Fife", "attacker": "england", "defender": "scotland", "public": True,
         "rule": "5.1"},
        {"what": "reveal", "area": "Fife", "round": 1, "side": "england",
         "blocks": [{"block": "Edward", "strength": 4}], "public": True, "rule": "5.1"},
        {"what": "fire", "area": "Fife", "round": 1, "block": "Wallace", "side": "scotland", "rating": "A3",
         "dice": [{"value": 2, "index": 0, "hit": True}, {"value": 6, "index": 1, "hit": False}], "hits": 1,
         "public": True, "rule": "5.4"},
        {"what": "hit", "area": "Fife", "round": 1, "by": "Wallace", "block": "Edward", "side": "england",
         "strength": 3, "tied": 1, "public": True},
        {"what": "retreat", "area": "Fife", "round": 1, "block": "Douglas", "side": "scotland", "to": "Lennox",
         "forced": False, "sea": False, "public": False, "redact": ["to"], "rule": "5.5"},
    ]
    return s, log


ASKS = {"kind": "decide", "question": {"side": "scotland", "kind": "battle_action", "rule": "5.31",
                                       "options": ["fire", "retreat:Lennox", "pass"],
                                       "context": {"area": "Fife", "round": 2, "block": "Wallace"}}}


def golden(name: str, text: str) -> None:
    """Compare with the golden file; a missing golden file fails (write it with PBEM_REGOLD=1)."""
    path = GOLDEN / name
    if os.environ.get("PBEM_REGOLD"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {name} is missing: write it with PBEM_REGOLD=1 and review it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


@pytest.mark.parametrize("side", ["england", "scotland"])
def test_reports_text_report_matches_its_golden_file(side: str) -> None:
    s, log = position()
    golden(f"report-{side}.txt", render_text(view(s, side, log, ASKS if side == "scotland" else None)))


@pytest.mark.parametrize("side", ["england", "scotland"])
def test_reports_svg_map_matches_its_golden_file_and_parses(side: str) -> None:
    s, log = position()
    picture = render_svg(view(s, side, log))
    ET.fromstring(picture)
    golden(f"map-{side}.svg", picture)


def test_5_5_the_english_read_where_the_scots_retreated_from_but_not_where_to() -> None:
    s, log = position()
    eng, sco = render_text(view(s, "england", log)), render_text(view(s, "scotland", log))
    assert "Douglas (scotland) retreats to Lennox" in sco
    assert "Douglas (the Scots) retreated from Fife; where to is hidden from you (5.5)" in eng
    assert "Lennox" not in eng.split("what happened")[1]


def test_4_0_the_enemy_reads_how_many_blocks_moved_where_not_which() -> None:
    s, log = position()
    sco = render_text(view(s, "scotland", log))
    assert "The English moved 1 block from Lothian: 1 to Fife (4.0)" in sco
    assert "Hobelars" not in sco
    eng = render_text(view(s, "england", log))
    assert "You moved from Lothian (1 move point): Hobelars via Lothian-Fife (4.0)" in eng
    assert "You moved 1 block " not in eng  # its own public line is said by its detailed one


def test_5_4_every_die_is_shown_with_its_stream_index() -> None:
    s, log = position()
    line = log_line(log[5])
    assert "2*[#0]" in line and "6[#1]" in line


def test_reports_render_report_takes_a_ruleset_report() -> None:
    s, log = position()
    rep = {"view": view(s, "scotland"), "log": log, "asks": "decide", "options": {"question": ASKS["question"]}}
    text = render_report(rep)
    assert "options: fire, retreat:Lennox, pass" in text
    assert "Douglas (scotland) retreats to Lennox" in text


def test_3_0_a_game_turn_begins_with_its_card_phase_so_the_header_names_the_turn_the_cards_open() -> None:
    """3.0, 3.1: a Game Turn is a Card, a Move and a Battle Phase, and "both players start a Game
    Turn by playing one card": while the cards are awaited the report (text header, map panel and
    title) names the turn they open, not the one before it."""
    from pbem.core.drbg import Drbg
    from pbem.hammer.ruleset import HammerRuleset

    rules = HammerRuleset()
    state = rules.setup("braveheart", {}, Drbg(b"k" * 32))
    seen: list[tuple[int, str, str, str, str]] = []  # turn, phase, then as the header, panel and title say
    for step in range(12):
        rep = rules.report(state, "scotland", [], "g", step)
        v = rep["view"]
        svg = render_svg(v)
        title = svg.split("<title>", 1)[1].split("</title>", 1)[0]
        seen.append((v["turn"], v["phase"], render_report(rep).splitlines()[0].split(", ", 1)[1], svg_panel(svg),
                     title))
        if v["turn"] == 2 and v["phase"] != "card":
            break
        orders = {side: rules.default_order(state, side) for side in rules.owes(state)}
        state = rules.adjudicate(state, orders, Drbg(bytes([step + 1]) * 32)).state
    cards = [x for x in seen if x[1] == "card"]
    assert cards[0] == (0, "card", "game turn 1, card phase", "1297, turn 1, card phase", "scotland view, 1297 turn 1")
    assert cards[1] == (1, "card", "game turn 2, card phase", "1297, turn 2, card phase", "scotland view, 1297 turn 2")
    later = [x for x in seen if x[1] != "card"]  # after the cards: the turn they opened
    assert {x[0] for x in later} == {1, 2} and len(cards) == 2
    for turn, phase, header, panel, title in later:
        assert (header, panel, title) == (f"game turn {turn}, {phase} phase", f"1297, turn {turn}, {phase} phase",
                                          f"scotland view, 1297 turn {turn}")


def svg_panel(svg: str) -> str:
    """The map panel's calendar line: "<year>, turn <n>, <phase> phase"."""
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    return next(t for t in texts if ", turn " in t and t.endswith(" phase"))


def test_reports_svg_shows_no_hidden_enemy_name() -> None:
    s, log = position()
    assert "Hobelars" not in render_svg(view(s, "scotland", log))
    assert "Northumber" not in render_svg(view(s, "scotland", log))
    assert "Barclay" not in render_svg(view(s, "england", log))
    assert "Barclay 2" in render_svg(view(s, "scotland", log))


def test_reports_a_missing_golden_file_fails_and_is_not_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_REGOLD", raising=False)
    with pytest.raises(AssertionError, match="missing"):
        golden("no-such-golden-file.txt", "text")
    assert not (GOLDEN / "no-such-golden-file.txt").exists()
