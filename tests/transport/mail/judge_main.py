"""`pbem` with the tests' rock-paper-scissors ruleset registered: the judge under test as its own process."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game

from pbem.cli.main import app  # noqa: E402
from pbem.core import ruleset  # noqa: E402

ruleset.register("rps", "support.rps_game:RpsRuleset")

if __name__ == "__main__":
    app()
