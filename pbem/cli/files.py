"""Reading the text files a player hands to ``pbem``, and writing ``--out`` files safely.

Each read names the file and what it should have been when it is missing, a folder, too big or
not UTF-8 text; each write is atomic (pbem.core.atomic.write_atomic) and never lands on a
folder or on the signed record of a game (protocol §7), which would lose the game.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import armor, inputs
from pbem.core.atomic import write_atomic
from pbem.core.errors import FormatError
from pbem.core.lock import PRIVATE

# The files of a game folder (docs/protocol.md §7) that no --out may replace.
RECORD_FOLDERS = ("ledger", "orders", "reports", "state", "joins")


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path``, which should be ``what`` (a draft, a position ...), by the one reader (§3.1)."""
    return inputs.read_text_input(path, armor.MAX_INPUT, what)


def record_file_of_a_game(path: Path) -> Path | None:
    """The game folder whose record (or private area) ``path`` would write into, if any.

    The path is resolved first (a symlinked folder or file leads where it points), and anything
    inside a game's record folders counts, whatever its name or suffix: ``ledger/0003.TOML`` is
    no entry, but it makes verify refuse the whole game (§7.2). Names are compared ignoring case,
    as a case-insensitive file system would.
    """
    path = Path(path).expanduser().resolve()
    if path.name.lower() == "game.toml" and (path.parent / "game.toml").exists():
        return path.parent
    for folder in path.parents:
        if folder.name.lower() in (*RECORD_FOLDERS, PRIVATE) and (folder.parent / "game.toml").exists():
            return folder.parent
    return None


def write_output(path: Path, text: str | bytes, option: str = "--out") -> None:
    """Write ``text`` to ``path`` atomically (creating its folder), refusing a folder or a game's record."""
    path = Path(path)
    if path.is_dir():
        raise FormatError(f"{option} {path} is a folder; give the name of a file to write.")
    game = record_file_of_a_game(path)
    if game is not None:
        raise FormatError(f"{option} {path} is part of the record of the game in {game}; pbem never writes over "
                          "it (protocol §7).", hint="choose another file name")
    for folder in (path.parent, *path.parent.parents):  # the nearest one that exists must be a folder
        if folder.exists():
            if not folder.is_dir():
                raise FormatError(f"{option} {path}: {folder} is a file, not a folder.")
            break
    write_atomic(path, text)
