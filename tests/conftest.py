"""Settings for the whole test run (docs/performance.md "Test suite").

The order the suite runs in: the long tests first. With parallel workers, a long test that starts late
runs alone at the end while the other worker waits. The tests marked ``slow`` or ``real_games`` (the
fog-of-war checks over real games, which the quick loop keeps) are the long ones, so the modules that
hold one go first, their long tests first within them, and every other module after them in
collection order. A module's tests stay together, so a module fixture is made once per worker that
runs the module.

Files are not flushed to the disk in the test process: ``os.fsync`` there only checks that its
descriptor is open. Why: a flush makes no byte any test reads different (the tests never cut the
power; a killed process loses nothing the kernel holds), yet each one waits for the disk, and a whole
game through the protocol makes some hundreds of them. The tests that check what is flushed, and
when, put their own ``os.fsync`` in place and still see every call. Child processes (the servers,
the mail judge, the bench scripts) flush as always; ``PBEM_TEST_FSYNC=1`` keeps the flushes here too.

Every test of a game with no referee (a module named ``*peer*``) plays one known game. Such a game draws its keys,
chain secrets, salts, deal keys and shuffles from the operating system, so each run would deal another game, and
a test that needs its game to go a certain way (a battle where it expects one, an Event with a use) would pass or
fail by chance, as one did on CI. Each draws them from its own name instead (tests/support/seeded_chance.py), or
from the seed its ``chance`` mark gives where the game its name deals does not go its way.
"""

from __future__ import annotations

import os

import pytest
from support import quick_loop
from support.seeded_chance import seed_chance

LONG = ("slow", "real_games")


def _fsync_without_the_disk(fd: int) -> None:
    """What ``os.fsync`` checks before it waits for the disk: ``fd`` is an open descriptor."""
    os.fstat(fd)


if os.environ.get("PBEM_TEST_FSYNC") != "1":
    os.fsync = _fsync_without_the_disk


def _long(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(mark) for mark in LONG)


@pytest.fixture(autouse=True)
def one_known_peer_game(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if "peer" in request.module.__name__.rpartition(".")[2]:
        mark = request.node.get_closest_marker("chance")
        seed_chance(monkeypatch, str(mark.args[0]) if mark else request.node.name)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long tests first (by their own marks), then the quick loop's list applied, before ``-m`` reads it."""
    long_modules = {item.nodeid.split("::")[0] for item in items if _long(item)}
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::")[0], index)

    def rank(pair: tuple[int, pytest.Item]) -> tuple[int, int, int, int]:
        index, item = pair
        module = item.nodeid.split("::")[0]
        return (module not in long_modules, first_seen[module], not _long(item), index)

    items[:] = [item for _, item in sorted(enumerate(items), key=rank)]
    quick_loop.apply(config, items)
