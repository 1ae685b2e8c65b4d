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


def hammer_exchanges(games: int) -> tuple[float, int, float, float]:
    """Hammer with no referee (docs/hammer-peer.md): exchanges per game turn over Braveheart's first year, the
    game turns played, the exchanges of the first Winter Turn (7.0-7.7) and of the next year's deal, and the
    wall-clock seconds per game up to the second year's first card, two folders in-process with the tests'
    bot (tests/support/hammer_peer_bot.py)."""
    from support.hammer_peer_bot import order

    from pbem.core import identity
    from pbem.core.peer import folder as peer
    from pbem.core.peer.demo import joined

    waves = turns = winter = 0
    started = time.perf_counter()
    for _ in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            sides = ("england", "scotland")
            keys = {s: identity.generate(s) for s in sides}
            dirs, send = joined({s: Path(tmp) / s for s in sides}, keys, "hammer", "braveheart", {}, length=1024,
                                clock=1)
            played = 0
            while True:
                out = peer.outcome(dirs["england"])
                g = out.state.get("game", {})
                if out.verdict or (out.entries and not out.owes) or (g and g["year"] > 1297 and g["turn"] >= 1):
                    break
                if g and g["year"] == 1297:
                    if g["phase"] == "winter":
                        winter += 1
                    elif out.entries:
                        waves += 1
                        played = max(played, g["turn"])
                for s in sorted(out.owes):
                    commit = out.owes[s] in peer.ORDERED
                    send(s, peer.write_owed(dirs[s], keys[s], order(dirs[s], s) if commit else None, 1)[1])
            turns += played
    return waves / max(turns, 1), turns, winter / max(games, 1), (time.perf_counter() - started) / max(games, 1)


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
          f"{winter:.0f} for its Winter Turn; {secs:.1f} s per year in-process (goal at most {GOAL_EXCHANGES:g} "
          "per game turn)")
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
