"""Mutation check of the fog-of-war tests (not collected by pytest: run it by hand).

    python tests/hammer/mutate_views.py [-k EXPR] [NAME ...]

``-k EXPR`` runs only the tests pytest selects with it (``-k pause_point``: the tests over
the pause points of real games alone).

Each mutation below changes pbem/hammer/views.py so that a report leaks a hidden fact (or, for
the last ones, hides a fact its side may see). For each, the script applies it, runs
tests/hammer/test_views_noninterference.py, requires the run to FAIL, and restores the file
(also on Ctrl-C). A mutation the tests do not catch is a hole in the proof: the script says so
and exits 1.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "pbem" / "hammer" / "views.py"
TESTS = ROOT / "tests" / "hammer" / "test_views_noninterference.py"


@dataclass(frozen=True)
class Mutation:
    name: str
    why: str
    old: str
    new: str


MUTATIONS = (
    Mutation("own_res_keeps_enemy", "a paused battle lists the enemy's unrevealed reserves by name (5.32)",
             "own_res = sorted(n for n in reserves if n in state.blocks and state.blocks[n].owner == side)",
             "own_res = sorted(n for n in reserves if n in state.blocks)"),
    Mutation("enemy_reserve_names", "the enemy's reserves given as names, not a count (5.32)",
             "\"enemy_reserves\": sum(1 for n in reserves if n in state.blocks "
             "and state.blocks[n].owner == enemy),",
             "\"enemy_reserves\": sorted(n for n in reserves if n in state.blocks "
             "and state.blocks[n].owner == enemy),"),
    Mutation("enemy_strength_shown", "enemy blocks per area given as their total strength (2.0)",
             "\"enemy_blocks\": {a: c[enemy] for a, c in common[\"counts\"].items() if c[enemy]},",
             "\"enemy_blocks\": {a: sum(b.strength for b in state.blocks.values() if b.owner == enemy "
             "and b.location == a) for a, c in common[\"counts\"].items() if c[enemy]},"),
    Mutation("enemy_blocks_in_own_list", "the side's block list takes the enemy's blocks too (2.0)",
             "            if b.owner == side and b.location not in PLACES:\n",
             "            if b.location not in PLACES:\n"),
    Mutation("enemy_hand_shown", "the enemy's hand shown instead of its size (3.0)",
             "\"enemy_hand\": common[\"hand_sizes\"][enemy],",
             "\"enemy_hand\": sorted(state.hands.get(enemy, [])),"),
    Mutation("enemy_pool_shown", "the enemy's Draw Pool by name (2.0)",
             "\"enemy_pool\": common[\"pool_sizes\"][enemy],",
             "\"enemy_pool\": state.pool(enemy),"),
    Mutation("deck_top_shown", "the top card of the deck (3.0)",
             "\"deck_size\": len(state.deck),",
             "\"deck_size\": state.deck[:1],"),
    Mutation("retreat_destination_shown", "the redacted destination of a retreat or regroup (5.5, 5.6)",
             "hidden = set(entry[\"redact\"])",
             "hidden = set()"),
    Mutation("winter_draw_named", "the name of a block Scotland drew in winter (7.62)",
             "(\"winter\", \"7.62\"): (\"what\", \"step\", \"side\", \"area\", \"rule\"),",
             "(\"winter\", \"7.62\"): (\"what\", \"step\", \"side\", \"area\", \"rule\", \"drawn\"),"),
    Mutation("private_lines_fail_open", "a private line of the enemy shown whole",
             "    keep = _ENEMY_SUMMARY.get((str(entry.get(\"what\", \"\")), str(entry.get(\"step\", \"\"))))\n"
             "    if keep is None:\n        return None",
             "    keep = _ENEMY_SUMMARY.get((str(entry.get(\"what\", \"\")), str(entry.get(\"step\", \"\"))))\n"
             "    if keep is None:\n        return dict(entry)"),
    Mutation("fight_log_unfiltered", "a paused battle's log shown whole, private lines included (5.5, 5.6)",
             "\"log\": filter_log(f.get(\"log\", []) or [], side),",
             "\"log\": list(f.get(\"log\", []) or []),"),
    # Hiding too much: a report must show what the rules let its side see.
    Mutation("enemy_hand_size_wrong", "(hides too much) the enemy's hand size not given (shown as 0)",
             "\"enemy_hand\": common[\"hand_sizes\"][enemy],",
             "\"enemy_hand\": 0,"),
    Mutation("own_reserves_hidden", "(hides too much) the side's own reserves missing from a paused battle",
             "\"line\": own, \"reserves\": own_res,",
             "\"line\": own, \"reserves\": [],"),
    Mutation("revealed_enemy_hidden", "(hides too much) the public lines of a paused battle dropped",
             "\"log\": filter_log(f.get(\"log\", []) or [], side),",
             "\"log\": [e for e in filter_log(f.get(\"log\", []) or [], side) if e.get(\"what\") != \"reveal\"],"),
)


def run(m: Mutation, original: str, select: list[str]) -> bool:
    """True when the tests fail with ``m`` applied (the mutation is caught)."""
    if original.count(m.old) != 1:
        raise SystemExit(f"mutation {m.name}: its target text is not in views.py exactly once; update the script")
    VIEWS.write_text(original.replace(m.old, m.new))
    try:
        command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *select, str(TESTS)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    finally:
        VIEWS.write_text(original)
    return done.returncode != 0


def main(args: list[str]) -> int:
    select = args[:2] if args[:1] == ["-k"] else []
    names = args[len(select):]
    original = VIEWS.read_text()
    chosen = [m for m in MUTATIONS if not names or m.name in names]
    missed = []
    try:
        for m in chosen:
            caught = run(m, original, select)
            print(f"{'caught' if caught else 'MISSED'}  {m.name}: {m.why}", flush=True)
            if not caught:
                missed.append(m.name)
    finally:
        VIEWS.write_text(original)
    print(f"{len(chosen) - len(missed)} of {len(chosen)} mutations caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
