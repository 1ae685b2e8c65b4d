"""docs/reports.md: ``pbem report open`` through the CLI: the summary tells orders given by
default (issue 14 item 1), and ``--html`` writes one self-contained page (item 11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import new_game, run, without_home_marks
from e2e_support import report_of as report_in


@pytest.fixture
def game(tmp_path: Path) -> Path:
    new_game(tmp_path)
    return tmp_path


def test_reports_a_side_whose_order_was_given_by_default_is_told_so_first(game: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.core import game as core_game

    k = game / "keys"
    rep = report_in(game / "g", "england")
    run("orders", "auto", rep, "--key", k / "england.key", "--out", game / "e.toml")
    run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", game / "g", "--out", game / "e.asc")
    deadline = core_game.status(game / "g")["deadline"]
    monkeypatch.setattr("time.time", lambda: float(deadline))  # the deadline has come (protocol §8.3)
    run("adjudicate", game / "g", game / "e.asc", "--key", k / "referee.key", "--deadline-passed")
    sco = run("report", "open", report_in(game / "g", "scotland"), "--key", k / "scotland.key", "--svg", game / "s.svg")
    eng = run("report", "open", report_in(game / "g", "england"), "--key", k / "england.key", "--svg", game / "e.svg")
    told = ("Your card orders for step 0 did not arrive before the deadline, so the referee gave the default "
            "ones: your lowest card was played")
    assert told in sco.split("since your last report:")[1].split("-----")[0]
    assert "did not arrive" not in eng


def test_reports_html_writes_one_self_contained_page(game: Path) -> None:
    """Item 11: map (inline SVG), summary, board, hand, what is owed and the options; no script,
    nothing fetched from the network; no enemy block named."""
    import re
    import xml.etree.ElementTree as ET

    k = game / "keys"
    page = game / "s.html"
    out = run("report", "open", report_in(game / "g", "scotland"), "--key", k / "scotland.key",
              "--svg", game / "s.svg", "--html", page)
    assert f"page written to {page}" in out
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html.lower() and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html and "src=" not in html and "<link" not in html and "@import" not in html
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg and svg.group(0) == (game / "s.svg").read_text(encoding="utf-8").rstrip("\n")
    ET.fromstring(svg.group(0))
    for part in ("Since your last report", "The board", "Your hand and the cards", "You owe: card",
                 "cards you may play", "Wallace", "your hand (", "What happened"):
        assert part in html, part
    for english in ("Northumber Infantry", "Cumbria Infantry", "Lancaster Knights", "Comyn"):
        assert english not in without_home_marks(html)
