"""One writer at a time per game folder (docs/protocol.md §7.5).

Every verb that writes a game folder (new, open, start, receive, adjudicate, reveal) holds an
exclusive, non-blocking ``flock`` on ``GAME/.pbem/lock`` while it reads the latest entry and
writes the next: two referee commands on the same game at once would otherwise both build step N
and leave a record that no longer verifies. The second one fails at once with ``GameBusy``
instead of waiting, so a stuck command never hangs a mail robot. The lock is released by the
kernel when the process ends, even when it is killed.
"""

from __future__ import annotations

import fcntl
import functools
import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

from pbem.core.errors import GameBusy

PRIVATE = ".pbem"  # the referee's private area of a game folder (§7): never published
LOCK_NAME = "lock"
GITIGNORE = f"{PRIVATE}/\n"

F = TypeVar("F", bound=Callable[..., Any])


def private_dir(game_dir: Path) -> Path:
    return Path(game_dir) / PRIVATE


@contextmanager
def flock_file(path: Path, busy: Callable[[], Exception], wait: float = 0.0) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` for the ``with`` block, waiting up to ``wait`` seconds;
    when another process still holds it then, raise ``busy()`` (each caller says "busy" its own way)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        give_up = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    raise busy() from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def game_lock(game_dir: Path) -> AbstractContextManager[None]:
    """Hold the game's write lock for the ``with`` block, or raise ``GameBusy`` at once."""
    return flock_file(private_dir(game_dir) / LOCK_NAME, lambda: GameBusy(
        f"game {Path(game_dir)} is busy: another pbem command is writing it; try again in a moment (protocol §7.5)."))


def locked(fn: F) -> F:
    """Run ``fn(game_dir, ...)`` under the game's lock when ``game_dir`` holds a game.

    A folder without ``game.toml`` is not a game: ``fn`` refuses it with its own error, and no
    private area is created there.
    """

    @functools.wraps(fn)
    def wrapper(game_dir: Path, *args: Any, **kwargs: Any) -> Any:
        if not (Path(game_dir) / "game.toml").is_file():
            return fn(game_dir, *args, **kwargs)
        with game_lock(game_dir):
            return fn(game_dir, *args, **kwargs)

    return cast(F, wrapper)  # functools.wraps keeps the signature the type names
