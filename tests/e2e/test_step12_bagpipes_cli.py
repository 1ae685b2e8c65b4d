"""Issue 15 item 1 / issue 16: Swords and Bagpipes played through the real CLI verbs, which name no game.

game open (players=3), join, start, then every step: report open, orders new or auto, orders check,
orders seal, adjudicate; then verify and audit. And ``pbem demo --ruleset bagpipes --players N``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_support import bagpipes_until_clan1_owes, run, runner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity


def _keys(folder: Path, names: tuple[str, ...]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        priv = identity.generate(name)
        identity.save_private(priv, folder / f"{name}.key")
        identity.save_public(priv, folder / f"{name}.pub.toml")


@pytest.mark.slow
def test_step11_item1_bagpipes_3_players_through_the_real_cli_verbs(tmp_path: Path) -> None:
    k, g, work = tmp_path / "keys", tmp_path / "g", tmp_path / "work"
    clans = ("clan1", "clan2", "clan3")
    _keys(k, ("referee", *clans))
    key_of = {**{c: k / f"{c}.key" for c in clans}, "referee": k / "referee.key"}
    sides = [
        a
        for s in (*clans, "referee")
        for a in ("--side", f"{s}={k / (('referee' if s == 'referee' else s) + '.pub.toml')}")
    ]
    out = run("game", "open", g, "--ruleset", "bagpipes", "--option", "players=3", "--referee", k / "referee.key",
              *sides)
    assert "opened" in out
    work.mkdir()
    joins = []
    for side in (*clans, "referee"):
        run("game", "join", g, "--side", side, "--key", key_of[side], "--out", work / f"join-{side}.asc")
        joins.append(work / f"join-{side}.asc")
    run("game", "start", g, *joins, "--key", k / "referee.key")
    used = set()
    for _ in range(200):
        info = core_game.status(g)
        if not info["owes"]:
            break
        step = int(info["step"])
        envelopes = []
        for n, side in enumerate(sorted(info["owes"])):
            report = core_game.report_path(g, step, side)
            shown = run("report", "open", report, "--key", key_of[side], "--save", work / f"{step}-{side}.json")
            assert f"step {step}" in shown and "Traceback" not in shown
            assert "Cards: INVENTED SAMPLE - not the published cards" in shown   # every report says so
            draft = work / f"{step:04d}-{side}.toml"
            if (step + n) % 2 == 0:   # the template (the safe order) half the time, a bot's order the other half
                run("orders", "new", report, "--key", key_of[side], "--out", draft)
                used.add("new")
            else:
                run("orders", "auto", work / f"{step}-{side}.json", "--out", draft, "--seed", "00" * 8)
                used.add("auto")
            assert ": ok (" in run("orders", "check", draft, "--report", report, "--key", key_of[side])
            env = work / f"{step:04d}-{side}.asc"
            run("orders", "seal", draft, "--key", key_of[side], "--game", g, "--out", env)
            envelopes.append(env)
        run("adjudicate", g, *envelopes, "--key", k / "referee.key")
    final = core_game.status(g)
    assert final["owes"] == {} and final["result"]["reason"], final["result"]
    assert used == {"new", "auto"}
    saved = json.loads(sorted(work.glob("*-clan*.json"))[0].read_text(encoding="utf-8"))
    assert saved["ruleset"] == "bagpipes"   # a saved report says which game it belongs to
    run("verify", g)
    bundle = tmp_path / "reveal.json"
    run("game", "reveal", g, "--key", k / "referee.key", "--out", bundle)
    run("audit", g, "--reveal", bundle)


def test_step11_item1_a_draft_breaking_a_bagpipes_rule_is_refused_by_orders_check(tmp_path: Path) -> None:
    k, work = tmp_path / "keys", tmp_path / "work"
    report = bagpipes_until_clan1_owes(tmp_path)
    draft = work / "d.toml"
    run("orders", "new", report, "--key", k / "clan1.key", "--out", draft)
    text = draft.read_text(encoding="utf-8")
    round_now = next(line for line in text.splitlines() if line.startswith("round = "))
    draft.write_text(text.replace(round_now, f"round = {int(round_now.split()[-1]) + 1}"), encoding="utf-8")
    result = runner.invoke(app, ["orders", "check", str(draft), "--report", str(report), "--key", str(k / "clan1.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "this is round" in result.output


def test_step11_item1_game_open_refuses_a_bad_player_count_in_one_line(tmp_path: Path) -> None:
    k = tmp_path / "keys"
    _keys(k, ("referee", "clan1"))
    result = runner.invoke(app, ["game", "open", str(tmp_path / "g"), "--ruleset", "bagpipes", "--option", "players=7",
                                 "--referee", str(k / "referee.key"), "--side", f"clan1={k / 'clan1.pub.toml'}"])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "2 to 6" in result.output
    assert not (tmp_path / "g").exists()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 6])
def test_step12_item6_pbem_demo_ruleset_bagpipes_plays_every_player_count(tmp_path: Path, players: int) -> None:
    """The demo verb at both ends of the seat count: 2 (the two-player dagger hands) and 6 (Stay Home!).
    The middle counts play whole protocol games, verified and audited, elsewhere: 3 clans through the CLI's
    verbs (test_step11_item1_bagpipes_3_players_through_the_real_cli_verbs), 4 in the draws test
    (test_draws_every_draw_of_a_bagpipes_game_is_recomputed_from_the_text[4]), 5 in
    test_SB_8_full_protocol_bot_game_verifies_and_audits[5]; the demo's code names no count."""
    out = run("demo", "--ruleset", "bagpipes", "--players", str(players), "--folder", tmp_path / "d")
    assert f"Swords and Bagpipes, {players} players" in out
    assert "cards: INVENTED SAMPLE - not the published cards" in out   # the demo says its cards are invented
    assert "verify: ok; audit: ok" in out


def test_step11_item1_demo_refuses_a_player_count_the_game_does_not_seat(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--ruleset", "bagpipes", "--players", "7", "--folder", str(tmp_path / "d")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "2 to 6" in result.output
    result = runner.invoke(app, ["demo", "--players", "3", "--folder", str(tmp_path / "e")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "exactly 2" in result.output


def test_step11_item1_the_demo_says_verify_failed_and_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 item 1: ``bool(verify(...))`` was always true; a failing verify is now said, and the exit is 1."""
    from pbem.core.errors import LedgerError

    def broken(game_dir: Path, now: int | None = None) -> dict[str, object]:
        raise LedgerError("entry 3 is not signed by the referee (test).")

    monkeypatch.setattr(core_game, "verify", broken)
    result = runner.invoke(app, ["demo", "--ruleset", "bagpipes", "--players", "2", "--folder", str(tmp_path / "d")])
    assert result.exit_code == 1
    assert "verify: FAILED; audit: FAILED" in result.output and "verify failed: entry 3" in result.output


def test_step11_item1_the_hammer_demo_summary_says_verify_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.core.errors import LedgerError
    from pbem.hammer.play.demo import play_bot_game

    def broken(game_dir: Path, now: int | None = None) -> dict[str, object]:
        raise LedgerError("entry 3 is not signed by the referee (test).")

    monkeypatch.setattr(core_game, "verify", broken)
    s = play_bot_game(tmp_path / "d", max_steps=3)
    assert (s.verified, s.audited) == (False, False) and s.problems == ["verify failed: entry 3 is not signed by "
                                                                         "the referee (test)."]
    assert "verify: FAILED; audit: FAILED" in s.lines()


SAMPLE_TEXT = (Path(__file__).parents[2] / "pbem" / "bagpipes" / "data" / "sample-components.toml").read_text()
BROKEN_FILES = [('{ op = "gain_gold", who = "self", n = 1 }', '{ op = "gain_gold", who = "self", n = "two" }', "n"),
                ("crown_split = false", 'crown_split = "false"', "crown_split"),
                ("x2 = true", 'x2 = "true"', "x2"),
                ("refers_to_badge = true", 'refers_to_badge = "true"', "refers_to_badge"),
                ("excluded_players = [2]", 'excluded_players = ["two"]', "excluded_players"),
                ('copies = 1\ntiming = "purse"', 'copies = 0\ntiming = "purse"', "copies")]


@pytest.mark.parametrize("good,bad,field", BROKEN_FILES, ids=[b[2] for b in BROKEN_FILES])
def test_SB_2_game_open_refuses_a_broken_component_file_in_one_line_naming_file_line_and_field(
        tmp_path: Path, good: str, bad: str, field: str) -> None:
    k = tmp_path / "keys"
    _keys(k, ("referee", "clan1", "clan2", "clan3", "clan4"))
    text = SAMPLE_TEXT.replace(good, bad, 1)
    line = text[:text.index(bad)].count("\n") + 1
    comps = tmp_path / "cards.toml"
    comps.write_text(text, encoding="utf-8")
    sides = [a for s in ("clan1", "clan2", "clan3", "clan4", "referee")
             for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]
    result = runner.invoke(app, ["game", "open", str(tmp_path / "g"), "--ruleset", "bagpipes", "--option", "players=4",
                                 "--components", str(comps), "--referee", str(k / "referee.key"), *map(str, sides)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"error: {comps}:{line}: ") and f"{field} " in result.output, result.output
    assert not (tmp_path / "g").exists()
    checked = runner.invoke(app, ["components", "check", str(comps)])
    assert checked.exit_code == 1 and checked.output == result.output


def test_SB_2_pbem_components_check_plays_every_card_once_and_says_what_it_does(tmp_path: Path) -> None:
    comps = tmp_path / "cards.toml"
    comps.write_text(SAMPLE_TEXT, encoding="utf-8")
    out = run("components", "check", comps)
    assert "sample-arms-5" in out and "Sandbox: 5 players" in out and out.rstrip().endswith("sandbox above.")
    lines = out.splitlines()
    honour = lines.index(next(ln for ln in lines if ln.startswith("round card sample-arms-5")))
    assert lines[honour + 1].strip() == "once phase 3 is over: clan1 gold +1"     # the holder, not clan5 (home)
    spoils = lines.index(next(ln for ln in lines if ln.startswith("bagpipe card sample-spoils")))
    assert lines[spoils + 1].strip() == "Scotland won: clan2 gold +2; clan2 bagpipe cards -1"
    assert lines[spoils + 2].strip() == "England won: clan2 bagpipe cards -1"
    for face in ("sample-levy", "sample-tax", "sample-rally", "sample-ambush", "sample-pickpocket",
                 "sample-confession", "sample-honour", "sample-omen"):
        assert any(ln.startswith(f"bagpipe card {face} ") for ln in lines), face
    assert "clan5" not in "\n".join(ln for ln in lines if ln.startswith("    "))   # Stay Home!: never touched


@pytest.mark.slow
def test_SB_5_a_4_player_round_by_hand_from_docs_bagpipes_orders(tmp_path: Path) -> None:
    """One round of a 4-player game through the CLI, every draft written as docs/bagpipes-orders.md shows:
    plans with [[program]] alternatives and the holder's badge preference, a window asked for, choices;
    an ignored field and a badge-rule breach refused by orders seal in one line naming the rule."""
    k, g, work = tmp_path / "keys", tmp_path / "g", tmp_path / "work"
    clans = ("clan1", "clan2", "clan3", "clan4")
    _keys(k, ("referee", *clans))
    sides = [a for s in (*clans, "referee") for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]
    run("game", "open", g, "--ruleset", "bagpipes", "--option", "players=4", "--option", "start_seat=clan1",
        "--referee", k / "referee.key", *sides)
    work.mkdir()
    for side in (*clans, "referee"):
        run("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", work / f"join-{side}.asc")
    run("game", "start", g, *[work / f"join-{s}.asc" for s in (*clans, "referee")], "--key", k / "referee.key")

    def draft(side: str, extra: str) -> Path:
        step = int(core_game.status(g)["step"])
        report = core_game.report_path(g, step, side)
        path = work / f"{step}-{side}.toml"
        run("orders", "new", report, "--key", k / f"{side}.key", "--game", g, "--out", path)
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
        return path

    def seal(side: str, path: Path) -> Path:
        env = path.with_suffix(".asc")
        run("orders", "seal", path, "--key", k / f"{side}.key", "--game", g, "--out", env)
        return env

    def settle() -> dict[str, Any]:
        """A manual round card asks the referee seat for a ruling (docs/bagpipes-orders.md §10): its default."""
        info = core_game.status(g)
        while info["owes"] == {"referee": "ruling"}:
            run("adjudicate", g, seal("referee", draft("referee", "")), "--key", k / "referee.key")
            info = core_game.status(g)
        return dict(info)

    def refused(side: str, path: Path, says: str) -> None:
        result = runner.invoke(app, ["orders", "seal", str(path), "--key", str(k / f"{side}.key"), "--game", str(g),
                                     "--out", str(path.with_suffix(".asc"))])
        assert result.exit_code == 1 and result.output.count("\n") == 1 and says in result.output, result.output

    refused("clan2", draft("clan2", 'badge = { prefer = ["clan3"] }\n'),
            "only the Badge of Honour holder (clan1) names who gets it next [SB-5.3]")
    refused("clan1", draft("clan1", 'badge = { prefer = ["clan1"] }\n'), "you cannot keep it")
    plans = {
        "clan1": 'badge = { prefer = ["clan3", "clan2"], ask = false }\n\n[[program]]\n'
                 'turn = { replenish = "raise_militia", relocate = "all" }\n',
        "clan2": '[[program]]\nguard = { gold_at_least = 1 }\nturn = { replenish = "hire_mercenaries", '
                 'relocate = "all", order = ["replenish", "cards", "relocate"] }\n',
        "clan3": 'on_fail = "default"\n\n[[program]]\nturn = { replenish = "assemble_troops", relocate = 5 }\n',
        "clan4": "",
    }
    run("adjudicate", g, *[seal(s, draft(s, plans[s])) for s in clans], "--key", k / "referee.key")
    info = settle()
    assert info["owes"] == {s: "choice" for s in clans}, info
    shown = run("report", "open", core_game.report_path(g, int(info["step"]), "clan3"), "--key", k / "clan3.key")
    # the board line, not the log: when the round card is ruled by hand, the ruling's step comes between
    assert "Badge of Honour: clan3 (given by clan1" in shown and "You hold the Badge of Honour" in shown
    assert "Order of turns and card windows this round: clan3, clan4, clan1, clan2" in shown
    refused("clan2", draft("clan2", 'giveaway = "give"\n'),
            "the field giveaway would be ignored for clan2: only the 2-player game has the badge give-away")
    choices = {"clan1": 'tokens = { play = [], ask = true }\n', "clan2": "", "clan3": "", "clan4": ""}
    envs = []
    for side in clans:
        path = draft(side, choices[side])
        if side in ("clan2", "clan4"):
            path.write_text(path.read_text(encoding="utf-8").replace('loyalty = "scotland"', 'loyalty = "england"'),
                            encoding="utf-8")
        envs.append(seal(side, path))
    run("adjudicate", g, *envs, "--key", k / "referee.key")
    info = settle()
    assert info["owes"] == {"clan1": "window"}, info
    idle = run("report", "open", core_game.report_path(g, int(info["step"]), "clan2"), "--key", k / "clan2.key")
    assert "Your sealed choice this round: england" in idle and idle.rstrip().endswith("waiting for clan1")
    run("adjudicate", g, seal("clan1", draft("clan1", "")), "--key", k / "referee.key")
    info = settle()
    assert info["owes"] == {s: "plan" for s in clans}
    shown = run("report", "open", core_game.report_path(g, int(info["step"]), "clan2"), "--key", k / "clan2.key")
    assert "The choice tokens are revealed: clan1 scotland, clan2 england, clan3 scotland, clan4 england." in shown
    run("verify", g)
