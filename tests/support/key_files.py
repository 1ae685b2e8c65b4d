"""Identity files for the tests that play through the CLI: ``SIDE.key`` and ``SIDE.pub.toml`` per side."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pbem.core import identity


def key_files(folder: Path, sides: Iterable[str]) -> Path:
    """A new folder of key files, one private and one public per side; returns the folder."""
    folder.mkdir(parents=True)
    for s in sides:
        priv = identity.generate(s)
        identity.save_private(priv, folder / f"{s}.key")
        identity.save_public(priv, folder / f"{s}.pub.toml")
    return folder
