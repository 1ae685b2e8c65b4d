"""Exact battle odds against the engine (issue: Step 13, goal 5), and their speed.

For each position, ``pbem.hammer.show.odds.battle_odds`` computes the exact distribution and
``simulate`` has the engine fight the same battle N times with real dice (100,000 by default);
every probability (attacker wins, defender holds, forced retreat, game over, each block's
holds / retreated / captured / eliminated) must lie within 4 standard errors of the observed
frequency, and each block's expected steps within 4 standard errors of the mean.
Then it times a 6-against-6 battle (goal: under 0.5 s of CPU).

    python bench/battle_odds.py [--battles 100000] [--only NAME] [--tiny]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from benchpath import ROOT, TINY  # (the checkout and tests/ on sys.path)

from pbem.hammer.play.cases import load_battle
from pbem.hammer.show.odds import BattleOdds, battle_odds, plan_deciders, simulate

CASES = ROOT / "tests" / "hammer" / "cases"
POS = ROOT / "examples" / "positions"
RETREATING = {  # standing plans that retreat, regroup and choose hits (docs/plans.md)
    "england": {"plans": {"battle": {"retreat_from_round": 2, "retreat_if_outnumbered": True,
                                     "retreat_to": ["Mentieth"], "regroup": ["Lennox"]},
                          "hits": ["York Knights"]}},
    "scotland": {"plans": {"battle": {"retreat_if_steps_lost": 4, "retreat_below_percent": 60},
                           "hits": ["Barclay", "Douglas"]}},
}
# (name, file, area, standing plans)
POSITIONS: list[tuple[str, Path, str, dict[str, Any]]] = [
    ("fife", POS / "battle-fife.toml", "Fife", {}),
    ("fife-plans", POS / "battle-fife.toml", "Fife", RETREATING),
    ("celtic-reserve", POS / "battle-celtic.toml", "Fife", {}),
    ("pinning-5v6", POS / "pinning-4-6.toml", "Buchan", {}),
    ("4.4-border", CASES / "4_4-border-movement-example.toml", "Galloway", {}),
    ("5.31-order", CASES / "5_31-combat-turn-order.toml", "Fife", {}),
    ("5.32-reserves", CASES / "5_32-main-attack-and-reserves.toml", "Buchan", {}),
    ("5.33-reinforcements", CASES / "5_33-player-2-reinforcements-arrive-in-round-2.toml", "Buchan", {}),
    ("5.41-ties", CASES / "5_41-three-hits-on-three-equal-blocks.toml", "Fife", {}),
    ("5.5-retreat-lost", CASES / "5_5-retreat-lost-plan-key.toml", "Fife", {}),
    ("5.5-border-limit", CASES / "5_5-the-owner-chooses-who-a-border-limit-leaves-behind.toml", "Fife", {}),
    ("9.1-edward-ii", CASES / "9_1-the-game-ends-at-the-hit-that-kills-edward-ii.toml", "Fife", {}),
    ("9.1-king", CASES / "9_1-the-game-ends-at-the-hit-that-kills-the-king.toml", "Fife", {}),
]
SIGMAS = 4
TINY_POSITIONS = ("fife", "5.33-reinforcements", "9.1-king")  # both paths, a 5.32 control change, the game's end


def probabilities(o: BattleOdds) -> dict[str, Fraction]:
    out = {"attacker wins": o.attacker_wins, "defender holds": o.defender_holds, "game over": o.game_over}
    for side in sorted(o.forced_out):
        out[f"{side} forced out"] = o.forced_out[side]
    for b in o.blocks:
        for what in ("holds", "retreated", "captured", "eliminated"):
            out[f"{b.block} {what}"] = getattr(b, what)
    return out


def compare(exact: BattleOdds, seen: BattleOdds, n: int, sigmas: float = SIGMAS) -> list[str]:
    """The probabilities and expected steps of ``exact`` the ``n`` battles of ``seen`` contradict."""
    bad = []
    ps, fs = probabilities(exact), probabilities(seen)
    for key, p in ps.items():
        f = fs.get(key, Fraction(0))
        se = math.sqrt(float(p * (1 - p)) / n)
        if (p in (0, 1) and f != p) or abs(float(f - p)) > sigmas * se + 1e-12:
            bad.append(f"{key}: exact {float(p):.4f}, seen {float(f):.4f} ({n} battles)")
    for b, s in zip(exact.blocks, seen.blocks, strict=True):
        spread = b.strength  # steps lie in 0..strength: the standard deviation is at most strength / 2
        se = spread / 2 / math.sqrt(n)
        if abs(float(b.expected_steps - s.expected_steps)) > sigmas * se + 1e-12:
            bad.append(
                f"{b.block} expected steps: exact {float(b.expected_steps):.3f}, seen {float(s.expected_steps):.3f}"
            )
    return bad


def six_against_six() -> tuple[float, BattleOdds]:
    """A 6-against-6 battle at full strength, as ``pbem odds`` would compute it."""
    from pbem.hammer.play.position import parse_position
    text = (POS / "pinning-4-6.toml").read_text(encoding="utf-8")
    text = text.replace('Buchan = ["Edward",', 'Buchan = ["Cumbria Infantry", "Edward",', 1)
    text = text.replace('"Grant:2"]', '"Grant"]', 1)
    state = parse_position(text, "6v6")
    t = time.process_time()
    odds = battle_odds(state, "Buchan", plan_deciders(state))
    return time.process_time() - t, odds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=100_000)
    ap.add_argument("--only", default="")
    ap.add_argument("--tiny", action="store_true", help=TINY + f" (positions {', '.join(TINY_POSITIONS)}, 300 battles)")
    args = ap.parse_args()
    if args.tiny:
        args.battles = 300
    failures = 0
    print(f"{'position':22} {'blocks':>7} {'states':>7} {'exact s':>8} {'sim s':>8} {'worst z':>8}  result")
    for name, path, area, plans in POSITIONS:
        if (args.only and args.only != name) or (args.tiny and name not in TINY_POSITIONS):
            continue
        state, decider = load_battle(str(path), area, None, plans)
        t = time.process_time()
        exact = battle_odds(state, area, decider)
        t_exact = time.process_time() - t
        state, decider = load_battle(str(path), area, None, plans)
        t = time.process_time()
        seen = simulate(state, area, decider, args.battles, name.encode().ljust(16, b"."))
        t_sim = time.process_time() - t
        bad = compare(exact, seen, args.battles)
        state, decider = load_battle(str(path), area, None, plans)
        general = battle_odds(state, area, decider, general=True)  # the engine-driven path, for agreement
        if (general.outcomes(), general.forced_out, general.blocks) != (exact.outcomes(), exact.forced_out,
                                                                         exact.blocks):
            bad.append("the fast and the engine-driven paths disagree")
        worst = max((abs(float(fs - p)) / math.sqrt(float(p * (1 - p)) / args.battles)
                     for key, p in probabilities(exact).items() if 0 < p < 1
                     for fs in [probabilities(seen).get(key, Fraction(0))]), default=0.0)
        failures += bool(bad)
        print(f"{name:22} {len(exact.blocks):7d} {exact.states:7d} {t_exact:8.3f} {t_sim:8.1f} {worst:8.2f}  "
              + ("ok" if not bad else "FAIL: " + "; ".join(bad[:3])), flush=True)
    if not args.only:
        secs, odds = six_against_six()
        print(f"6 against 6 (Buchan, every block at full strength): {secs:.3f} s of CPU, {odds.states} states "
              f"(goal: under 0.5 s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
