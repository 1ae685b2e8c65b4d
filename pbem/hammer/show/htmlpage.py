"""One side's report as a single self-contained HTML page (``pbem report open --html``).

Built from the report's view only, like the text and the map: the map inline as SVG, what
happened in sentences, the board, the hand, what is owed with its legal options, and the
battle log die by die, and the odds of each battle still to fight (as the text report). The
map takes the page's whole width (its viewBox scales it with the window). No scripts, no styles
or images from the network: the page reads the same offline in any browser, and the redaction tests cover its bytes.
"""

from __future__ import annotations

from html import escape
from typing import Any

from pbem.hammer.rules.board import board
from pbem.hammer.show import render
from pbem.hammer.show.svg import render_svg

STYLE = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; background: #f7f3e8; color: #1d1d1d; margin: 1.5em; }
h1 { font-size: 1.4em; margin: 0 0 .2em 0; } h2 { font-size: 1.1em; margin: 1.2em 0 .4em 0; }
.sub { color: #555; margin-bottom: 1em; }
.cols { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.map { flex: 1 1 100%; min-width: 0; } .cols > div:not(.map) { flex: 1 1 24em; }
.map svg { display: block; width: 100%; height: auto; border: 1px solid #999; }
table { border-collapse: collapse; font-size: .9em; } \
td, th { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }
.england { color: #a82a20; } .scotland { color: #1f4e96; } \
.owe { background: #fff3c4; padding: .6em 1em; border: 1px solid #d8b84a; }
ul { margin: .2em 0; } li { margin: .15em 0; } .log li { font-family: "DejaVu Sans Mono", monospace; font-size: .85em; }
"""


def _list(items: list[str], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<ul{attr}>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


def _board(v: dict[str, Any]) -> str:
    side, enemy = v["side"], v["enemy"]
    own: dict[str, list[str]] = {}
    for b in v["blocks"]:
        own.setdefault(b["area"], []).append(f"{b['block']} {b['strength']}/{b['steps']}")
    rows = [f"<tr><th>area</th><th>your castle limit</th><th>home of (1.4)</th><th>control</th>"
            f"<th>{escape(enemy)} blocks</th><th>your blocks ({escape(side)})</th></tr>"]
    for name in board().area_names():
        area = board().area(name)
        control = v["control"].get(name, "")
        limit = f"{area.castle_limit(side)}{' (cathedral)' if area.cathedral else ''}"
        count = v["enemy_blocks"].get(name, 0)
        homes = escape(", ".join(area.homes))
        rows.append(f'<tr><td>{escape(name)}</td><td>{escape(limit)}</td><td class="home">{homes}</td>'
                    f'<td class="{escape(control)}">'
                    f"{escape(control)}</td><td>{count or ''}</td><td>{escape(', '.join(own.get(name, [])))}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def render_html(rep: dict[str, Any], title: str = "", footer: str = "") -> str:
    """The report (a ruleset report: view, log, asks, options) as one HTML page."""
    v = render.with_odds(render.report_view(rep))
    side = v["side"]
    lists = render._lists(v)            # pools, dead, nobles, hand, cards: the text report's lines
    cards = [line for line in lists if " hand" in line or line.startswith(("cards this turn", "played this year"))]
    rest = [line for line in lists if line not in cards]
    asks = [line.strip() for line in render._asks(v)]
    battles = [line.strip() for line in render._battles(v)]
    log = [line for line in (render.log_line(e, side) for e in v.get("log", [])) if line]
    summary = [line.strip() for line in render.since_last(v)[1:]]
    head = render._header(v)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title or head[0])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f'<h1 class="{escape(side)}">{escape(title or head[0])}</h1>',
        f'<div class="sub">{"<br>".join(escape(h) for h in head[(0 if title else 1):])}</div>',
        '<div class="owe">' + (f"<strong>You owe: {escape(asks[0][len('you owe: '):])}</strong>"
                               + _list(asks[1:]) if asks else "<strong>You owe nothing now.</strong>")
        + (f"<p>{escape(footer)}</p>" if footer else "") + "</div>",
        "<h2>Since your last report</h2>", _list(summary),
        '<div class="cols">',
        f'<div class="map">{render_svg(v)}</div>',
        "<div><h2>Your hand and the cards</h2>" + _list(cards) + "<h2>Pools, the dead, nobles</h2>"
        + _list(rest) + ("<h2>Battles</h2>" + _list(battles[1:] if battles[:1] == ["battles to fight:"]
                                                           else battles) if battles else "") + "</div>",
        "</div>",
        "<h2>The board</h2>", _board(v),
        "<h2>What happened, in full (every die with its index in the random stream)</h2>",
        _list(log or ["nothing you could see"], "log"),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


__all__ = ["render_html"]
