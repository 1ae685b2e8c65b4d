"""What the tests of peer games through the real CLI verbs share: a verb that must succeed, and key files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w
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


class HammerByCli:
    """A Braveheart game with no referee opened and joined through the CLI verbs, one folder per side: what the
    tests that play it by verbs share (each then seals its own drafts)."""

    def __init__(self, tmp_path: Path, sides: tuple[str, str]) -> None:
        self.tmp, self.sides = tmp_path, sides
        self.keys = key_files(tmp_path / "keys", sides)
        self.dirs = {s: tmp_path / s / "bh" for s in sides}
        self.sealed = 0
        first, second = sides
        run("game", "open", self.dirs[first], "--ruleset", "hammer", "--scenario", "braveheart", "--no-referee",
            *[a for s in sides for a in ("--side", f"{s}={self.keys / (s + '.pub.toml')}")])
        self.dirs[second].mkdir(parents=True)
        shutil.copy(self.dirs[first] / "game.toml", self.dirs[second] / "game.toml")
        for s in sides:
            out = tmp_path / f"join-{s}.asc"
            run("game", "join", self.dirs[s], "--side", s, "--key", self.keys / f"{s}.key", "--out", out)
            run("game", "receive", self.dirs[self.other(s)], out)

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def seal(self, side: str, draft: dict[str, Any] | None = None) -> None:
        """``side`` seals ``draft`` (None: what it owes needs no draft) and the other folder receives it."""
        self.sealed += 1
        path, out = self.tmp / f"d{self.sealed}.toml", self.tmp / f"m{self.sealed}.asc"
        if draft is not None:
            path.write_text(tomli_w.dumps(draft), encoding="utf-8")
        run("orders", "seal", path, "--game", self.dirs[side], "--key", self.keys / f"{side}.key", "--out", out)
        self.deliver(side, out)

    def deliver(self, side: str, sealed: Path) -> None:
        """The message ``side`` sealed reaches the other folder: here ``game receive``, a file handed over."""
        run("game", "receive", self.dirs[self.other(side)], sealed)

    def play(self, done: Callable[[str], bool], draft: Callable[[str], dict[str, Any] | None], limit: int = 500) -> str:
        """Each side seals what ``pbem status`` says it owes (``draft(side)`` for a commitment or a play, no draft
        otherwise), until ``done(status)`` or the game is over; the last status."""
        for _ in range(limit):
            status = run("status", self.dirs[self.sides[0]])
            if done(status) or "game is over" in status:
                return status
            for s in self.sides:
                if f"{s} owes commit" in status or f"{s} owes play" in status:
                    self.seal(s, draft(s))
                elif f"{s} owes" in status:
                    self.seal(s)
        raise AssertionError(f"not done after {limit} rounds of status: {status}")

    def verify_both_and_compare(self) -> None:
        """Each folder verifies its record, and both hold the same ledger and messages, byte for byte."""
        for s in self.sides:
            assert "verify ok" in run("verify", self.dirs[s])
        first, second = (self.dirs[s] for s in self.sides)
        for sub in ("ledger", "messages"):
            names = sorted(p.name for p in (first / sub).iterdir())
            assert names == sorted(p.name for p in (second / sub).iterdir())
            assert all((first / sub / m).read_bytes() == (second / sub / m).read_bytes() for m in names)
