"""Regenerate this example: a short scripted Braveheart game played through the CLI verbs.

    python examples/game/make_example.py

Writes, beside this file: keys/ (three identities; example keys, never use them for a game),
game/ (manifest, ledger, sealed reports and state), drafts/ (the TOML each side wrote: the
simple bot's choices with fixed seeds; Scotland's card and moves drafts carry standing battle
plans edited by hand, docs/plans.md, which ask Scotland to choose which block takes a hit, so
the game has ``decide`` steps when such a hit comes), envelopes/ (the sealed orders) and
receipts/ (the referee's receipt for each order, as the players keep them) and start/ (the sealed
state of the set-up, which the referee prunes from game/ once a step is adjudicated).

tests/e2e/test_examples.py replays it: every draft checks against its report and is what its
envelope carries, drafts and reports match their schemas, the ledger verifies, and
re-adjudicating the envelopes in a fresh copy reproduces the ledger byte for byte (the game runs
on its own clock, ``START`` plus an hour a step, so deadlines and receipt times are fixed). Run this
again only after a deliberate change of a file format or of the rules, and commit the result.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from unittest import mock

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.hammer.play import drafts
from pbem.hammer.play.demo import make_keys

# What a Scottish player writes by hand under the bot's card order (docs/plans.md).
SCOTTISH_PLANS = {"hits": ["Douglas"], "ask": ["hit"],
                  "battle": {"retreat_if_outnumbered": True, "retreat_from_round": 2, "retreat_to": ["Lennox"]}}

HERE = Path(__file__).resolve().parent
STEPS = 8  # a few exchanges: two or three game turns
START = 1_735_689_600  # the example's clock: 2025-01-01 00:00 UTC, then an hour per step


def at(step: int) -> mock._patch:  # type: ignore[type-arg]
    """The game's clock for ``step``: what the referee's machine would read when it writes that step."""
    return mock.patch("time.time", lambda: float(START + step * 3600))


def cli(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exit_code != 0:
        sys.exit(f"pbem {' '.join(map(str, args))} failed:\n{result.output}")
    return result.output


def main() -> None:
    from pbem.core import game as core_game

    for sub in ("game", "drafts", "envelopes", "receipts", "start"):
        shutil.rmtree(HERE / sub, ignore_errors=True)
    if not (HERE / "keys" / "referee.key").exists():  # the example keys stay as committed
        make_keys(HERE / "keys")
    k, g = HERE / "keys", HERE / "game"
    with at(0):
        cli("game", "new", g, "--ruleset", "hammer", "--scenario", "braveheart", "--referee", k / "referee.key",
            "--side", f"england={k / 'england.pub.toml'}", "--side", f"scotland={k / 'scotland.pub.toml'}")
    # The referee prunes each earlier sealed state (protocol §7.5); the test that replays the
    # game from its first step needs the first one, kept here.
    (HERE / "start").mkdir()
    shutil.copyfile(g / "state" / "0000.pbem", HERE / "start" / "0000.pbem")
    (HERE / "drafts").mkdir()
    (HERE / "envelopes").mkdir()
    (HERE / "receipts").mkdir()
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
            with at(step):  # the player reads the step as it is written: its order's first sight (§8.3)
                cli("orders", "auto", rep, "--key", k / f"{side}.key", "--bot", "simple", "--out", draft,
                    "--seed", f"{step:04x}", "--bot-plans")
                d = drafts.parse_draft(draft.read_text(encoding="utf-8"), str(draft))
                if side == "scotland" and "plans" in d.sections:  # the player keeps its own plans
                    d.sections["plans"] = SCOTTISH_PLANS
                    draft.write_text(drafts.dump_draft(d), encoding="utf-8")
                cli("orders", "check", draft, "--report", rep, "--key", k / f"{side}.key")
                cli("orders", "seal", draft, "--key", k / f"{side}.key", "--game", g, "--out", env)
            envs.append(env)
        with at(step + 1):
            cli("adjudicate", g, *envs, "--key", k / "referee.key")
        for receipt in sorted((g / ".pbem" / "receipts").glob(f"{step:04d}-*.pbem")):  # mailed to the players
            shutil.copyfile(receipt, HERE / "receipts" / receipt.name)
    with at(step + 1):
        print(cli("status", g))


if __name__ == "__main__":
    main()
