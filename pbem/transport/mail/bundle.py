"""The public files a judge's mail carries, and ``pbem mail import`` that applies them to a player's copy.

A bundle is one attachment, ``GAME-NNNN.pbem-files.json``: canonical JSON
``{"format": "pbem-mail-files-v1", "game": ..., "files": {relative name: text}}``. Only names of
the public record are allowed (never ``.pbem/`` nor anything outside the game folder). Importing
writes the new files, then verifies the whole copy; a copy that does not verify is put back as
it was, so a bad or out-of-order mail never spoils it.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pbem.core import inputs
from pbem.core.atomic import write_temp
from pbem.core.errors import FormatError, LedgerError, PbemError
from pbem.transport.mail import adapter

FORMAT = "pbem-mail-files-v1"
SUFFIX = ".pbem-files.json"
MAX_BUNDLE = 8 << 20
MAX_SAVED = 64 << 20  # a saved mail may carry several bundles, base64-encoded


def dump(game: str, files: Mapping[str, bytes]) -> bytes:
    doc = {"format": FORMAT, "game": game, "files": {n: files[n].decode("utf-8") for n in sorted(files)}}
    return json.dumps(doc, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def filename(game: str, entry: int | str) -> str:
    tag = f"{entry:04d}" if isinstance(entry, int) else entry
    return f"{game}-{tag}{SUFFIX}"


def load(data: bytes, where: str) -> tuple[str, dict[str, bytes]]:
    """(game, files) of one bundle, refused when its shape or any name is wrong."""
    if len(data) > MAX_BUNDLE:
        raise FormatError(f"{where} is {len(data)} bytes, over the {MAX_BUNDLE}-byte limit of a files bundle.")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FormatError(f"{where} is not a pbem files bundle (JSON) (docs/judge.md, files).") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("game"), str) \
            or not isinstance(doc.get("files"), dict):
        raise FormatError(f"{where} is not a {FORMAT} bundle (docs/judge.md, files).")
    files: dict[str, bytes] = {}
    for name, text in doc["files"].items():
        if not isinstance(name, str) or not adapter.is_public_name(name) or not isinstance(text, str):
            raise FormatError(f"{where}: {name!r} is not a file of the public record; nothing was imported "
                              "(docs/judge.md, files).")
        files[name] = text.encode("utf-8")
    return doc["game"], files


def bundles_in(path: Path) -> list[tuple[str, bytes]]:
    """Each bundle in a file: the bundle itself, or every bundle attached to a saved mail (.eml)."""
    data = inputs.read_input(path, MAX_SAVED, "a files bundle or a saved mail")
    if data.lstrip().startswith(b"{"):
        return [(str(path), data)]
    msg = email.message_from_bytes(data, policy=email.policy.default)
    found = []
    for part in msg.walk():
        name = part.get_filename() or ""
        if name.endswith(SUFFIX):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                found.append((f"{path}: {name}", payload))
    if not found:
        raise FormatError(f"{path} holds no pbem files bundle (an attachment named GAME-NNNN{SUFFIX}) "
                          "(docs/judge.md, files).")
    return found


@dataclass(frozen=True)
class Imported:
    """What an import did: the game, how many ledger entries the copy now has as verified (0 when the
    import did not verify: nothing was counted), the new files."""

    game: str
    entries: int
    new: tuple[str, ...]


def apply(source: Path, game_dir: Path, *, verify: bool = True) -> Imported:
    """Apply every bundle in ``source`` to the copy in ``game_dir`` and verify it; all or nothing.

    ``verify=False`` (never from the command line) only checks the manifest: for a caller that
    verifies the copy itself later.
    """
    return apply_data(bundles_in(source), game_dir, str(source), verify=verify)


def undo(game_dir: Path, new: tuple[str, ...]) -> None:
    """Take back the files an import added (``Imported.new``), and the folders it left empty: for a
    caller whose next check, after the import, refused what came with it."""
    for name in sorted(new, key=lambda n: (not n.startswith("ledger/"), n)):  # the ledger first, as a step
        target = Path(game_dir) / name
        target.unlink(missing_ok=True)
        for folder in target.parents:
            if folder == Path(game_dir) or not folder.is_dir() or any(folder.iterdir()):
                break
            folder.rmdir()


def apply_data(found: list[tuple[str, bytes]], game_dir: Path, source: str, *, verify: bool = True) -> Imported:
    """``apply`` of bundles already read, as (where, bytes) pairs; ``source`` names them in errors."""
    game_dir = Path(game_dir)
    wanted: dict[str, bytes] = {}
    game = ""
    for where, data in found:
        gid, files = load(data, where)
        if game and gid != game:
            raise FormatError(f"{where} is for game {gid}, but the mail also holds files of game {game}.")
        game = gid
        for name, content in files.items():
            if wanted.get(name, content) != content:
                raise FormatError(f"{where}: two different versions of {name}; nothing was imported.")
            wanted[name] = content
    if (game_dir / "game.toml").exists():
        current = adapter.manifest(game_dir).game
        if current != game:
            raise FormatError(f"{source} is for game {game}, but {game_dir} holds game {current}; nothing was "
                              "imported.")
    new: list[str] = []
    for name, content in sorted(wanted.items()):
        target = game_dir / name
        if target.exists():
            if inputs.read_input(target, inputs.MAX_FILE, "a file of the record", root=game_dir) != content:
                raise LedgerError(f"{source}: {name} differs from the one in {game_dir}; the judge's record and "
                                  "your copy disagree, so nothing was imported (docs/judge.md, files).")
            continue
        new.append(name)
    made_dirs: list[Path] = []
    written: list[Path] = []
    try:
        # the manifest first and the ledger entries last, as a step is written (protocol §7.5)
        for name in sorted(new, key=lambda n: (n != "game.toml", n.startswith("ledger/"), n)):
            target = game_dir / name
            for folder in reversed([target.parent, *target.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    made_dirs.append(folder)
            os.replace(write_temp(target, wanted[name]), target)
            written.append(target)
        entries = 0
        if verify and (game_dir / "ledger").exists():
            entries = int(adapter.verify(game_dir)["entries"])
        else:
            adapter.manifest(game_dir)
    except (PbemError, OSError) as exc:
        for path in reversed(written):
            path.unlink(missing_ok=True)
        for folder in reversed(made_dirs):
            if folder.exists() and not any(folder.iterdir()):
                folder.rmdir()
        if isinstance(exc, PbemError):
            raise type(exc)(f"{exc} Nothing was imported; if your copy misses earlier steps, mail "
                            f"'resend {game} all' to the judge.") from None
        raise
    return Imported(game, entries, tuple(new))
