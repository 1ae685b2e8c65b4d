"""Many random legal games through the engine, timed; and the scripted example game's writer.

    python bench/full_games.py --games 200                 # per scenario, invariants checked
    python bench/full_games.py --games 50 --until 1500     # Campaigns stop unfinished after 1500
    python bench/full_games.py --write-example             # (re)write examples/braveheart-engine-game.toml

A Campaign (8.3) has no last year: it is counted after the winter of 1314 and of every later
year while the count is tied, so each is played until a winner or until ``--until`` (an
unfinished game is counted, not an error).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from benchpath import ROOT, TINY  # (the checkout and tests/ on sys.path)

sys.path.insert(0, str(ROOT / "tests" / "hammer"))  # test_full_games: the invariants
from pbem.hammer.play.bots import random_game  # noqa: E402
from pbem.hammer.rules.state import Options  # noqa: E402

EXAMPLE = ROOT / "examples" / "braveheart-engine-game.toml"
EXAMPLE_SEED = 1297
CAMPAIGN_UNTIL = 1400


def run(games: int, check: bool, until: int = CAMPAIGN_UNTIL) -> int:
    from test_full_games import check_invariants
    failures = 0
    for sid in ("braveheart", "the_bruce", "campaign"):
        start = time.perf_counter()
        results: Counter[str] = Counter()
        years: list[int] = []
        for seed in range(games):
            try:
                state = random_game(sid, seed, Options(schiltroms=seed % 2 == 1),
                                    after_step=check_invariants if check else None,
                                    until_year=until if sid == "campaign" else 0)
            except Exception as exc:  # noqa: BLE001 - a bench reports every failure and goes on
                failures += 1
                print(f"{sid} seed {seed}: {type(exc).__name__}: {exc}")
                continue
            results[state.winner or "unfinished"] += 1
            years.append(state.year)
        took = time.perf_counter() - start
        mean = sum(years) / len(years) if years else 0
        print(f"{sid}: {games} games in {took:.1f}s ({took / games * 1000:.0f} ms/game), "
              f"wins {dict(sorted(results.items()))}, mean last year {mean:.1f}")
    return failures


def write_example() -> None:
    import tomli_w
    record: list[dict] = []
    state = random_game("braveheart", EXAMPLE_SEED, Options(), record=record)
    data = {"scenario": "braveheart", "seed": EXAMPLE_SEED, "options": {"schiltroms": False, "bid": ""},
            "winner": state.winner, "win_reason": state.win_reason, "final_year": state.year,
            "final_hash": state.hash(), "step": record}  # steps go before [options]
    head = ("# A whole Braveheart game played through the engine alone (pbem.hammer.rules.engine.play_game).\n"
            "# The set-up and every step's dice come from bots.game_stream(\"braveheart|1297\", k); each\n"
            "# line of `step` is one answer a side gave, in order. tests/hammer/test_full_games.py replays it and\n"
            "# checks the final state hash. Rewrite with: python bench/full_games.py --write-example\n")
    steps = data.pop("step")
    body = tomli_w.dumps(data)
    body = body.replace("[options]", "step = [\n" + "".join(f"    {_inline(x)},\n" for x in steps) + "]\n\n[options]")
    EXAMPLE.write_text(head + body, encoding="utf-8")
    print(f"wrote {EXAMPLE.relative_to(ROOT)}: {len(record)} steps, {state.winner} wins in {state.year}")


def _inline(value: object) -> str:
    """One TOML value on one line (inline tables), so each recorded answer is one line."""
    import json
    if isinstance(value, dict):
        items = ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))


def _key(key: str) -> str:
    import json
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else json.dumps(key)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per scenario")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    parser.add_argument("--until", type=int, default=CAMPAIGN_UNTIL, help="last year a Campaign is played")
    parser.add_argument("--write-example", action="store_true")
    parser.add_argument("--tiny", action="store_true", help=TINY + " (one game per scenario, Campaigns to 1310)")
    args = parser.parse_args()
    if args.tiny:
        args.games, args.until = 1, 1310
    if args.write_example:
        write_example()
        return 0
    return 1 if run(args.games, not args.no_check, args.until) else 0


if __name__ == "__main__":
    raise SystemExit(main())
