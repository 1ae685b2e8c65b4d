"""One headless chromium per test worker, shared by every board test in it (starting one costs more
than most tests: docs/performance.md "Test suite")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from board_support import chrome


@pytest.fixture(scope="session")
def driver() -> Iterator[Any]:
    d = chrome()
    yield d
    d.quit()
