"""Step 10 (issue 14), items 5, 7, 8 and 9: the player's and the referee's command line, as used.

5. ``orders auto`` never overwrites plans the player wrote; 7. every ``next:`` hint names the real
files; 8. completion, ``PBEM_KEY``/``PBEM_GAME``, ``status`` lists arrived orders, ``adjudicate``
says what to send to whom; 9. the small slips."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run, runner

from pbem.cli.main import app


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    new_game(tmp_path)
    return tmp_path


def _sealed(game: Path, side: str, name: str, seed: str = "01") -> Path:
    k = game / "keys"
    rep = report_of(game / "g", side)
    run("orders", "auto", rep, "--key", k / f"{side}.key", "--out", game / f"{name}.toml", "--seed", seed)
    run("orders", "seal", game / f"{name}.toml", "--key", k / f"{side}.key", "--game", game / "g",
        "--out", game / f"{name}.asc")
    return game / f"{name}.asc"


# --- item 5 -----------------------------------------------------------------------------------------

def test_step10_item5_orders_auto_keeps_the_plans_the_player_wrote(game: Path) -> None:
    k, rep, draft = game / "keys", report_of(game / "g", "england"), game / "e.toml"
    run("orders", "new", rep, "--key", k / "england.key", "--out", draft)
    text = draft.read_text() + '\n[plans]\nhits = ["Hobelars"]\n'
    draft.write_text(text)
    out = run("orders", "auto", rep, "--key", k / "england.key", "--out", draft, "--seed", "00")
    assert f"kept your [plans] from {draft}" in out and "--bot-plans" in out
    assert tomllib.loads(draft.read_text())["plans"] == {"hits": ["Hobelars"]}
    run("orders", "check", draft, "--report", rep, "--key", k / "england.key")
    out = run("orders", "auto", rep, "--key", k / "england.key", "--out", draft, "--seed", "00", "--bot-plans")
    assert tomllib.loads(draft.read_text())["plans"] != {"hits": ["Hobelars"]}


def test_step10_item5_orders_auto_sends_no_plans_of_its_own_so_standing_plans_stay(game: Path) -> None:
    k, rep, draft = game / "keys", report_of(game / "g", "england"), game / "fresh.toml"
    out = run("orders", "auto", rep, "--key", k / "england.key", "--out", draft, "--seed", "00")
    assert "plans" not in tomllib.loads(draft.read_text()) and "stay in force" in out


def test_step10_item5_orders_auto_refuses_to_overwrite_a_file_that_is_not_a_draft(game: Path) -> None:
    k, rep, notes = game / "keys", report_of(game / "g", "england"), game / "notes.toml"
    notes.write_text("my plans for the war: take Fife\n")
    result = runner.invoke(app, ["orders", "auto", str(rep), "--key", str(k / "england.key"), "--out", str(notes)])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "never overwrites" in result.output
    assert notes.read_text() == "my plans for the war: take Fife\n"


# --- item 7 -----------------------------------------------------------------------------------------

def test_step10_item7_every_next_hint_names_the_real_files(game: Path) -> None:
    k, rep, draft = game / "keys", report_of(game / "g", "england"), game / "mine.toml"
    outputs = [run("report", "open", rep, "--key", k / "england.key", "--svg", game / "m.svg"),
               run("orders", "new", rep, "--key", k / "england.key", "--out", draft),
               draft.read_text(),
               run("orders", "auto", rep, "--key", k / "england.key", "--out", draft, "--seed", "00"),
               run("orders", "check", draft, "--report", rep, "--key", k / "england.key")]
    for text in outputs:
        hints = [line for line in text.splitlines() if "next:" in line or "Edit, then:" in line]
        assert hints, text
        for line in hints:
            assert "THIS" not in line and "REPORT " not in line and " KEY" not in line and "DRAFT" not in line, line
            assert str(k / "england.key") in line, line
    assert str(rep) in outputs[0] and str(draft) in outputs[1] and f"--game {game / 'g'}" in outputs[1]


# --- item 8 -----------------------------------------------------------------------------------------

def test_step10_item8_shell_completion_is_on() -> None:
    out = run("--help")
    assert "--install-completion" in out and "--show-completion" in out


def test_step10_item8_key_and_game_come_from_the_environment_and_the_help_says_so(game: Path) -> None:
    k, rep = game / "keys", report_of(game / "g", "england")
    for verb in (("orders", "new"), ("orders", "check"), ("orders", "auto"), ("orders", "seal"),
                 ("report", "open")):
        text = run(*verb, "--help")
        assert "PBEM_KEY" in text and "PBEM_GAME" in text, verb
    env = {"PBEM_KEY": str(k / "england.key"), "PBEM_GAME": str(game / "g")}
    result = runner.invoke(app, ["orders", "auto", str(rep), "--out", str(game / "e.toml"), "--seed", "00"], env=env)
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["orders", "seal", str(game / "e.toml"), "--out", str(game / "e.asc")], env=env)
    assert result.exit_code == 0 and (game / "e.asc").exists(), result.output
    result = runner.invoke(app, ["status"], env=env)
    assert result.exit_code == 0 and "england owes card" in result.output, result.output


def test_step10_item8_status_lists_which_orders_have_arrived(game: Path) -> None:
    g, k = game / "g", game / "keys"
    assert "orders arrived for step 0: none; still awaited: england, scotland" in run("status", g)
    run("game", "receive", g, _sealed(game, "england", "e"), "--key", k / "referee.key")
    assert "orders arrived for step 0: england; still awaited: scotland" in run("status", g)


def test_step10_item8_adjudicate_ends_with_what_to_send_to_whom(game: Path) -> None:
    g, k = game / "g", game / "keys"
    envs = [_sealed(game, s, s) for s in ("england", "scotland")]
    out = run("adjudicate", g, *envs, "--key", k / "referee.key")
    tail = out[out.index("send:"):]
    for side in ("england", "scotland"):
        assert f"to {side}: {g / 'reports' / f'0001-{side}.pbem'}" in tail
    assert f"all of {g} except its private {g / '.pbem'}/: game.toml, ledger/, orders/, reports/ and state/" in tail


# --- item 9 -----------------------------------------------------------------------------------------

def test_step10_item9_one_side_still_owes_orders(game: Path) -> None:
    result = runner.invoke(app, ["adjudicate", str(game / "g"), str(_sealed(game, "england", "e")),
                                 "--key", str(game / "keys" / "referee.key")])
    assert result.exit_code == 1 and "scotland still owes orders" in result.output, result.output


def test_step10_item9_the_sandbox_help_has_no_gap() -> None:
    text = " ".join(run("sandbox", "--help").replace("│", " ").split())
    assert "and/or to" not in text and "and/or its answers to questions (an answers table)" in text


def test_step10_item9_the_referee_is_not_told_to_send_its_key_to_itself(tmp_path: Path) -> None:
    out = run("key", "new", "referee", "--dir", tmp_path)
    assert "send it to the referee)" not in out and "the referee sends its own to the players" in out


def test_step10_item9_a_second_copy_says_identical_or_replacement(game: Path) -> None:
    g, k = game / "g", game / "keys"
    first = _sealed(game, "england", "e1", "01")
    run("game", "receive", g, first, "--key", k / "referee.key")
    again = run("game", "receive", g, first, "--key", k / "referee.key")
    assert "identical to the order already kept" in again and "nothing changed" in again
    other = _sealed(game, "england", "e2", "02")
    if other.read_bytes() == first.read_bytes():  # pragma: no cover - the seeds draw different cards
        pytest.skip("the two seeds wrote the same order")
    changed = run("game", "receive", g, other, "--key", k / "referee.key")
    assert "a replacement: it differs from order 1, which it replaces" in changed
