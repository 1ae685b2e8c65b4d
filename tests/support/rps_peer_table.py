"""The three-player rock-paper-scissors toy with no referee through the real CLI verbs, one folder per side: the
table the peer-mode CLI tests play at (tests/core/test_protocol_peer_mode_rps_cli.py) and the mail tests send by
mail (tests/transport/mail/test_protocol_13_15_peer_mail.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import identity

runner = CliRunner()
SEATS = ("north", "south", "east")
THROWS = {"north": "rock", "south": "scissors", "east": "scissors"}  # north scores every round


def run(*args: str | Path, ok: bool = True) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1, result.output
    return result.output


class Table:
    """Three players, each with its own folder; ``send`` delivers a file to every other side."""

    def __init__(self, tmp: Path, hours: int = 0, name: str = "rps") -> None:
        self.tmp, self.k = tmp, tmp / "keys"
        self.k.mkdir(parents=True)
        for s in SEATS:
            priv = identity.generate(s)
            identity.save_private(priv, self.k / f"{s}.key")
            identity.save_public(priv, self.k / f"{s}.pub.toml")
        self.dirs = {s: tmp / s / name for s in SEATS}
        sides = [a for s in SEATS for a in ("--side", f"{s}={self.k / (s + '.pub.toml')}")]
        run("game", "open", self.dirs["north"], "--ruleset", "rps", "--option", "players=3", "--no-referee",
            "--deadline-hours", str(hours), *sides)
        for s in SEATS[1:]:
            self.dirs[s].mkdir(parents=True)
            shutil.copy(self.dirs["north"] / "game.toml", self.dirs[s] / "game.toml")
        self.n = 0

    def key(self, side: str) -> Path:
        return self.k / f"{side}.key"

    def send(self, side: str, text_file: Path, to: tuple[str, ...] = SEATS) -> None:
        for s in to:
            if s != side:
                run("game", "receive", self.dirs[s], text_file)

    def seal(self, side: str, throw: str | None = None) -> Path:
        self.n += 1
        draft, out = self.tmp / f"d{self.n}.toml", self.tmp / f"m{self.n}.asc"
        if throw is not None:
            step = json.loads((sorted((self.dirs[side] / "ledger").iterdir())[-1]).read_text())["state"]["step"]
            draft.write_text(f'side = "{side}"\nstep = {step}\nthrow = "{throw}"\n', encoding="utf-8")
        run("orders", "seal", draft, "--game", self.dirs[side], "--key", self.key(side), "--out", out)
        return out

    def join_and_start(self) -> None:
        for s in SEATS:
            out = self.tmp / f"join-{s}.asc"
            run("game", "join", self.dirs[s], "--side", s, "--key", self.key(s), "--out", out)
            self.send(s, out)
        for s in SEATS:
            self.send(s, self.seal(s))

    def committed(self, revealed: tuple[str, ...] = ()) -> None:
        """Joined and started, every side's commitment of step 1 sent, and the reveals of ``revealed``."""
        self.join_and_start()
        for s in SEATS:
            self.send(s, self.seal(s, THROWS[s]))
        for s in revealed:
            self.send(s, self.seal(s))

    def round(self, throws: dict[str, str] = THROWS) -> None:
        for s in SEATS:
            self.send(s, self.seal(s, throws[s]))
        for s in SEATS:
            self.send(s, self.seal(s))
