"""Every verb of issue 6 end to end through the CLI: game new, status, report open, orders new /
check / seal / auto, adjudicate (with and without --deadline-passed), and the error lines."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from e2e_support import new_game, run, runner, without_home_column
from e2e_support import report_of as report_in

from pbem.cli.main import app
from pbem.core import game as core_game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    new_game(tmp_path)
    return tmp_path


def report_of(game: Path, side: str) -> Path:
    return report_in(game / "g", side)


def test_e2e_status_says_both_sides_owe_a_card(game: Path) -> None:
    out = run("status", game / "g")
    assert "england owes card" in out and "scotland owes card" in out


def test_e2e_report_open_shows_the_board_and_writes_an_svg(game: Path) -> None:
    rep = report_of(game, "scotland")
    out = run("report", "open", rep, "--key", game / "keys" / "scotland.key", "--svg", game / "s.svg")
    assert "Wallace" in out and "you owe: card" in out
    assert "Comyn" not in without_home_column(out)  # an enemy block is never named in Scotland's view


def test_e2e_a_game_turn_by_hand_new_check_seal_adjudicate(game: Path) -> None:
    k = game / "keys"
    envs = []
    for side in ("england", "scotland"):
        rep = report_of(game, side)
        draft = game / f"{side}.toml"
        run("orders", "new", rep, "--key", k / f"{side}.key", "--out", draft)
        run("orders", "check", draft, "--report", rep, "--key", k / f"{side}.key")
        env = game / f"{side}.asc"
        run("orders", "seal", draft, "--key", k / f"{side}.key", "--game", game / "g", "--out", env)
        assert env.read_text().startswith("-----BEGIN")
        envs.append(env)
    out = run("adjudicate", game / "g", *envs, "--key", k / "referee.key")
    assert "step 1" in out
    after = run("status", game / "g")
    # the card step is done: next comes an Event (if a drafted card was one) or the moves
    assert "owes moves" in after or "owes event" in after


def test_e2e_orders_auto_writes_a_draft_that_checks(game: Path) -> None:
    k = game / "keys"
    rep = report_of(game, "england")
    for bot in ("random", "simple"):
        draft = game / f"{bot}.toml"
        run("orders", "auto", rep, "--key", k / "england.key", "--bot", bot, "--out", draft, "--seed", "00ff")
        run("orders", "check", draft, "--report", rep, "--key", k / "england.key")


def test_e2e_adjudicate_refuses_an_incomplete_step_unless_the_deadline_passed(game: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    k = game / "keys"
    rep = report_of(game, "england")
    run("orders", "auto", rep, "--key", k / "england.key", "--out", game / "e.toml")
    out = run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", game / "g", "--out",
              game / "e.asc")
    assert "mail it to the referee by " in out and "keep the receipt" not in out  # one line (issue 24)
    assert len(out.strip().splitlines()) == 1
    out = run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", game / "g", "--out",
              game / "e.asc", "--verbose")
    assert "keep the receipt" in out and "after the deadline of step 0" in out
    result = runner.invoke(app, ["adjudicate", str(game / "g"), str(game / "e.asc"), "--key", str(k / "referee.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "scotland" in result.output
    assert "Traceback" not in result.output
    early = runner.invoke(app, ["adjudicate", str(game / "g"), str(game / "e.asc"), "--key", str(k / "referee.key"),
                                "--deadline-passed"])
    assert early.exit_code == 1 and "it has not passed" in early.output and "Traceback" not in early.output
    deadline = core_game.status(game / "g")["deadline"]
    monkeypatch.setattr("time.time", lambda: float(deadline))  # three days later
    out = run("adjudicate", game / "g", game / "e.asc", "--key", k / "referee.key", "--deadline-passed")
    assert "mail the receipt to england" in out
    assert "step 1" in run("status", game / "g")


def test_e2e_a_bad_draft_is_one_error_line(game: Path) -> None:
    k = game / "keys"
    bad = game / "bad.toml"
    bad.write_text('side = "england"\nstep = 0\nkind = "card"\n[card]\nplay = "move9-9"\n')
    result = runner.invoke(app, ["orders", "check", str(bad), "--report", str(report_of(game, "england")),
                                 "--key", str(k / "england.key")])
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "(3.1)" in result.output and "Traceback" not in result.output


def test_e2e_another_sides_key_cannot_open_a_report(game: Path) -> None:
    result = runner.invoke(app, ["report", "open", str(report_of(game, "england")),
                                 "--key", str(game / "keys" / "scotland.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ")


@pytest.mark.parametrize("scenario, year, options", [("the_bruce", 1306, []),
                                                     ("campaign", 1297, ["--option", "schiltroms=true"])])
def test_e2e_game_new_sets_up_every_scenario_with_options(tmp_path: Path, scenario: str, year: int,
                                                          options: list[str]) -> None:
    from pbem.hammer.play.demo import make_keys
    k = tmp_path / "keys"
    make_keys(k)
    run("game", "new", tmp_path / "g", "--ruleset", "hammer", "--scenario", scenario, *options,
        "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    assert (tmp_path / "g" / "game.toml").exists() and (tmp_path / "g" / "state" / "0000.pbem").exists()
    out = run("report", "open", report_in(tmp_path / "g", "england"), "--key", k / "england.key",
              "--svg", tmp_path / "e.svg")
    assert f"{scenario} {year}" in out and "you owe: card" in out
    assert "england owes card" in run("status", tmp_path / "g")


def test_e2e_game_new_refuses_an_unknown_scenario_in_one_line(tmp_path: Path) -> None:
    from pbem.hammer.play.demo import make_keys
    k = tmp_path / "keys"
    make_keys(k)
    result = runner.invoke(app, ["game", "new", str(tmp_path / "g"), "--ruleset", "hammer", "--scenario", "agincourt",
                                 "--referee", str(k / "referee.key"), "--side", f"england={k / 'england.pub.toml'}",
                                 "--side", f"scotland={k / 'scotland.pub.toml'}"])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "Traceback" not in result.output
    assert not (tmp_path / "g" / "game.toml").exists()


def test_e2e_report_open_shows_battles_with_dice_cards_played_and_writes_the_map(tmp_path: Path) -> None:
    """A report of the scripted example in which Scotland saw a battle."""
    from pbem.core import game as core_game
    from pbem.core import identity
    example = Path(__file__).resolve().parents[2] / "examples" / "game"
    me = identity.load_private(example / "keys" / "scotland.key")
    rep = next(p for p in sorted((example / "game" / "reports").glob("*-scotland.pbem"))
               if any(e.get("what") == "fire" for e in core_game.open_report(p, me)["log"])
               and core_game.open_report(p, me)["asks"] == "card")
    svg = tmp_path / "s.svg"
    out = run("report", "open", rep, "--key", example / "keys" / "scotland.key", "--svg", svg,
              "--save", tmp_path / "s.json")
    assert "fires" in out and "[#0]" in out and "Battle in" in out     # battle logs with dice and their index
    assert "played this year: england: move" in out                  # cards played
    assert "you owe: card" in out and "cards you may play" in out      # what is asked next
    assert "Wallace" in out and "enemy" in out
    picture = svg.read_text()
    assert picture.startswith("<svg") or picture.startswith("<?xml")
    opened = json.loads((tmp_path / "s.json").read_text())
    for b in opened["view"]["blocks"]:                                  # own blocks named, strength/maximum
        assert f">{b['block']} {b['strength']}/{b['steps']}<" in picture
    shown = 0                                                           # enemy blocks: face down, one each,
    for stack in ET.fromstring(picture).iter(f"{SVG}g"):               # or a count badge in a crowded area
        if stack.get("class") == "stack":
            shown += sum(1 for r in stack.iter(f"{SVG}rect") if r.get("class") == "enemy-block")
            shown += sum(int(g.findtext(f"{SVG}text") or 0) for g in stack.iter(f"{SVG}g")
                         if g.get("class") == "stack-count enemy-count")
    assert shown == sum(opened["view"]["enemy_blocks"].values())
    for english in ("Northumber Infantry", "Cumbria Infantry", "Lancaster Knights"):
        assert english not in picture and english not in out.split("what happened")[0]
    saved = run("orders", "new", tmp_path / "s.json", "--out", tmp_path / "d.toml")
    assert "draft written" in saved and 'kind = "card"' in (tmp_path / "d.toml").read_text()


def test_e2e_the_referee_refuses_an_illegal_sealed_order_naming_the_rule_and_writes_nothing(game: Path) -> None:
    """An illegal order sealed unchecked (``--no-check``, or a modified client): the referee refuses it,
    and a refused step changes no file."""
    k = game / "keys"
    envs = []
    for side in ("england", "scotland"):
        rep = report_of(game, side)
        run("orders", "auto", rep, "--key", k / f"{side}.key", "--out", game / f"{side}.toml", "--seed", "01")
        envs.append(game / f"{side}.asc")
    text = (game / "england.toml").read_text()
    play = next(line for line in text.splitlines() if line.startswith("play = "))
    (game / "england.toml").write_text(text.replace(play, 'play = "move1-9"'))
    for side in ("england", "scotland"):
        run("orders", "seal", game / f"{side}.toml", "--key", k / f"{side}.key", "--game", game / "g",
            "--out", game / f"{side}.asc", "--no-check")
    before = {p: p.read_bytes() for p in (game / "g").rglob("*") if p.is_file()}
    result = runner.invoke(app, ["adjudicate", str(game / "g"), *map(str, envs), "--key", str(k / "referee.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "Traceback" not in result.output
    assert "england.asc" in result.output and "(3.1)" in result.output
    assert {p: p.read_bytes() for p in (game / "g").rglob("*") if p.is_file()} == before
