"""Who is told each time a game folder's manifest is read (``ledger.read_manifest``, every verb's one
way into a folder). The player's record of first sightings (``seen.observe``, protocol §8.3) signs up
here when it is imported, so the ledger tells it without importing it, and it reads the ledger: the
dependency runs one way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.core.ledger import Manifest

LISTENERS: list[Callable[[Path, Manifest], None]] = []


def manifest_read(game_dir: Path, man: Manifest) -> None:
    """Tell every listener that ``game_dir``'s manifest ``man`` was just read."""
    for listener in LISTENERS:
        listener(game_dir, man)


__all__ = ["LISTENERS", "manifest_read"]
