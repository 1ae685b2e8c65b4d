"""The order the suite runs in: the long tests first (docs/performance.md "Test suite").

With parallel workers, a long test that starts late runs alone at the end while the other worker
waits. The tests marked ``slow`` or ``real_games`` (the fog-of-war checks over real games, which the
quick loop keeps) are the long ones, so the modules that hold one go first, their long tests first
within them, and every other module after them in collection order. A module's tests stay together,
so a module fixture is made once per worker that runs the module.
"""

from __future__ import annotations

import pytest

LONG = ("slow", "real_games")


def _long(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(mark) for mark in LONG)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    long_modules = {item.nodeid.split("::")[0] for item in items if _long(item)}
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::")[0], index)

    def rank(pair: tuple[int, pytest.Item]) -> tuple[int, int, int, int]:
        index, item = pair
        module = item.nodeid.split("::")[0]
        return (module not in long_modules, first_seen[module], not _long(item), index)

    items[:] = [item for _, item in sorted(enumerate(items), key=rank)]
