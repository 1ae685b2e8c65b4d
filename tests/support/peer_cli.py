"""What the tests of peer games through the real CLI verbs share: a verb that must succeed, and key files."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import identity

runner = CliRunner()


def run(*args: str | Path) -> str:
    """The verb's output; the test fails with it if the verb did not succeed."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def key_files(folder: Path, sides: tuple[str, ...]) -> Path:
    """``SIDE.key`` and ``SIDE.pub.toml`` for each side in ``folder`` (made); returns it."""
    folder.mkdir()
    for s in sides:
        priv = identity.generate(s)
        identity.save_private(priv, folder / f"{s}.key")
        identity.save_public(priv, folder / f"{s}.pub.toml")
    return folder
