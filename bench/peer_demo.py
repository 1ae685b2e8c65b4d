"""``pbem demo --no-referee`` against ``pbem demo``: CPU seconds per game turn (docs/round-trips.md).

    python bench/peer_demo.py            # one game of each, Braveheart
    python bench/peer_demo.py --tiny     # the same (one game is the least)

Both demos play a whole game (its years until a winner, each its own length), so the two are compared
per game turn (docs/hammer-peer.md).
Goal: the peer demo at most 2x the refereed one.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from benchpath import TINY  # (the checkout and tests/ on sys.path)

GOAL_RATIO = 2.0


def per_turn(lines: list[str], seconds: float) -> tuple[float, int]:
    text = "\n".join(lines)
    found = re.search(r"; game turns: (\d+)", text) or re.search(r"in (\d+) game turns", text)
    turns = int(found.group(1)) if found else 0
    return seconds / max(turns, 1), turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", action="store_true", help=TINY)
    ap.parse_args()
    from pbem.core.peer import demo as peer_demo
    from pbem.hammer.play.player import HammerPlayer

    with tempfile.TemporaryDirectory() as tmp:
        t = time.process_time()
        refereed = HammerPlayer().demo(Path(tmp) / "r", "braveheart", 0, ("simple", "simple"), b"bench")
        r_turn, r_turns = per_turn(refereed.lines, time.process_time() - t)
        t = time.process_time()
        peer = peer_demo.play(Path(tmp) / "p", "hammer", "braveheart", {})
        p_turn, p_turns = per_turn(peer.lines, time.process_time() - t)
    ratio = p_turn / r_turn
    print(f"pbem demo: {r_turn:.2f} s per game turn ({r_turns} game turns)")
    print(f"pbem demo --no-referee: {p_turn:.2f} s per game turn ({p_turns} game turns)")
    print(f"ratio {ratio:.1f}x (goal at most {GOAL_RATIO:g}x): {'met' if ratio <= GOAL_RATIO else 'NOT met'}")


if __name__ == "__main__":
    main()
