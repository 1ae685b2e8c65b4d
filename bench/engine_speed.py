"""CPU milliseconds per game-year of random legal games, engine and random player apart.

    python bench/engine_speed.py                  # 30 games per scenario
    python bench/engine_speed.py --games 100 --profile braveheart   # and a cProfile of that scenario

The games are ``pbem.hammer.play.bots.random_game`` (two ``RandomPlayer``s through
``pbem.hammer.rules.engine.play_game``), with no invariant checks. Time is CPU time
(``time.process_time``), so other work on the machine changes it little. The random player's
own time (choosing cards, drawing moves and trying them on a scratch copy) is counted apart
from the engine's; a game-year is a year begun (last year - first year + 1). The reference is the
JavaScript engine's CPU time per game-year for the same kind of random games on this kind of
machine (issue 17): the ratio printed is pbem's engine + player time over it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any

from benchpath import TINY  # (the checkout and tests/ on sys.path)

from pbem.hammer.play.bots import RandomPlayer, random_game
from pbem.hammer.rules.scenario import scenario
from pbem.hammer.rules.state import Options

REFERENCE_MS_PER_YEAR = {"braveheart": 2.6, "the_bruce": 2.4, "campaign": 2.1}
CAMPAIGN_UNTIL = 1400  # as bench/full_games.py: a Campaign still tied then stops unfinished


class TimedPlayer:
    """A player whose every answer's CPU time is added to ``spent[0]``."""

    def __init__(self, inner: Any, spent: list[float]) -> None:
        self.inner, self.spent = inner, spent

    def _timed(self, name: str, *args: Any) -> Any:
        start = time.process_time()
        try:
            return getattr(self.inner, name)(*args)
        finally:
            self.spent[0] += time.process_time() - start

    def choose_card(self, state: Any, side: str) -> str:
        return self._timed("choose_card", state, side)

    def event_params(self, state: Any, side: str) -> dict[str, Any]:
        return self._timed("event_params", state, side)

    def moves(self, state: Any, side: str) -> Any:
        return self._timed("moves", state, side)

    def battle_order(self, state: Any, side: str) -> list[str]:
        return self._timed("battle_order", state, side)

    def decide(self, question: Any) -> str:
        return self._timed("decide", question)


def measure(sid: str, games: int) -> tuple[float, float, int]:
    """(total CPU s, player CPU s, game-years) over ``games`` random games of ``sid``."""
    first = scenario(sid).first_year
    total = player = 0.0
    years = 0
    for seed in range(games):
        spent = [0.0]
        players = {"england": TimedPlayer(RandomPlayer(2 * seed), spent),
                   "scotland": TimedPlayer(RandomPlayer(2 * seed + 1), spent)}
        start = time.process_time()
        state = random_game(sid, seed, Options(schiltroms=seed % 2 == 1), players=players,
                            until_year=CAMPAIGN_UNTIL if sid == "campaign" else 0)
        total += time.process_time() - start
        player += spent[0]
        years += min(state.year, CAMPAIGN_UNTIL) - first + 1
    return total, player, years


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per scenario")
    parser.add_argument("--scenario", action="append", choices=sorted(REFERENCE_MS_PER_YEAR),
                        help="only this scenario (repeatable)")
    parser.add_argument("--profile", choices=sorted(REFERENCE_MS_PER_YEAR),
                        help="also print a cProfile of this scenario's games")
    parser.add_argument("--tiny", action="store_true", help=TINY + " (one Braveheart game)")
    args = parser.parse_args()
    if args.tiny:
        args.games, args.scenario = 1, ["braveheart"]
    print(f"{'scenario':<11} {'games':>5} {'years':>6} {'engine':>8} {'player':>8} {'total':>8} "
          f"{'JS ref':>7} {'ratio':>6}   (CPU ms per game-year)")
    for sid in args.scenario or list(REFERENCE_MS_PER_YEAR):
        measure(sid, 1)  # warm the caches (board, cards, scenarios)
        total, player, years = measure(sid, args.games)
        per = 1000 / years
        ref = REFERENCE_MS_PER_YEAR[sid]
        print(f"{sid:<11} {args.games:>5} {years:>6} {(total - player) * per:>8.2f} {player * per:>8.2f} "
              f"{total * per:>8.2f} {ref:>7.1f} {total * per / ref:>6.2f}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        measure(args.profile, args.games)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
