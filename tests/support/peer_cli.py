"""What the tests of peer games through the real CLI verbs share: a verb that must succeed, and key files."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.main import app
from support.key_files import key_files

runner = CliRunner()
__all__ = ["key_files", "run"]  # key_files: the one helper (support/key_files.py)


def run(*args: str | Path) -> str:
    """The verb's output; the test fails with it if the verb did not succeed."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output
