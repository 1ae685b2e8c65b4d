"""Regenerate this example: a short scripted Braveheart game played through the CLI verbs.

    python examples/game/make_example.py

Writes, beside this file: keys/ (three identities; example keys, never use them for a game),
game/ (manifest, ledger, sealed reports and state), drafts/ (the TOML each side wrote, by the
simple bot with fixed seeds) and envelopes/ (the sealed orders). tests/e2e/test_examples.py
replays it: every draft checks against its report, and the ledger verifies.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.demo import make_keys
from pbem.cli.main import app

HERE = Path(__file__).resolve().parent
STEPS = 6  # a few exchanges: two game turns and a little more


def cli(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exit_code != 0:
        sys.exit(f"pbem {' '.join(map(str, args))} failed:\n{result.output}")
    return result.output


def main() -> None:
    from pbem.core import game as core_game

    for sub in ("keys", "game", "drafts", "envelopes"):
        shutil.rmtree(HERE / sub, ignore_errors=True)
    make_keys(HERE / "keys")
    k, g = HERE / "keys", HERE / "game"
    cli("game", "new", g, "--ruleset", "hammer", "--scenario", "braveheart", "--referee", k / "referee.key",
        "--side", f"england={k / 'england.pub.toml'}", "--side", f"scotland={k / 'scotland.pub.toml'}")
    (HERE / "drafts").mkdir()
    (HERE / "envelopes").mkdir()
    for _ in range(STEPS):
        info = core_game.status(g)
        if not info["owes"]:
            break
        step = int(info["step"])
        envs = []
        for side in sorted(info["owes"]):
            rep = core_game.report_path(g, step, side)
            draft = HERE / "drafts" / f"{step:04d}-{side}.toml"
            env = HERE / "envelopes" / f"{step:04d}-{side}.asc"
            cli("orders", "auto", rep, "--key", k / f"{side}.key", "--bot", "simple", "--out", draft,
                "--seed", f"{step:04x}")
            cli("orders", "check", draft, "--report", rep, "--key", k / f"{side}.key")
            cli("orders", "seal", draft, "--key", k / f"{side}.key", "--game", g, "--out", env)
            envs.append(env)
        cli("adjudicate", g, *envs, "--key", k / "referee.key")
    print(cli("status", g))


if __name__ == "__main__":
    main()
