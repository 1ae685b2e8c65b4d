"""pbem with the tests' rock-paper-scissors ruleset registered: what the test hooks and CI runs call.

``pbem_with_rps.py hook NAME`` is a hook (pbem.transport.git.hookrun); anything else is ``pbem ...``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game

from pbem.core import ruleset  # noqa: E402

ruleset.register("rps", "support.rps_game:RpsRuleset")

if sys.argv[1:2] == ["hook"]:
    from pbem.transport.git import hookrun

    sys.exit(hookrun.main(sys.argv[2]))

from pbem.cli.main import app  # noqa: E402

app()
