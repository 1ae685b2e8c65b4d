"""A game repository on disk: a bare repository with the referee's hooks, two player clones.

Helpers live here (not in conftest.py) so that their module name is unique across the test tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.core import game, identity, ruleset
from pbem.core.identity import PrivateIdentity
from pbem.transport.git import hooks, setup

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game
ruleset.register("rps", "support.rps_game:RpsRuleset")

HERE = Path(__file__).resolve().parent
PBEM = [sys.executable, str(HERE / "pbem_with_rps.py")]  # the pbem command, with the test ruleset known
HOOK = [*PBEM, "hook"]
OPENED = 600  # the arena's game was opened ten minutes ago with a one-hour deadline: orders sent now are in time
# A clock this far ahead (PBEM_TEST_CLOCK_AHEAD, read by pbem_with_rps.py) is past step 0's deadline, and less
# than an hour ahead of the real one, so what it writes still verifies (protocol §8.3).
PAST_DEADLINE = {"PBEM_TEST_CLOCK_AHEAD": "3300"}


def git(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check)


def pbem(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PBEM, *[str(a) for a in args]], cwd=cwd, capture_output=True, text=True, env=env)


@dataclass
class Arena:
    root: Path
    bare: Path
    referee_key: Path
    keys: dict[str, PrivateIdentity]
    clones: dict[str, Path]

    def order(self, side: str, throw: str = "rock", step: int | None = None, name: str = "",
              clone: Path | None = None) -> Path:
        """A sealed order of ``side`` for the step its clone (or ``clone``) shows, written beside the clones."""
        clone = clone or self.clones[side]
        step = game.status(clone)["step"] if step is None else step
        text = game.write_order(clone, self.keys[side], side, step, {"side": side, "step": step, "throw": throw})
        path = self.root / f"{name or f'{step:04d}-{side}-{throw}'}.asc"
        path.write_text(text, encoding="ascii")
        return path

    def refs(self) -> str:
        return git("for-each-ref", cwd=self.bare).stdout

    def pull(self, side: str) -> None:
        git("pull", "-q", "--ff-only", cwd=self.clones[side])


def _key(name: str, n: int) -> PrivateIdentity:
    return identity.from_seeds(name, bytes([n]) * 32, bytes([n + 100]) * 32)


@pytest.fixture(scope="session")
def _templates(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """One self-hosted and one hosted arena, made once and copied for each test (it saves seconds a test)."""
    made = {}
    for with_hooks in (True, False):
        root = tmp_path_factory.mktemp("hooks" if with_hooks else "hosted")
        a = make_arena(root, with_hooks)
        if not with_hooks:
            git("clone", "-q", str(a.bare), str(root / "ci"))
        made[with_hooks] = root
    return made


def _copy(template: Path, tmp_path: Path, with_hooks: bool) -> Arena:
    """The template arena under ``tmp_path``, its clones and hook settings pointed at the copy."""
    root = tmp_path / "arena"
    shutil.copytree(template, root, symlinks=True)
    bare = root / "game.git"
    clones = {n: root / n for n in ("north", "south", "ci") if (root / n).exists()}
    for clone in clones.values():
        git("remote", "set-url", "origin", str(bare), cwd=clone)
    if with_hooks:
        settings = bare / "pbem-referee" / "settings.toml"
        settings.write_text(settings.read_text().replace(str(template), str(root)))
    keys = {"referee": _key("referee", 1), "north": _key("north", 2), "south": _key("south", 3),
            "outsider": _key("outsider", 4)}
    return Arena(root, bare, root / "secrets" / "referee.key", keys, clones)


@pytest.fixture
def arena(_templates: dict[bool, Path], tmp_path: Path) -> Arena:
    """A self-hosted game: the bare repository runs the referee's hooks."""
    return _copy(_templates[True], tmp_path, True)


@pytest.fixture
def hosted(_templates: dict[bool, Path], tmp_path: Path) -> Arena:
    """A hosted game: the bare repository takes any push (like a git host); a CI checkout referees."""
    return _copy(_templates[False], tmp_path, False)


def make_arena(tmp_path: Path, with_hooks: bool) -> Arena:
    keys = {"referee": _key("referee", 1), "north": _key("north", 2), "south": _key("south", 3),
            "outsider": _key("outsider", 4)}
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    for name, k in keys.items():
        identity.save_private(k, secrets / f"{name}.key")
    g = tmp_path / "referee-game"
    game.new_game(g, "rps", "standard", {}, keys["referee"], {"north": keys["north"].public,
                                                            "south": keys["south"].public},
                  game_id="rps-git", chain_length=20, deadline_hours=1, now=int(time.time()) - OPENED)
    bare = tmp_path / "game.git"
    setup.init(g, bare)
    if with_hooks:
        hooks.install(bare, secrets / "referee.key", command=HOOK)
    clones = {}
    for side in ("north", "south"):
        clones[side] = tmp_path / side
        git("clone", "-q", str(bare), str(clones[side]))
        git("config", "user.name", side, cwd=clones[side])
        git("config", "user.email", f"{side}@example.invalid", cwd=clones[side])
    return Arena(tmp_path, bare, secrets / "referee.key", keys, clones)
