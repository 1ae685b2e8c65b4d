"""``pbem`` with the tests' rock-paper-scissors ruleset registered: what the test hooks run."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core"))

from pbem.core import ruleset  # noqa: E402

ruleset.register("rps", "rps_game:RpsRuleset")

from pbem.cli.main import app  # noqa: E402

app()
