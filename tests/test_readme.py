"""The README: its two set-up commands are what CI runs and what a new user types, and the
"play a game with a friend" commands it shows run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app

ROOT = Path(__file__).resolve().parent.parent


def _sh_blocks() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [[line for line in b.splitlines() if line.strip()] for b in blocks]


def _readme_commands() -> list[str]:
    blocks = _sh_blocks()
    assert blocks, "the README opens with a sh block of set-up commands"
    return blocks[0]


def test_readme_opens_with_two_setup_commands_demo_then_tests() -> None:
    commands = _readme_commands()
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/pbem demo",
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest",
    ]


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci.splitlines()


def test_readme_points_to_the_guide_and_every_link_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/playing.md" in text
    for link in re.findall(r"\]\(([^)]+)\)", text):
        assert (ROOT / link).exists(), link


def test_readme_the_friend_game_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the README's second block, in a fresh folder: exit 0, step 1 reached."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    commands = _sh_blocks()[1]
    assert len(commands) >= 10
    outputs = []
    for line in commands:
        words = shlex.split(line, comments=True)
        assert words[0] == "pbem", line
        result = runner.invoke(app, words[1:])
        assert result.exit_code == 0, f"{line}\n{result.output}"
        outputs.append(result.output)
    first_status = outputs[next(i for i, line in enumerate(commands) if line.startswith("pbem status"))]
    assert "england owes card" in first_status and "scotland owes card" in first_status
    assert "step 1" in outputs[-1]
    assert (tmp_path / "game1" / "reports" / "0001-england.pbem").exists()
