"""A game's component file (protocol §10.3): card data a ruleset reads, public, pinned by its hash.

Why in the protocol and not in a game: every verb that reads a game folder must refuse a
component file other than the one the manifest names, whatever the game. The protocol knows
only the file name, the option holding its SHA-256, and that the bytes must match; what the
file means is the ruleset's business (it declares ``takes_components = True``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.core.errors import FormatError

NAME = "components.toml"
OPTION = "components_sha256"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read(path: Path) -> bytes:
    """The bytes of a component file given on the command line; one sentence when unreadable."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the component file ({exc.strerror or exc}) (protocol §10.3).") from None


def in_game(game_dir: Path, options: Mapping[str, Any]) -> Path | None:
    """``GAME/components.toml`` when the game has one, checked against the manifest; None when it has none.

    Refused: a file whose SHA-256 is not the manifest's ``components_sha256``, or a file in a game
    whose manifest records no component hash."""
    path = Path(game_dir) / NAME
    if not path.exists():
        return None
    if not path.is_file():
        raise FormatError(f"{path} is not a file; a game's component file is a plain file (protocol §10.3).")
    want = options.get(OPTION)
    if not isinstance(want, str) or not want:
        raise FormatError(f"{path}: this game's manifest records no {OPTION}, so the game uses no component file "
                          "from its folder; remove it (protocol §10.3).")
    got = digest(path.read_bytes())
    if got != want:
        raise FormatError(f"{path}: its SHA-256 is {got}, but game.toml records {OPTION} = {want}; this is not "
                          "the component file the game uses (protocol §10.3).",
                          hint="get the game's components.toml again from the referee")
    return path
