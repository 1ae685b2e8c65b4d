"""Issue 24, point 7: the small frictions of a player's turn, through the real CLI and files."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run, runner

from pbem.cli.main import app


@pytest.fixture
def game(tmp_path: Path) -> Path:
    new_game(tmp_path)
    return tmp_path


def test_a_mistyped_verb_is_told_the_verb_it_may_mean() -> None:
    top = runner.invoke(app, ["ordrs", "new"])
    assert top.exit_code == 2 and "No such command 'ordrs'. Did you mean 'orders'" in top.output
    inner = runner.invoke(app, ["orders", "sael"])
    assert inner.exit_code == 2 and "Did you mean 'seal'?" in inner.output
    nothing_near = runner.invoke(app, ["xyzzy"])
    assert nothing_near.exit_code == 2 and "Did you mean" not in nothing_near.output


def test_orders_check_finds_the_report_as_seal_does(game: Path) -> None:
    k, g = game / "keys", game / "g"
    rep = report_of(g, "england")
    run("orders", "new", rep, "--key", k / "england.key", "--out", game / "e.toml")
    out = run("orders", "check", game / "e.toml", "--key", k / "england.key", "--game", g)
    assert "e.toml: ok (card orders for england, step 0)" in out
    lost = runner.invoke(app, ["orders", "check", str(game / "e.toml"), "--key", str(k / "england.key")],
                         env={"PBEM_GAME": ""})
    assert lost.exit_code == 1 and "give --report REPORT, or --game GAME" in lost.output
    rep.rename(game / "elsewhere.pbem")
    gone = runner.invoke(app, ["orders", "check", str(game / "e.toml"), "--key", str(k / "england.key"),
                               "--game", str(g)])
    assert gone.exit_code == 1 and "there is no report for step 0 of england at" in gone.output


def test_seal_says_one_line_and_the_details_behind_verbose(game: Path) -> None:
    k, g = game / "keys", game / "g"
    run("orders", "new", report_of(g, "england"), "--key", k / "england.key", "--out", game / "e.toml")
    out = run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", g, "--out", game / "e.asc")
    assert out.strip().splitlines() == [out.strip()] and out.startswith("sealed card orders for england, step 0")
    verbose = run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", g, "--out",
                  game / "e.asc", "--verbose")
    assert "keep the receipt" in verbose and "entropy for a step is fixed" in verbose
