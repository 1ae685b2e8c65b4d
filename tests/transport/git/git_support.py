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
from support.run_once import run_once

from pbem.core import game, identity, ruleset
from pbem.core.identity import PrivateIdentity
from pbem.transport.git import hooks, player, referee, setup

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
def _templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The arenas tests start from, made once per run (``run_once``: both workers copy the same) and copied
    for each test: a self-hosted and a hosted one at step 0, and the self-hosted one at step 1 (it saves
    seconds a test: each push runs the referee's hooks)."""
    return run_once(tmp_path_factory, "git-arenas", _make_templates)


def _make_templates(folder: Path) -> dict[str, Path]:
    made = {}
    for name, with_hooks in (("hooks", True), ("hosted", False)):
        root = folder / name
        root.mkdir()
        a = make_arena(root, with_hooks)
        if not with_hooks:
            git("clone", "-q", str(a.bare), str(root / "ci"))
        made[name] = root
    made["step 1"] = _step_1(_copy(made["hooks"], folder / "step-1", True))
    return made


def _step_1(a: Arena) -> Path:
    """Step 0 adjudicated by the hooks (north's paper beats south's rock), as two players' submits leave it,
    without the referee's work trees: a work tree's link to its repository is a path, which a copy would
    share with the template (the first push to each copy makes its own, as in a new arena)."""
    player.submit(a.clones["north"], a.order("north", "paper"))
    player.submit(a.clones["south"], a.order("south", "rock"))
    for work in ("work", "push"):
        shutil.rmtree(a.bare / referee.REFEREE_DIR / work, ignore_errors=True)
    git("worktree", "prune", cwd=a.bare)
    return a.root


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
def arena(_templates: dict[str, Path], tmp_path: Path) -> Arena:
    """A self-hosted game: the bare repository runs the referee's hooks."""
    return _copy(_templates["hooks"], tmp_path, True)


@pytest.fixture
def arena_at_step_1(_templates: dict[str, Path], tmp_path: Path) -> Arena:
    """That game at step 1: north sent paper and south rock for step 0, which the hooks adjudicated."""
    return _copy(_templates["step 1"], tmp_path, True)


@pytest.fixture
def hosted(_templates: dict[str, Path], tmp_path: Path) -> Arena:
    """A hosted game: the bare repository takes any push (like a git host); a CI checkout referees."""
    return _copy(_templates["hosted"], tmp_path, False)


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
