"""A game's component file (protocol §10.3): card data a ruleset reads, public, pinned by its hash.

Why in the protocol and not in a game: every verb that reads a game folder must refuse a
component file other than the one the manifest names, whatever the game. The protocol knows
only the file name, the option holding its SHA-256, and that the bytes must match; what the
file means is the ruleset's business (it declares ``takes_components = True``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.core import inputs
from pbem.core.errors import FormatError

NAME = "components.toml"
OPTION = "components_sha256"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read(path: Path) -> bytes:
    """The bytes of a component file given on the command line; one sentence when unreadable."""
    return inputs.read_input(path, inputs.MAX_FILE, "a component file (protocol §10.3)")


def in_game(game_dir: Path, options: Mapping[str, Any]) -> Path | None:
    """``GAME/components.toml`` when the game has one, checked against the manifest; None when it has none.

    Refused: a file whose SHA-256 is not the manifest's ``components_sha256``, or a file in a game
    whose manifest records no component hash."""
    path = Path(game_dir) / NAME
    if not os.path.lexists(path):
        return None
    if not inputs.is_file(path):
        raise FormatError(f"{path} is not a regular file; a game's component file is a plain file, never a link "
                          "(protocol §10.3, §3.1).")
    want = options.get(OPTION)
    if not isinstance(want, str) or not want:
        raise FormatError(f"{path}: this game's manifest records no {OPTION}, so the game uses no component file "
                          "from its folder; remove it (protocol §10.3).")
    got = digest(inputs.read_input(path, inputs.MAX_FILE, "a component file (protocol §10.3)", root=Path(game_dir)))
    if got != want:
        raise FormatError(f"{path}: its SHA-256 is {got}, but game.toml records {OPTION} = {want}; this is not "
                          "the component file the game uses (protocol §10.3).",
                          hint="get the game's components.toml again from the referee")
    return path
