"""A peer game's shared repository on disk (docs/protocol.md §13.14): a real bare repository, with or without
the peer pre-receive hook, and one clone per side, each its side's game folder.

Helpers live here (not in conftest.py) so that their module name is unique across the test tree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_support import HOOK, git

from pbem.core import identity
from pbem.core.identity import PrivateIdentity
from pbem.core.peer import folder
from pbem.core.peer.rounds import Outcome
from pbem.transport.git import peer_hook, peer_sync

SEATS = ("north", "south", "east")
KEYS: dict[str, PrivateIdentity] = {s: identity.from_seeds(s, bytes([n]) * 32, bytes([n + 100]) * 32)
                                    for n, s in enumerate((*SEATS, "outsider", "england", "scotland"), 2)}
THROWS = {"north": "rock", "south": "scissors", "east": "scissors"}  # north wins every round
CLOCK = 1_700_000_000
# The bot: (side, the side's folder, its outcome) -> its order.
Bot = Callable[[str, Path, Outcome], Any]


def rps(side: str, game_dir: Path, out: Outcome) -> dict[str, Any]:
    return {"side": side, "step": out.state["step"], "throw": THROWS[side]}


@dataclass
class Shared:
    """The bare repository every side pushes to, and each side's clone (its game folder)."""

    root: Path
    bare: Path
    dirs: dict[str, Path]

    def sync(self, side: str) -> peer_sync.Synced:
        return peer_sync.sync(self.dirs[side], KEYS[side])

    def owe(self, side: str, bot: Bot = rps, clock: int = CLOCK) -> bool:
        """The side writes every message it owes now, each slot once (as autoplay does); whether it wrote."""
        d = self.dirs[side]
        wrote: set[tuple[int, str]] = set()
        while True:
            out = folder.outcome(d)
            owed = out.owes.get(side, "")
            slot = (len(out.entries), owed)
            if out.verdict or not owed or owed == "join" or slot in wrote:
                return bool(wrote)
            folder.write_owed(d, KEYS[side], bot(side, d, out) if owed in folder.ORDERED else None, clock)
            wrote.add(slot)

    def play(self, bot: Bot = rps, limit: int = 400, until: Callable[[Outcome], bool] = lambda out: False) -> int:
        """Round after round every side syncs, writes what it owes and syncs again, until nobody writes (or
        ``until`` the outcome a side's sync gives); the rounds played."""
        sides = list(self.dirs)
        for n in range(limit):
            wrote = False
            for s in sides:
                self.sync(s)
                if until(folder.outcome(self.dirs[s])):
                    return n
                if self.owe(s, bot, CLOCK + 60 * n):
                    wrote = True
                    self.sync(s)
            if not wrote:
                for s in sides:
                    self.sync(s)
                return n
        raise AssertionError("the game did not end")

    def tracked(self, side: str) -> list[str]:
        return git("ls-files", cwd=self.dirs[side]).stdout.split()

    def pushed_paths(self) -> set[str]:
        """Every path any commit of the bare repository ever held."""
        out = git("log", "--all", "--format=", "--name-only", cwd=self.bare).stdout
        return {line for line in out.splitlines() if line}


def clone(bare: Path, where: Path) -> Path:
    where.parent.mkdir(parents=True, exist_ok=True)
    git("clone", "-q", str(bare), str(where))
    return where


def shared(root: Path, sides: Sequence[str] = SEATS, ruleset: str = "rps", options: dict[str, Any] | None = None,
           hook: bool = True, name: str = "rps", length: int = 64) -> Shared:
    """A new game: the first side clones the empty shared repository, opens the game in its clone (the hook,
    when there is one, is installed with that manifest), joins and syncs; each other side clones, joins and
    syncs; then every side syncs again to take every join."""
    bare = root / "shared.git"
    git("init", "-q", "--bare", "-b", "main", str(bare))
    first = sides[0]
    dirs = {first: clone(bare, root / first / name)}
    opts = {"players": len(sides)} if options is None else options
    folder.open_game(dirs[first], ruleset, "standard" if ruleset == "rps" else "braveheart", opts,
                     {s: KEYS[s].public for s in sides}, 24, length=length)
    if hook:
        peer_hook.install(bare, dirs[first] / "game.toml", command=HOOK)
    folder.write_join(dirs[first], KEYS[first], first, CLOCK)
    peer_sync.sync(dirs[first], KEYS[first])
    for s in sides[1:]:
        dirs[s] = clone(bare, root / s / name)
        folder.write_join(dirs[s], KEYS[s], s, CLOCK)
        peer_sync.sync(dirs[s], KEYS[s])
    for s in sides[:-1]:  # every clone up to date
        peer_sync.sync(dirs[s], KEYS[s])
    return Shared(root, bare, dirs)


def push(clone_dir: Path, *paths: str, message: str = "cheat", force: bool = False) -> tuple[int, str]:
    """Commit ``paths`` as they are in the clone (added, changed or deleted) and push, as a cheat would by hand:
    git's exit code and what it said."""
    git("add", "-A", "-f", "--", *paths, cwd=clone_dir)
    git("-c", "user.name=x", "-c", "user.email=x@invalid", "commit", "-q", "--allow-empty", "-m", message,
        cwd=clone_dir)
    res = git("push", *(["--force"] if force else []), "origin", "HEAD:refs/heads/main", cwd=clone_dir, check=False)
    return res.returncode, res.stdout + res.stderr
