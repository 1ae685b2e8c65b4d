"""2.0 fog of war, checked by mutation: each change below makes pbem/hammer/show/views.py leak a hidden fact
(or, the last ones, hide a fact its side may see), and the fog-of-war tests of
test_views_noninterference.py that play no game (the quick checks: not marked ``real_games``) must
fail with each one applied.

A mutation is applied in-process (``mutated``): the changed source of views.py is compiled and each
function and method of the module takes the changed code, so every caller (the report, the renderers)
runs it; the file on disk is never written, and the module is restored after. Each mutation's target
text must still be in views.py exactly once (``test_2_0_every_views_mutation_still_applies``), so the
list cannot go stale when views.py changes: update the mutation with the code.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import test_views_noninterference as fog

import pbem.hammer.show.views as views


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
             "\"enemy_reserves\": sum(1 for n in reserves if n in state.blocks and state.blocks[n].owner == enemy),",
             "\"enemy_reserves\": sorted(n for n in reserves if n in state.blocks "
             "and state.blocks[n].owner == enemy),"),
    Mutation("enemy_strength_shown", "enemy blocks per area given as their total strength (2.0)",
             "\"enemy_blocks\": {a: c[enemy] for a, c in common[\"counts\"].items() if c[enemy]},",
             "\"enemy_blocks\": {a: sum(b.strength for b in state.blocks.values() if b.owner == enemy "
             "and b.location == a) for a, c in common[\"counts\"].items() if c[enemy]},"),
    Mutation("enemy_blocks_in_own_list", "the side's block list takes the enemy's blocks too (2.0)",
             "if b.owner == side and b.location not in PLACES:",
             "if b.location not in PLACES:"),
    Mutation("enemy_hand_shown", "the enemy's hand shown instead of its size (3.0)",
             "\"enemy_hand\": common[\"hand_sizes\"][enemy],",
             "\"enemy_hand\": sorted(state.hands.get(enemy, [])),"),
    Mutation("enemy_pool_shown", "the enemy's Draw Pool by name (2.0)",
             "\"enemy_pool\": common[\"pool_sizes\"][enemy],",
             "\"enemy_pool\": self.places.names(POOL, enemy),"),
    Mutation("deck_top_shown", "the top card of the deck (3.0)",
             "\"deck_size\": len(state.deck),",
             "\"deck_size\": state.deck[:1],"),
    Mutation("retreat_destination_shown", "the redacted destination of a retreat or regroup (5.5, 5.6)",
             "hidden = set(v.hidden)",
             "hidden = set()"),
    Mutation("winter_draw_named", "the name of a block Scotland drew in winter (7.62)",
             "(\"winter\", \"7.62\"): (\"what\", \"step\", \"side\", \"area\", \"rule\"),",
             "(\"winter\", \"7.62\"): (\"what\", \"step\", \"side\", \"area\", \"rule\", \"drawn\"),"),
    Mutation("private_lines_fail_open", "a private line of the enemy shown whole",
             "    if keep is None:\n        return None\n",
             "    if keep is None:\n        return e.to_data()\n"),
    Mutation("fight_log_unfiltered", "a paused battle's log shown whole, private lines included (5.5, 5.6)",
             "\"log\": filter_log(f.log, side),",
             "\"log\": [as_entry(x).to_data() for x in f.log],"),
    # Hiding too much: a report must show what the rules let its side see.
    Mutation("enemy_hand_size_wrong", "(hides too much) the enemy's hand size not given (shown as 0)",
             "\"enemy_hand\": common[\"hand_sizes\"][enemy],",
             "\"enemy_hand\": 0,"),
    Mutation("own_reserves_hidden", "(hides too much) the side's own reserves missing from a paused battle",
             "\"line\": own, \"reserves\": own_res,",
             "\"line\": own, \"reserves\": [],"),
    Mutation("revealed_enemy_hidden", "(hides too much) the public lines of a paused battle dropped",
             "\"log\": filter_log(f.log, side),",
             "\"log\": [x for x in filter_log(f.log, side) if x.get(\"what\") != \"reveal\"],"),
)

SOURCE = Path(views.__file__).read_text(encoding="utf-8")


def _own(module: ModuleType, value: object) -> bool:
    return getattr(value, "__module__", None) == module.__name__


@contextmanager
def mutated(module: ModuleType, source: str) -> Iterator[None]:
    """``module`` running ``source``: its functions and its classes' methods take the new code (so
    that callers holding them by name run it too), its data the new values; all restored after."""
    fresh: dict[str, Any] = {"__name__": module.__name__, "__file__": module.__file__}
    exec(compile(source, str(module.__file__), "exec"), fresh)  # noqa: S102 - a test's own mutant
    undo: list[Callable[[], None]] = []
    space = vars(module)
    try:
        for name, new in fresh.items():
            old = space.get(name)
            if name.startswith("__") or old is new:
                continue
            if inspect.isfunction(new) and inspect.isfunction(old) and _own(module, old):
                undo.append(lambda f=old, c=old.__code__, d=old.__defaults__: (setattr(f, "__code__", c),
                                                                               setattr(f, "__defaults__", d)))
                old.__code__, old.__defaults__ = new.__code__, new.__defaults__
            elif inspect.isclass(new) and inspect.isclass(old) and _own(module, old):
                for attr, member in vars(new).items():
                    if inspect.isfunction(member):
                        undo.append(lambda k=old, a=attr, m=vars(old)[attr]: setattr(k, a, m))
                        setattr(old, attr, member)
            elif not inspect.ismodule(new) and not inspect.isfunction(new) and not inspect.isclass(new):
                undo.append(lambda n=name, v=old: space.__setitem__(n, v))
                space[name] = new
        yield
    finally:
        for step in reversed(undo):
            step()


def _quick_checks() -> list[Callable[[], None]]:
    """The tests of the fog-of-war module that play no game (not marked ``real_games``), cheapest first."""
    tests = [getattr(fog, n) for n in dir(fog) if n.startswith("test_")]
    quick = [t for t in tests if not any(m.name in ("slow", "real_games") for m in getattr(t, "pytestmark", []))]
    cost = ("5_32", "no_enemy_block_name", "view_shows_everything", "change_the_side", "report_shows_everything",
            "view_never_depends", "decide_report_mid_battle")
    return sorted(quick, key=lambda t: next((i for i, c in enumerate(cost) if c in t.__name__), len(cost)))


def _caught(m: Mutation) -> str:
    """The name of the first quick fog-of-war test that fails with ``m`` applied, or ""."""
    with mutated(views, SOURCE.replace(m.old, m.new)):
        for check in _quick_checks():
            try:
                check()
            except Exception:
                return check.__name__
    return ""


def test_2_0_every_views_mutation_still_applies() -> None:
    stale = [m.name for m in MUTATIONS if SOURCE.count(m.old) != 1]
    assert stale == [], f"views.py changed: update these mutations to today's code: {stale}"


def test_2_0_the_fog_of_war_tests_pass_on_views_unchanged() -> None:
    """The harness itself: views.py recompiled unchanged passes every quick check."""
    with mutated(views, SOURCE):
        for check in _quick_checks():
            check()


@pytest.mark.parametrize("m", MUTATIONS, ids=[m.name for m in MUTATIONS])
def test_2_0_each_views_mutation_is_caught_by_a_quick_fog_of_war_test(m: Mutation) -> None:
    assert SOURCE.count(m.old) == 1, m.name
    assert _caught(m), f"no quick fog-of-war test notices {m.name}: {m.why}"
    assert Path(views.__file__).read_text(encoding="utf-8") == SOURCE  # the file on disk never changed
