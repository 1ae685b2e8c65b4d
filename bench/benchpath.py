"""What every bench script needs before its own imports, so each runs from a clean checkout.

``python bench/NAME.py`` puts bench/ first on ``sys.path``; importing this module then adds the
checkout (pbem itself) and tests/ (the tests' helpers, such as ``support.rps_game``), as
pyproject's pytest ``pythonpath`` does for the tests. ``TINY`` is the help of every script's
``--tiny`` switch: the smallest parameters, so CI can run each script once and none goes stale
(tests/test_bench.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "tests", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

TINY = "the smallest parameters: checks that the script still runs (CI does so); its figures mean nothing"
