"""The README and docs/playing.md followed by a referee and two players, as they read: what the
referee sends (protocol §7), hints that run as printed, output into a pipe, the help texts,
PBEM_GAME, a stale report, and the audit of a replaced order's receipt (protocol §9.2, in
tests/core/test_protocol_v2_dice_and_secrets.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run, runner

from pbem.cli.main import VERBS, app
from pbem.core import game as core_game
from pbem.hammer.play.demo import make_keys

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    new_game(tmp_path)
    return tmp_path


def _sealed(game: Path, side: str, name: str) -> Path:
    k = game / "keys"
    run("orders", "auto", report_of(game / "g", side), "--key", k / f"{side}.key", "--out", game / f"{name}.toml",
        "--seed", "01")
    run("orders", "seal", game / f"{name}.toml", "--key", k / f"{side}.key", "--game", game / "g",
        "--out", game / f"{name}.asc")
    return game / f"{name}.asc"


def _step_one(game: Path) -> str:
    """Both sides' card orders adjudicated: the game is at step 1. The referee's output."""
    envs = [_sealed(game, side, side) for side in ("england", "scotland")]
    return run("adjudicate", game / "g", *envs, "--key", game / "keys" / "referee.key")


def _published_parts(out: str, folder: Path) -> list[str]:
    """The parts of the record the ``to everyone`` line names, as file or folder names."""
    line = next(x for x in out.splitlines() if "to everyone (or publish):" in x)
    assert f"except its private {folder / '.pbem'}/" in line, line
    listed = line.rsplit(": ", 1)[1].removesuffix(" (protocol §7)")
    return [part.strip().rstrip("/") for part in re.split(r", | and ", listed)]


def _copy(folder: Path, parts: list[str], to: Path) -> Path:
    to.mkdir()
    for part in parts:
        src = folder / part
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, to / part)
    return to


def _commands(line: str) -> list[list[str]]:
    """The pbem commands a hint line names (``next: A; B``, ``next: edit it, then A; B``), as argument lists."""
    text = line.split("next:", 1)[1].split("  (", 1)[0].replace("edit it, then ", "")
    commands = [shlex.split(c) for c in text.split(";")]
    assert all(c[0] == "pbem" for c in commands), line
    return [c[1:] for c in commands]


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("next:"))


# --- 1. what the referee sends: the public record (protocol §7, playing.md §2 and §4) ---------------------------

def test_playing_4_adjudicate_sends_the_whole_public_record_and_a_copy_of_it_verifies(game: Path) -> None:
    g = game / "g"
    out = _step_one(game)
    parts = _published_parts(out, g)
    assert parts == ["game.toml", "ledger", "orders", "reports", "state"], parts
    assert "(players open reports and seal orders with game.toml and ledger/ alone; pbem verify needs the whole " \
           "public record)" in out
    player_copy = _copy(g, parts, game / "copy")
    assert "ok: 2 entries" in run("verify", player_copy)
    # nothing of the referee's private area: only the copy's own record of first sights (protocol §8.3)
    assert sorted(p.name for p in (player_copy / ".pbem").iterdir()) == ["seen.json", "seen.lock"]


def test_playing_2_the_part_a_player_needs_to_seal_is_game_toml_and_ledger_but_verify_needs_all(game: Path) -> None:
    """What the line says a player needs for what, held to it: seal and report open work on game.toml and
    ledger/ alone, verify refuses that copy."""
    g, k = game / "g", game / "keys"
    _step_one(game)
    side = sorted(core_game.status(g)["owes"])[0]
    thin = _copy(g, ["game.toml", "ledger"], game / "thin")
    inbox = game / "inbox"
    inbox.mkdir()
    report = Path(shutil.copy2(report_of(g, side), inbox))
    run("report", "open", report, "--key", k / f"{side}.key", "--game", thin, "--svg", game / "m.svg")
    run("orders", "auto", report, "--key", k / f"{side}.key", "--game", thin, "--out", game / "s1.toml")
    run("orders", "seal", game / "s1.toml", "--key", k / f"{side}.key", "--game", thin, "--out", game / "s1.asc")
    assert (game / "s1.asc").read_text().startswith("-----BEGIN")
    refused = runner.invoke(app, ["verify", str(thin)])
    assert refused.exit_code == 1 and "missing" in refused.output, refused.output


def test_playing_2_game_start_names_the_joins_among_the_parts_to_publish(tmp_path: Path) -> None:
    k, g = tmp_path / "keys", tmp_path / "g"
    make_keys(k)
    run("game", "open", g, "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    joins = []
    for side in ("england", "scotland"):
        run("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", tmp_path / f"{side}.join")
        joins.append(tmp_path / f"{side}.join")
    out = run("game", "start", g, *joins, "--key", k / "referee.key")
    assert f"to england: {g / 'reports' / '0000-england.pbem'}" in out
    parts = _published_parts(out, g)
    assert parts == ["game.toml", "ledger", "reports", "state", "joins"], parts
    assert "ok: 1 entries" in run("verify", _copy(g, parts, tmp_path / "copy"))


def test_playing_docs_say_the_whole_public_record_is_published_not_game_toml_and_ledger_alone() -> None:
    """Every paragraph of the README and docs/playing.md that tells the referee to publish the
    game's files names the other record folders too."""
    for doc in ("README.md", "docs/playing.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        said = [p for p in text.split("\n\n") if re.search(r"publish|everyone", p) and "game.toml" in p]
        assert said, doc
        for paragraph in said:
            assert "state/" in paragraph and ".pbem/" in paragraph, paragraph


# --- 2. hints that run as printed (playing.md §3) ---------------------------------------------------------------

@pytest.mark.parametrize("by", ["options", "environment"])
def test_playing_3_next_hints_from_an_inbox_carry_the_game_folder_and_run_as_printed(
        game: Path, by: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report opened from an inbox outside the game folder: each printed command runs as it stands."""
    g, key = game / "g", game / "keys" / "england.key"
    inbox = game / "inbox"
    inbox.mkdir()
    report = Path(shutil.copy2(report_of(g, "england"), inbox))
    given = ["--game", str(g), "--key", str(key)] if by == "options" else []
    env = {"PBEM_GAME": str(g), "PBEM_KEY": str(key)} if by == "environment" else {}
    opened = runner.invoke(app, ["report", "open", str(report), "--svg", str(game / "m.svg"), *given], env=env)
    assert opened.exit_code == 0, opened.output
    hint = _hint(opened.output)
    assert f"--game {g}" in hint and f"--key {key}" in hint, hint
    monkeypatch.chdir(game)  # the draft the hint names is written in the current folder
    (new,) = _commands(hint)
    drafted = run(*new)
    check, seal = _commands(_hint(drafted))
    assert f"--game {g}" in shlex.join(check), drafted
    assert ": ok (card orders for england, step 0)" in run(*check)
    run(*seal)
    assert (game / "0000-england-orders.asc").read_text().startswith("-----BEGIN")


def test_playing_3_the_drafts_own_edit_then_line_carries_the_game_folder(game: Path) -> None:
    g, key = game / "g", game / "keys" / "england.key"
    (game / "inbox").mkdir()
    report = Path(shutil.copy2(report_of(g, "england"), game / "inbox"))
    run("orders", "new", report, "--key", key, "--game", g, "--out", game / "d.toml")
    line = next(x for x in (game / "d.toml").read_text().splitlines() if x.startswith("# Edit, then:"))
    check, _ = _commands(line.replace("# Edit, then:", "next:"))
    assert ": ok (card orders" in run(*check)


# --- 3. output into a pipe (playing.md "Output into a pipe") -------------------------------------------------------

def _into_a_closed_pipe(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run ``pbem`` with its standard output a real pipe whose reader has gone (``| head`` after it quit)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], stdout=writer, stderr=subprocess.PIPE,
                              cwd=cwd, timeout=120, check=False)
    finally:
        os.close(writer)


def test_playing_output_into_a_pipe_seal_writes_its_envelope_and_exits_quietly(game: Path) -> None:
    k = game / "keys"
    run("orders", "auto", report_of(game / "g", "england"), "--key", k / "england.key", "--out", game / "e.toml")
    done = _into_a_closed_pipe(["orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", game / "g",
                                "--out", game / "e.asc"], game)
    assert done.stderr == b"" and done.returncode == 141, done.stderr
    assert (game / "e.asc").read_text().startswith("-----BEGIN")


def test_playing_output_into_a_pipe_report_open_still_writes_the_map_and_the_page(game: Path) -> None:
    k = game / "keys"
    done = _into_a_closed_pipe(["report", "open", report_of(game / "g", "scotland"), "--key", k / "scotland.key",
                                "--svg", game / "m.svg", "--html", game / "p.html"], game)
    assert done.stderr == b"" and done.returncode == 141, done.stderr
    assert (game / "m.svg").read_text().startswith("<svg") and "<html" in (game / "p.html").read_text()


def test_playing_output_into_a_pipe_an_error_is_still_an_error(game: Path) -> None:
    done = _into_a_closed_pipe(["verify", game / "nothing-here"], game)
    assert done.returncode == 1 and done.stderr.startswith(b"error: "), done.stderr


def test_playing_output_into_a_pipe_once_the_reader_has_gone_nothing_written_later_fails(tmp_path: Path) -> None:
    """The Python documentation's recipe: standard output is pointed at the null device, so text
    written past ``say`` (a library's, or what is left to flush at exit) cannot raise again."""
    script = ("import os, sys\nfrom pbem.cli.errors import say\nsay('first')\nsay('dropped')\n"
              "os.write(sys.stdout.fileno(), b'late')\nprint('still here', file=sys.stderr)\n")
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-c", script], stdout=writer, stderr=subprocess.PIPE, cwd=tmp_path,
                              timeout=60, check=False)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, b"still here\n"), done.stderr


def test_architecture_every_verb_prints_through_say() -> None:
    """typer.echo on standard output would bring back ``error: a file: Broken pipe.``."""
    for module in sorted((ROOT / "pbem" / "cli").glob("*.py")):
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), 1):
            if "typer.echo(" in line and module.name != "errors.py":
                assert "err=True" in line, f"{module.name}:{number}: {line.strip()}"


# --- 4. help texts, PBEM_GAME, status -------------------------------------------------------------------------------

def _every_verb() -> list[list[str]]:
    verbs = []
    for verb in VERBS:
        text = run(verb.name, "--help")
        names = re.findall(r"^  ([a-z][a-z-]*)\s", text.split("Commands:", 1)[1], re.M) if "Commands:" in text else []
        verbs += [[verb.name, name] for name in names] or [[verb.name]]
    return verbs


def test_architecture_help_usage_names_every_argument_in_capitals() -> None:
    seen = set()
    for verb in _every_verb():
        text = run(*verb, "--help")
        usage = text.splitlines()[0]
        assert "{" not in usage and "}" not in usage, usage
        for word in usage.split()[2 + len(verb):]:
            assert word == word.upper(), usage
            seen.add(word)
        arguments = text.split("Arguments:", 1)[1].split("\n\n", 1)[0] if "Arguments:" in text else ""
        for name in re.findall(r"^  (\S+)", arguments, re.M):
            assert name == name.upper(), (verb, name)
    assert {"GAME_DIR", "[ORDERS]...", "DRAFT", "REPORT", "JOINS..."} <= seen, seen
    missing = runner.invoke(app, ["adjudicate"], env={"PBEM_GAME": ""})
    assert "Missing argument 'GAME_DIR'" in missing.output, missing.output


def test_playing_3_seal_key_help_says_what_seal_does_with_the_key() -> None:
    text = " ".join(run("orders", "seal", "--help").split())
    assert "report open --save" not in text and "it signs the order, so seal always needs it" in text


def test_playing_8_demo_players_help_shows_the_rulesets_default_not_zero() -> None:
    text = " ".join(run("demo", "--help").split())
    assert "[default: 0]" not in text and "default: the ruleset's" in text


def test_playing_7_game_reveal_takes_referee_key_by_default_as_the_other_referee_verbs(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for verb in (["adjudicate"], ["game", "start"], ["game", "receive"], ["game", "reveal"]):
        assert "default: referee.key" in " ".join(run(*verb, "--help").split()), verb
    monkeypatch.chdir(game / "keys")
    run("game", "reveal", game / "g", "--mid-game", "--out", game / "reveal.json")
    assert '"game"' in (game / "reveal.json").read_text()


def test_playing_3_less_typing_pbem_game_stands_for_the_game_folder_of_every_verb(game: Path) -> None:
    g, k = game / "g", game / "keys"
    env = {"PBEM_GAME": str(g)}

    def ok(*args: str | Path) -> str:
        result = runner.invoke(app, [str(a) for a in args], env=env)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    assert "england owes card" in ok("status")
    assert "ok: 1 entries" in ok("verify")
    for side in ("england", "scotland"):
        run("game", "receive", g, _sealed(game, side, side), "--key", k / "referee.key")
    assert "step 1:" in ok("adjudicate", "--key", k / "referee.key")
    ok("game", "reveal", "--key", k / "referee.key", "--mid-game", "--out", game / "reveal.json")
    assert "ok:" in ok("audit", "--reveal", game / "reveal.json")
    for verb in (["verify"], ["audit"], ["adjudicate"], ["game", "reveal"], ["game", "join"], ["status"]):
        assert "PBEM_GAME" in run(*verb, "--help"), verb


def test_playing_3_a_players_status_ends_without_a_blank_line(game: Path) -> None:
    _step_one(game)
    player_copy = _copy(game / "g", ["game.toml", "ledger", "orders", "reports", "state"], game / "copy")
    out = run("status", player_copy)
    assert out == out.rstrip("\n") + "\n" and out.startswith("step 1: ") and "owes" in out, repr(out)
    assert run("status", game / "g").count("\n") == 2  # the referee's: the step and which orders arrived


# --- 5. a stale report (playing.md §3) -------------------------------------------------------------------------------

def test_playing_3_a_report_the_game_has_left_says_so_and_points_to_the_latest(game: Path) -> None:
    g, key = game / "g", game / "keys" / "scotland.key"
    old = report_of(g, "scotland")
    _step_one(game)
    latest = g / "reports" / "0001-scotland.pbem"
    out = run("report", "open", old, "--key", key, "--svg", game / "m.svg")
    assert f"note: this report is for step 0; the game is at step 1, whose report is {latest}" in out
    hint = _hint(out)
    assert "orders new" not in out and hint == f"next: pbem report open {latest} --key {key} --game {g}", hint
    (again,) = _commands(hint)
    opened = run(*again, "--svg", game / "m1.svg")
    assert opened.startswith("game ") and "scotland - step 1\n" in opened and "note:" not in opened
    for verb in (["orders", "new", old, "--key", key, "--out", game / "s0.toml"],
                 ["orders", "auto", old, "--key", key, "--out", game / "s0.toml"],
                 ["orders", "check", game / "s0.toml", "--report", old, "--key", key]):
        said = run(*verb)
        assert "note: this report is for step 0; the game is at step 1" in said and "orders seal" not in said, verb


def test_playing_3_the_latest_report_beside_an_old_one_in_an_inbox_is_the_one_named(game: Path) -> None:
    g, key = game / "g", game / "keys" / "scotland.key"
    inbox = game / "inbox"
    inbox.mkdir()
    old = Path(shutil.copy2(report_of(g, "scotland"), inbox))
    _step_one(game)
    shutil.copy2(g / "reports" / "0001-scotland.pbem", inbox)
    out = run("report", "open", old, "--key", key, "--game", g, "--svg", game / "m.svg")
    assert _hint(out) == f"next: pbem report open {inbox / '0001-scotland.pbem'} --key {key} --game {g}"


def _illegal_draft(game: Path, side: str = "england") -> Path:
    """A bot's card draft whose card is not in the side's hand."""
    draft = game / "illegal.toml"
    run("orders", "auto", report_of(game / "g", side), "--key", game / "keys" / f"{side}.key", "--out", draft,
        "--seed", "01")
    text = draft.read_text()
    play = next(line for line in text.splitlines() if line.startswith("play = "))
    draft.write_text(text.replace(play, 'play = "move1-9"'))
    return draft


def test_playing_3_seal_refuses_an_illegal_draft_with_the_sentence_of_orders_check_and_writes_nothing(
        game: Path) -> None:
    draft, key = _illegal_draft(game), game / "keys" / "england.key"
    checked = runner.invoke(app, ["orders", "check", str(draft), "--report", str(report_of(game / "g", "england")),
                                  "--key", str(key)])
    sealed = runner.invoke(app, ["orders", "seal", str(draft), "--key", str(key), "--game", str(game / "g"),
                                 "--out", str(game / "e.asc")])
    assert checked.exit_code == sealed.exit_code == 1 and "not in england's hand" in sealed.output, sealed.output
    assert sealed.output == checked.output and not (game / "e.asc").exists()


def test_playing_3_seal_without_a_report_seals_unchecked_with_a_note_saying_how_to_check(game: Path) -> None:
    thin = _copy(game / "g", ["game.toml", "ledger"], game / "thin")
    draft, key = _illegal_draft(game), game / "keys" / "england.key"
    out = run("orders", "seal", draft, "--key", key, "--game", thin, "--out", game / "e.asc")
    note = f"note: not checked: there is no report for step 0 at {thin / 'reports' / '0000-england.pbem'}; " \
           f"pbem orders check {draft} --report REPORT --key {key} checks it against your report"
    assert out.splitlines()[0] == note and "(not checked)" in out
    assert (game / "e.asc").read_text().startswith("-----BEGIN")


def test_playing_3_seal_no_check_seals_an_illegal_draft_unchecked(game: Path) -> None:
    draft, key = _illegal_draft(game), game / "keys" / "england.key"
    out = run("orders", "seal", draft, "--key", key, "--game", game / "g", "--out", game / "e.asc", "--no-check")
    assert "(not checked (--no-check))" in out and (game / "e.asc").read_text().startswith("-----BEGIN")


def test_playing_3_seal_checks_against_the_report_given_with_report(game: Path) -> None:
    thin = _copy(game / "g", ["game.toml", "ledger"], game / "thin")  # no report of its own
    report, key = report_of(game / "g", "england"), game / "keys" / "england.key"
    draft = _illegal_draft(game)
    refused = runner.invoke(app, ["orders", "seal", str(draft), "--key", str(key), "--game", str(thin),
                                  "--out", str(game / "e.asc"), "--report", str(report)])
    assert refused.exit_code == 1 and "not in england's hand" in refused.output and not (game / "e.asc").exists()
    run("orders", "auto", report, "--key", key, "--out", draft, "--seed", "01")
    out = run("orders", "seal", draft, "--key", key, "--game", thin, "--out", game / "e.asc", "--report", report)
    assert f"(checked against {report})" in out and (game / "e.asc").exists()
