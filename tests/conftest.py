"""The order the suite runs in: the long tests first (docs/performance.md "Test suite").

With parallel workers, a long test that starts late runs alone at the end while the other worker
waits. The tests marked ``slow`` are the long ones, so the modules that hold one go first, their
slow tests first within them, and every other module after them in collection order. A module's
tests stay together, so a module fixture is made once per worker that runs the module. The
quick loop (``-m "not slow"``) deselects the slow tests and so keeps the collection order.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow_modules = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::")[0], index)

    def rank(pair: tuple[int, pytest.Item]) -> tuple[int, int, int, int]:
        index, item = pair
        module = item.nodeid.split("::")[0]
        return (module not in slow_modules, first_seen[module], item.get_closest_marker("slow") is None, index)

    items[:] = [item for _, item in sorted(enumerate(items), key=rank)]
