"""Draw the README's map picture: a bot game of Braveheart played to a battle in its second
year, the map of Scotland's report written as SVG and converted to PNG with cairosvg.

    .venv/bin/pip install -q -e '.[test]'     # cairosvg comes with the test extra
    .venv/bin/python docs/map-picture.py      # writes docs/map-example.svg and docs/map-example.png
"""

from __future__ import annotations

from pathlib import Path

import cairosvg

from pbem.cli.report import svg_of
from pbem.core.drbg import Drbg
from pbem.hammer.play import bots
from pbem.hammer.ruleset import HammerRuleset

HERE = Path(__file__).resolve().parent


def report() -> dict:
    """Scotland's report at the first question asked mid-battle after 1297 (same game every run)."""
    rules = HammerRuleset()
    state = rules.setup("braveheart", {}, Drbg(bytes([9]) * 32))
    steps = 0
    while rules.owes(state):
        orders = {side: bots.auto_draft(rules.report(state, side, [], "g", state["step"]),
                                        ("random", "simple")[side == "scotland"], bytes([steps % 256])).body()
                  for side in rules.owes(state)}
        out = rules.adjudicate(state, orders, Drbg(bytes([steps % 256, 7]) * 16))
        state, steps = out.state, steps + 1
        rep = out.reports["scotland"]
        if rep["view"]["year"] > 1297 and rep["view"]["battles"] and rep["view"]["phase"] == "battle":
            return rep
    raise SystemExit("the game ended before the picture's moment")


def main() -> None:
    svg = svg_of(report())
    (HERE / "map-example.svg").write_text(svg, encoding="utf-8")
    cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(HERE / "map-example.png"))
    print(f"wrote {HERE / 'map-example.svg'} and {HERE / 'map-example.png'}")


if __name__ == "__main__":
    main()
