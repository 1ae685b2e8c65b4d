"""Protocol §3.1: one reader for every file pbem is handed, and nothing in pbem/ that reads around it.

The reader refuses a symbolic link, a device, a FIFO, a socket and a folder with one sentence that
names the path and the rule, counts bytes by reading (``stat`` says 0 for ``/dev/zero``), and never
hangs on a FIFO. A walk of the package's source finds any other read of a file.
"""

from __future__ import annotations

import ast
import os
import socket
from pathlib import Path

import pytest

import pbem
from pbem.core import inputs
from pbem.core.errors import FormatError

PACKAGE = Path(pbem.__file__).parent

# The reads that are not of input, each with why. Keyed by (file, the call as written).
ALLOWED = {
    # the reader itself
    ("core/inputs.py", "os.open"): "the one reader",
    # writers and locks: pbem opens these to write, never to read what someone handed it
    ("core/lock.py", "os.open"): "the game's lock file, opened to lock, never read",
    ("cli/errors.py", "os.open"): "the null device, opened to write standard output into",
    ("core/seen.py", "os.open"): "the record of first sights, a temporary file opened to write it",
    # package data shipped with pbem: part of the program, not input
    ("hammer/rules/board.py", "resources.files('pbem.hammer').joinpath('data', name).read_text"): "package data",
    ("bagpipes/components.py", "resources.files('pbem.bagpipes').joinpath('data', SAMPLE).read_bytes"):
        "package data (the sample component file)",
    ("bagpipes/components.py", "resources.files('pbem.bagpipes').joinpath('data', 'component-format.toml').read_text"):
        "package data (the component file's format)",
    ("board/server.py", "(resources.files('pbem.board') / 'static' / name).read_bytes"):
        "package data (the board's page, script and styles)",
    # a tool's reader, handed in by the CLI: pbem.cli.files.read_text, which reads through the one reader
    ("hammer/play/tools.py", "io.read_text"): "the CLI's ToolIO reader (pbem.cli.files.read_text, the one reader)",
    # not files at all
    ("transport/git/history.py", "tarfile.open"): "a tar stream git archive wrote into memory",
    ("transport/mail/runner.py", "sender.open"): "an SMTP connection",
    ("transport/mail/servers.py", "sender.open"): "an SMTP connection",
    ("transport/mail/player_mail.py", "sender.open"): "an SMTP connection (a player's order mailed)",
    ("cli/board.py", "webbrowser.open"): "the player's browser, opened at the board's address",
}
READS = {"read_bytes", "read_text", "open"}
OTHER_READS = {"tomllib.load", "json.load", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copyfileobj"}


def _reads(path: Path) -> list[tuple[int, str]]:
    """(line, call) of every file read in one module: ``x.read_bytes()``, ``x.read_text()``,
    ``open(...)``, ``x.open(...)``, ``tomllib.load(...)``, ``json.load(...)`` and ``shutil``'s copies."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        if isinstance(fn, ast.Name) and fn.id == "open":
            found.append((node.lineno, fn.id))
        elif isinstance(fn, ast.Attribute) and (fn.attr in READS or ast.unparse(fn) in OTHER_READS):
            found.append((node.lineno, ast.unparse(fn)))
    return found


def test_protocol_3_1_every_reader_in_the_package_goes_through_the_one_reader() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        offenders += [f"pbem/{name}:{line}: {call}" for line, call in _reads(path) if (name, call) not in ALLOWED]
    assert offenders == [], "read these through pbem.core.inputs (protocol §3.1):\n" + "\n".join(offenders)


def test_protocol_3_1_the_allow_list_names_only_reads_that_exist() -> None:
    present = {(path.relative_to(PACKAGE).as_posix(), call)
               for path in PACKAGE.rglob("*.py") for _, call in _reads(path)}
    assert set(ALLOWED) <= present


def _refused(path: Path, *words: str) -> str:
    with pytest.raises(FormatError) as info:
        inputs.read_input(path, 1000, "a test file")
    msg = str(info.value)
    assert str(path) in msg and "§3.1" in msg and msg.count(". ") == 0, msg
    for word in words:
        assert word in msg, msg
    return msg


def test_protocol_3_1_a_symlink_to_dev_zero_is_refused_without_reading(tmp_path: Path) -> None:
    (tmp_path / "zero").symlink_to("/dev/zero")
    _refused(tmp_path / "zero", "symbolic link")


def test_protocol_3_1_a_symlink_to_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"same bytes")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    _refused(tmp_path / "link", "symbolic link")


def test_protocol_3_1_a_device_is_refused() -> None:
    _refused(Path("/dev/zero"), "a device")


def test_protocol_3_1_a_fifo_is_refused_and_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    _refused(tmp_path / "fifo", "FIFO")


def test_protocol_3_1_a_socket_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(tmp_path / "sock"))
        _refused(tmp_path / "sock", "socket")


def test_protocol_3_1_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    _refused(tmp_path / "d", "is a folder")


def test_protocol_3_1_the_limit_is_counted_by_reading(tmp_path: Path) -> None:
    (tmp_path / "exact").write_bytes(b"x" * 1000)
    assert inputs.read_input(tmp_path / "exact", 1000, "a test file") == b"x" * 1000
    (tmp_path / "over").write_bytes(b"x" * 1001)
    _refused(tmp_path / "over", "over the 1000-byte limit")


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_protocol_3_1_a_regular_file_stat_calls_empty_is_still_counted_by_reading() -> None:
    """/proc/self/maps is a regular file whose size, says stat, is 0; it holds kilobytes."""
    assert os.stat("/proc/self/maps").st_size == 0
    _refused(Path("/proc/self/maps"), "over the 1000-byte limit")


def test_protocol_3_1_a_missing_file_is_one_sentence_and_a_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as info:
        inputs.read_input(tmp_path / "nope", 10, "a test file")
    assert isinstance(info.value, FormatError) and str(info.value) == f"{tmp_path / 'nope'}: no such file."


def test_protocol_3_1_a_linked_folder_below_the_game_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "0000.toml").write_bytes(b"entry")
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "ledger").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    path = tmp_path / "g" / "ledger" / "0000.toml"
    assert inputs.read_input(path, 10, "a test file") == b"entry"  # no game folder named: the user's own path
    with pytest.raises(FormatError, match="ledger is a symbolic link, not a folder"):
        inputs.read_input(path, 10, "a test file", root=tmp_path / "g")


def test_protocol_3_1_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    (tmp_path / "latin").write_bytes("côté".encode("latin-1"))
    with pytest.raises(FormatError, match="is not UTF-8 text, so it is not a test file"):
        inputs.read_text_input(tmp_path / "latin", 100, "a test file")


def test_protocol_3_1_a_record_folder_listing_refuses_links_devices_and_fifos(tmp_path: Path) -> None:
    folder = tmp_path / "ledger"
    folder.mkdir()
    (folder / "0000.toml").write_bytes(b"")
    (folder / "sub").mkdir()
    (folder / ".0001.toml.tmp").symlink_to("/dev/zero")  # a temporary name is not part of the record
    assert inputs.list_folder(folder, "the ledger folder") == [("0000.toml", True), ("sub", False)]
    (folder / "0001.toml").symlink_to(folder / "0000.toml")
    with pytest.raises(FormatError, match="0001.toml is a symbolic link"):
        inputs.list_folder(folder, "the ledger folder")
    (folder / "0001.toml").unlink()
    os.mkfifo(folder / "0001.toml")
    with pytest.raises(FormatError, match="0001.toml is a FIFO"):
        inputs.list_folder(folder, "the ledger folder")
    (tmp_path / "linked").symlink_to(folder, target_is_directory=True)
    with pytest.raises(FormatError, match="linked is a symbolic link, not the ledger folder"):
        inputs.list_folder(tmp_path / "linked", "the ledger folder")
