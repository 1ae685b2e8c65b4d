"""pbem with the tests' rock-paper-scissors ruleset registered: what the test hooks and CI runs call.

``pbem_with_rps.py hook NAME`` is a hook (pbem.transport.git.hookrun); anything else is ``pbem ...``.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game

from pbem.core import ruleset  # noqa: E402

ruleset.register("rps", "support.rps_game:RpsRuleset")

if os.environ.get("PBEM_TEST_CLOCK_AHEAD"):  # a test's clock moved on: a deadline has passed (protocol §8.3)
    _ahead, _real = int(os.environ["PBEM_TEST_CLOCK_AHEAD"]), time.time
    time.time = lambda: _real() + _ahead

if sys.argv[1:2] == ["hook"]:
    from pbem.transport.git import hookrun

    sys.exit(hookrun.main(sys.argv[2]))

from pbem.cli.main import app  # noqa: E402

app()
