"""``pbem demo --no-referee`` against ``pbem demo``: CPU seconds per game turn (docs/round-trips.md).

    python bench/peer_demo.py              # three games of each, Braveheart; the median of each
    python bench/peer_demo.py --runs 5     # five of each
    python bench/peer_demo.py --bagpipes   # also Swords and Bagpipes' peer demo, four players
    python bench/peer_demo.py --tiny       # one game of each (the least)

Both demos play a whole game (its years until a winner, each its own length), so the two are compared
per game turn (docs/hammer-peer.md). Each demo's games differ from run to run (fresh keys, so other dice
and deals), hence the median.
Goal: the peer demo at most 2x the refereed one.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from benchpath import TINY  # (the checkout and tests/ on sys.path)

GOAL_RATIO = 2.0


def per_turn(lines: list[str], seconds: float) -> tuple[float, int]:
    text = "\n".join(lines)
    found = re.search(r"; game turns: (\d+)", text) or re.search(r"in (\d+) (?:game turns|rounds)", text)
    turns = int(found.group(1)) if found else 0
    return seconds / max(turns, 1), turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", action="store_true", help=TINY)
    ap.add_argument("--runs", type=int, default=3, help="games of each demo (the median is printed)")
    ap.add_argument("--bagpipes", action="store_true", help="also time Swords and Bagpipes' peer demo, 4 players")
    args = ap.parse_args()
    runs = 1 if args.tiny else max(1, args.runs)
    from pbem.bagpipes.peerdemo import demo as bagpipes_demo
    from pbem.core.peer import demo as peer_demo
    from pbem.hammer.play.player import HammerPlayer

    refereed: list[tuple[float, int]] = []
    peer: list[tuple[float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(runs):
            t = time.process_time()
            r = HammerPlayer().demo(Path(tmp) / f"r{n}", "braveheart", 0, ("simple", "simple"), b"bench")
            refereed.append(per_turn(r.lines, time.process_time() - t))
            t = time.process_time()
            p = peer_demo.play(Path(tmp) / f"p{n}", "hammer", "braveheart", {})
            peer.append(per_turn(p.lines, time.process_time() - t))
        r_turn = statistics.median(s for s, _ in refereed)
        p_turn = statistics.median(s for s, _ in peer)
        ratio = p_turn / r_turn
        print(f"pbem demo: {r_turn:.2f} s per game turn (median of {runs}; game turns "
              f"{', '.join(str(n) for _, n in refereed)})")
        print(f"pbem demo --no-referee: {p_turn:.2f} s per game turn (median of {runs}; game turns "
              f"{', '.join(str(n) for _, n in peer)})")
        print(f"ratio {ratio:.1f}x (goal at most {GOAL_RATIO:g}x): {'met' if ratio <= GOAL_RATIO else 'NOT met'}")
        if args.bagpipes and not args.tiny:
            t = time.process_time()
            b = bagpipes_demo(Path(tmp) / "b", 4, b"bench")
            seconds = time.process_time() - t
            b_round, rounds = per_turn(b.lines, seconds)
            print(f"pbem demo --no-referee --ruleset bagpipes --players 4: {seconds:.1f} s, {b_round:.2f} s per "
                  f"round ({rounds} rounds)")


if __name__ == "__main__":
    main()
