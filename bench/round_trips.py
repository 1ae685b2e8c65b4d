"""Peer mode (no referee): exchanges per round and the cryptography's CPU per side (docs/round-trips.md).

    python bench/round_trips.py            # a hidden-fact test game with a deal, and Hammer's deal sizes
    python bench/round_trips.py --tiny     # the smallest parameters (CI)

1. Exchanges: whole games of the tests' hidden duel (tests/support/hidden_duel.py: hidden blocks,
   battles that reveal them, own-pool draws, a deal of four cards) played in-process by two folders;
   an exchange is one wave of messages that must all be in before the next can be written (the
   commits, the reveals, each reveal question's open). Set-up and the end are counted apart.
2. CPU of the cryptography per side, at Hammer's sizes: the year's deal of the 25-card deck to two
   sides (each side's shuffle and lock pass, its keys, reading its five cards), a card play's check,
   and per round a commitment, a chain link and an Ed25519 signature; divided by the year's five
   game turns where it is once a year. Times are CPU seconds (process time), best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchpath import TINY  # (the checkout and tests/ on sys.path)

GOAL_EXCHANGES = 4.0
GOAL_MS = 50.0
HAMMER_DECK = 25
HAMMER_HAND = 5
TURNS_PER_YEAR = 5


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def exchanges(games: int) -> tuple[float, int]:
    """Exchanges per round over whole duel games, and the rounds played."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "core"))
    from test_protocol_13_10_hidden_facts import SIDES, Duel, order

    from pbem.core.peer import folder as peer

    waves = rounds = 0
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            d = Duel(Path(tmp), rounds=3, cards=True)
            d.start()
            while True:
                out = peer.outcome(d.dirs["north"])
                if not out.owes or set(out.owes.values()) == {"final"}:
                    break
                if set(out.owes.values()) == {"commit"}:
                    rounds += 1
                    hand = out.state["hands"]
                    for s in SIDES:
                        d.owed(s, order(s, out.state["field"][s][0], card=hand[s][0] if hand[s] and g % 2 else ""))
                else:
                    for s in sorted(out.owes):
                        d.owed(s)
                waves += 1
    return waves / max(rounds, 1), rounds


def trips(game_dir: Path) -> dict[str, int]:
    """A finished or stopped Hammer peer game's trips of the post by what they carry: ``turn`` (a message toward a
    Game Turn's step: its card, a Move round, a pause's open), else ``winter`` (a Winter Turn's rounds), else
    ``apart`` (joins, starts, the deals' passes, the final openings). The bots' driver (autoplay.run) signs each
    trip's messages with the trip's own clock, so the messages' clocks name their trips."""
    import json

    from pbem.core.peer import folder as peer

    man = peer.manifest(game_dir)
    phase_at: dict[int, str] = {}  # step -> the game's phase at its head (the latest state before it)
    phase = ""
    for n, path in enumerate(sorted((game_dir / "ledger").iterdir())):
        phase_at[n] = phase
        state = json.loads(path.read_text()).get("state") or {}
        phase = state.get("game", {}).get("phase", phase)
    phase_at[len(phase_at)] = phase
    by_trip: dict[int, set[str]] = {}
    for m in peer.messages(game_dir, man):
        kind = "apart" if m.phase in APART else "winter" if phase_at.get(m.step) == "winter" else "turn"
        by_trip.setdefault(m.clock, set()).add(kind)
    counts = {"turn": 0, "winter": 0, "apart": 0}
    for kinds in by_trip.values():
        counts[next(k for k in counts if k in kinds)] += 1
    return counts


APART = frozenset({"join", "start", "shuffle", "lock", "keys", "final", "claim", "resign"})


def hammer_exchanges(games: int) -> tuple[float, int, float, float]:
    """Hammer with no referee (docs/hammer-peer.md): trips of the post per Game Turn over Braveheart's first year,
    the Game Turns played, the trips of its Winter Turn (7.0-7.7), and the wall-clock seconds per game up to
    the second year's first card; two folders in-process, the demo's bots and driver (autoplay.run)."""
    from pbem.core import identity
    from pbem.core import ruleset as rs
    from pbem.core.peer import autoplay
    from pbem.core.peer.rules import Facts, hidden_rules

    hidden = hidden_rules(rs.load("hammer", {}))
    assert hidden is not None

    def bot(side: str, public: dict, facts: Facts) -> object:
        return hidden.bot_order(public, side, facts)  # type: ignore[attr-defined]

    def next_year(out: object) -> bool:
        g = getattr(out, "state", {}).get("game", {})
        return bool(g) and g["year"] > 1297 and g["turn"] >= 1

    turn = winter = turns = 0
    started = time.perf_counter()
    for _ in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            sides = ("england", "scotland")
            keys = {s: identity.generate(s) for s in sides}
            dirs = {s: Path(tmp) / s for s in sides}
            autoplay.opened(dirs, keys, "hammer", "braveheart", {}, 24, length=1024)
            autoplay.play(dirs, keys, bot, until=next_year)
            counts = trips(dirs["england"])
            turn, winter, turns = turn + counts["turn"], winter + counts["winter"], turns + 5
    return turn / max(turns, 1), turns, winter / max(games, 1), (time.perf_counter() - started) / max(games, 1)


def crypto_ms(repeat: int) -> dict[str, float]:
    """Milliseconds of CPU per side for each piece, at Hammer's sizes."""
    from pbem.core import identity
    from pbem.core.peer import chain, deal, handles, message

    cards = [f"card{i}" for i in range(HAMMER_DECK)]
    open_deck = deal.deck("bench", cards)
    s1, s2 = deal.fresh_key(), deal.fresh_key()
    perm = list(range(HAMMER_DECK))
    shuffled = deal.shuffle_pass(deal.shuffle_pass(open_deck, s1, perm), s2, perm)
    keys1 = [deal.fresh_key() for _ in cards]
    keys2 = [deal.fresh_key() for _ in cards]
    locked1 = deal.lock_pass(shuffled, s1, keys1)
    locked = deal.lock_pass(locked1, s2, keys2)
    me = identity.generate("bench")
    secret = chain.fresh_secret()
    out = {
        "shuffle pass (25 cards)": best(lambda: deal.shuffle_pass(open_deck, s1, perm), repeat),
        "lock pass (25 cards)": best(lambda: deal.lock_pass(shuffled, s1, keys1), repeat),
        "read own hand (5 cards)": best(lambda: [deal.card_of(deal.unlock(locked[j], [keys1[j], keys2[j]]), "bench",
                                                              cards) for j in range(HAMMER_HAND)], repeat),
        "check a card played": best(lambda: deal.check_play("bench", cards, locked[0], [keys1[0], keys2[0]],
                                                            deal.card_of(deal.unlock(locked[0], [keys1[0], keys2[0]]),
                                                                         "bench", cards) or "", "x", 1, 0), repeat),
        "commitment": best(lambda: handles.make("order.1", {"side": "england", "card": "card3"}), repeat),
        # a new secret each time: a process's first link walks the whole chain (a CLI run's); later links of a
        # chain walked in the process start from its nearest pebble (chain.PEBBLE hashes at most)
        "chain link (worst: use 1 of 4096, first in its process)": best(
            lambda: chain.link_at(chain.fresh_secret(), chain.DEFAULT_LENGTH, 1), repeat),
        "chain link (a later one in the same process)": best(
            lambda: chain.link_at(secret, chain.DEFAULT_LENGTH, 1), repeat),
        "sign a message": best(lambda: message.write(me, "bench", "england", 1, "", "commit", 0,
                                                     {"commitment": "0" * 64}), repeat),
        "audit of the deal's passes (end)": best(lambda: deal.audit(
            "bench", cards, ["a", "b"], [deal.shuffle_pass(open_deck, s1, perm), shuffled], [locked1, locked],
            [s1, s2], [perm, perm], [keys1, keys2]), repeat) / 2,
    }
    return {k: v * 1000 for k, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tiny", action="store_true", help=TINY)
    a = ap.parse_args()
    if a.tiny:
        a.games, a.repeat = 1, 1
    per_round, rounds = exchanges(a.games)
    print(f"hidden duel: {per_round:.2f} exchanges per round over {rounds} rounds of {a.games} games "
          f"(goal for Hammer: at most {GOAL_EXCHANGES:g} per game turn)")
    per_turn_h, turns, winter, secs = hammer_exchanges(1 if a.tiny else 2)
    print(f"hammer (braveheart, first year): {per_turn_h:.2f} exchanges per game turn over {turns} game turns; "
          f"{winter:.1f} for its Winter Turn; {secs:.1f} s per year in-process (goal at most {GOAL_EXCHANGES:g} "
          f"per game turn): {'met' if per_turn_h <= GOAL_EXCHANGES else 'NOT met'}")
    ms = crypto_ms(a.repeat)
    for k, v in ms.items():
        print(f"  {k}: {v:.2f} ms")
    yearly = ms["shuffle pass (25 cards)"] + ms["lock pass (25 cards)"] + ms["read own hand (5 cards)"]
    per_turn = yearly / TURNS_PER_YEAR + ms["check a card played"] * 2 + ms["commitment"] * 2 \
        + ms["chain link (worst: use 1 of 4096, first in its process)"] + ms["sign a message"] * 3
    print(f"crypto CPU per game turn per side at Hammer's sizes: {per_turn:.1f} ms "
          f"(the year's deal spread over {TURNS_PER_YEAR} turns, two cards checked, two commitments, "
          f"one chain link, three signatures; goal at most {GOAL_MS:g} ms): "
          f"{'met' if per_turn <= GOAL_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
