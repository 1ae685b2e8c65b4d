"""The quick loop's list stays true (tests/support/quick_loop.py, docs/performance.md "Test suite").

Both tests read what this run collected, before ``-m`` deselected anything, so they check the whole
list whenever the whole suite is collected, and the listed tests of the files collected otherwise.
"""

from __future__ import annotations

import pytest
from support import quick_loop


def _collected_files(config: pytest.Config) -> frozenset[str]:
    return frozenset(nodeid.split("::")[0] for nodeid in config.stash[quick_loop.COLLECTED])


def test_quick_loop_list_names_only_tests_that_exist(pytestconfig: pytest.Config) -> None:
    collected = pytestconfig.stash[quick_loop.COLLECTED]
    files = _collected_files(pytestconfig)
    stale = sorted(name for name in quick_loop.left_out() if name.split("::")[0] in files and name not in collected)
    assert not stale, (
        f"tests/quick_loop_out.txt names {len(stale)} test(s) this run does not have, first {stale[0]}: "
        "write it again from a whole run (python tests/support/quick_loop.py RUN.xml)"
        if stale
        else ""
    )


def test_quick_loop_never_leaves_out_a_fog_of_war_check(pytestconfig: pytest.Config) -> None:
    fog = pytestconfig.stash[quick_loop.NEVER_OUT]
    listed = quick_loop.left_out()
    out = sorted((listed & fog) | {name for name in listed if quick_loop.FOG_OF_WAR.search(name)})
    assert not out, f"the quick loop must keep every fog-of-war check, yet tests/quick_loop_out.txt names {out}"


def test_quick_loop_reads_each_test_s_time_under_the_name_junit_gives_it(pytestconfig: pytest.Config) -> None:
    """The list is written from a JUnit report: a test it could not find there would never be left out."""
    from _pytest.junitxml import mangle_test_address

    collected: frozenset[str] = pytestconfig.stash[quick_loop.COLLECTED]
    for nodeid in sorted(collected):
        names = mangle_test_address(nodeid)
        assert quick_loop.junit_key(nodeid) == (".".join(names[:-1]), names[-1]), nodeid
