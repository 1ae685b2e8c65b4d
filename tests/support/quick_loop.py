"""The quick loop's list of tests left out (docs/performance.md "Test suite", issue 26 point 6).

Why a list: the quick loop (``pytest -m "not slow"``) has to stay within a minute on two cores, and
hundreds of small tests each costing a tenth of a second or more add up to more than that, while no
one of them is long enough to mark ``slow`` by hand. ``tests/quick_loop_out.txt`` names them, one node
id a line; ``tests/conftest.py`` marks each ``slow`` at collection, so the README's test command and
CI, which run everything, still run them. The fog-of-war checks are never left out (marker
``real_games``, or a name that says what they check): a leak must show in the quick loop.

The list is written from a whole run's JUnit XML (``pytest --junitxml=RUN.xml``):

    python tests/support/quick_loop.py RUN.xml

which takes every test that ran for at least ``THRESHOLD`` seconds and is not already slow. The
tests in tests/test_quick_loop.py keep it true: every name in it is a test that exists, and none is a
fog-of-war check.
"""

from __future__ import annotations

import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

import pytest

LIST = Path(__file__).resolve().parent.parent / "quick_loop_out.txt"
THRESHOLD = 0.1
# Set to "0" to collect without applying the list (how the list is rewritten).
OFF = "PBEM_QUICK_LOOP_OUT"
FOG_OF_WAR = re.compile(r"interference|never_holds|never_depends|fog|secret|leak|test_views_")
COLLECTED = pytest.StashKey[frozenset[str]]()
NEVER_OUT = pytest.StashKey[frozenset[str]]()


@dataclass(frozen=True)
class Collected:
    """One collected test as the list needs it."""

    nodeid: str
    slow: bool
    fog_of_war: bool


def never_left_out(item: pytest.Item) -> bool:
    """A fog-of-war check: it stays in the quick loop whatever it costs."""
    return item.get_closest_marker("real_games") is not None or bool(FOG_OF_WAR.search(item.nodeid))


def left_out() -> frozenset[str]:
    """The node ids the quick loop leaves out; none when the list is switched off."""
    if os.environ.get(OFF) == "0" or not LIST.exists():
        return frozenset()
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def apply(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the listed tests ``slow``; keep what the list's own tests check in the config's stash."""
    out = left_out()
    config.stash[COLLECTED] = frozenset(item.nodeid for item in items)
    config.stash[NEVER_OUT] = frozenset(item.nodeid for item in items if never_left_out(item))
    for item in items:
        if item.nodeid in out and not never_left_out(item):
            item.add_marker(pytest.mark.slow)


def junit_key(nodeid: str) -> tuple[str, str]:
    """The (classname, name) a JUnit report gives the test with this node id."""
    address, bracket, params = nodeid.partition("[")
    names = address.split("::")
    names[0] = names[0].removesuffix(".py").replace("/", ".")
    return ".".join(names[:-1]), names[-1] + bracket + params


def durations(junit: Path) -> dict[tuple[str, str], float]:
    """Seconds each test of a run took (set-up, call and tear-down), by its JUnit key."""
    root = ElementTree.parse(junit).getroot()
    return {
        (case.get("classname", ""), case.get("name", "")): float(case.get("time", "0"))
        for case in root.iter("testcase")
    }


class _Recorder:
    """Collects every test with what the list needs to know of it."""

    def __init__(self) -> None:
        self.tests: list[Collected] = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            slow = item.get_closest_marker("slow") is not None
            self.tests.append(Collected(item.nodeid, slow, never_left_out(item)))


def collect() -> list[Collected]:
    """Every test of the suite, collected in this process without the list applied."""
    os.environ[OFF] = "0"
    recorder = _Recorder()
    code = pytest.main(["--collect-only", "-q", "-n", "0", "-p", "no:randomly", "tests"], plugins=[recorder])
    if code != 0:
        raise SystemExit(f"collecting the tests failed (pytest exit code {code})")
    return recorder.tests


def write(junit: Path) -> int:
    """Rewrite the list from a whole run; returns how many tests it names."""
    seconds = durations(junit)
    chosen = sorted(
        test.nodeid
        for test in collect()
        if not test.slow and not test.fog_of_war and seconds.get(junit_key(test.nodeid), 0.0) >= THRESHOLD
    )
    header = [
        "# Tests the quick loop (pytest -m 'not slow') leaves out: each took at least "
        f"{THRESHOLD} s in a whole run.",
        "# Written by: python tests/support/quick_loop.py RUN.xml (tests/support/quick_loop.py says why).",
    ]
    LIST.write_text("\n".join([*header, *chosen]) + "\n", encoding="utf-8")
    return len(chosen)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tests/support/quick_loop.py RUN.xml")
    print(f"{write(Path(sys.argv[1]))} tests left out of the quick loop: {LIST.name}")
