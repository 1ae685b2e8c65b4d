"""`pbem mail import` (docs/judge.md §3): a player's copy takes only public-record files, verifies, or stays as
it was."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.core.errors import PbemError
from pbem.transport.mail import adapter, bundle

SIDES = ("north", "south")


MAILED: dict[tuple[Path, int], dict[str, bytes]] = {}


@pytest.fixture
def played(tmp_path: Path) -> Path:
    keys = {s: identity.generate(s) for s in SIDES}
    ref = identity.generate("ref")
    d = tmp_path / "judge-side"
    core_game.new_game(d, "rps", "standard", {}, ref, {s: k.public for s, k in keys.items()}, game_id="rps-import")
    MAILED[d, 0] = adapter.entry_files(d, 0)  # taken when the entry is written, as the judge mails it:
    for s in SIDES:  # the referee then prunes its sealed state (protocol §7.5)
        order = core_game.write_order(d, keys[s], s, 0, {"side": s, "step": 0, "throw": "rock"})
        core_game.receive_order(d, ref, order)
    core_game.adjudicate(d, ref, [])
    MAILED[d, 1] = adapter.entry_files(d, 1)
    return d


def entry_files(game_dir: Path, number: int) -> dict[str, bytes]:
    """The files the judge mailed for entry ``number``."""
    return dict(MAILED[game_dir, number])


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.rglob("*") if p.is_file()} if folder.exists() else {}


def imp(src: Path, copy: Path) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["mail", "import", str(src), "--game", str(copy)])
    return res.exit_code, res.output


def test_entries_imported_in_order_build_a_copy_that_verifies(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    for n in (0, 1):
        f = tmp_path / f"b{n}.json"
        f.write_bytes(bundle.dump("rps-import", entry_files(played, n)))
        code, out = imp(f, copy)
        assert code == 0, out
    assert core_game.verify(copy)["entries"] == 2
    code, out = imp(tmp_path / "b1.json", copy)  # the same mail again changes nothing
    assert code == 0 and "imported 0 new file(s)" in out


def test_a_gap_is_refused_and_the_copy_stays_as_it_was(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    f = tmp_path / "b1.json"
    f.write_bytes(bundle.dump("rps-import", entry_files(played, 1)))
    code, out = imp(f, copy)
    assert code == 1 and out.startswith("error: ") and "resend rps-import all" in out
    assert snapshot(copy) == {}


@pytest.mark.parametrize("name", ["../evil.toml", "ledger/../../x.toml", ".pbem/lock", "notes.txt", "/etc/passwd"])
def test_a_name_outside_the_public_record_is_refused(played: Path, tmp_path: Path, name: str) -> None:
    files = entry_files(played, 0)
    files[name] = b"x"
    f = tmp_path / "b.json"
    f.write_bytes(bundle.dump("rps-import", files))
    code, out = imp(f, tmp_path / "copy")
    assert code == 1 and "not a file of the public record" in out
    assert not (tmp_path / "copy").exists() and not (tmp_path / "evil.toml").exists()


def test_a_file_that_differs_from_the_copy_is_refused(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    f = tmp_path / "b0.json"
    f.write_bytes(bundle.dump("rps-import", entry_files(played, 0)))
    assert imp(f, copy)[0] == 0
    before = snapshot(copy)
    doc = json.loads(f.read_text())
    doc["files"]["ledger/0000.toml"] += "# changed\n"
    f.write_text(json.dumps(doc))
    code, out = imp(f, copy)
    assert code == 1 and "differs from the one in" in out
    assert snapshot(copy) == before


@pytest.mark.parametrize("junk", [b"", b"{}", b"not json at all", os.urandom(300), b'{"format": "x"}'])
def test_junk_is_one_error_line(tmp_path: Path, junk: bytes) -> None:
    f = tmp_path / "junk"
    f.write_bytes(junk)
    code, out = imp(f, tmp_path / "copy")
    assert code == 1 and out.startswith("error: ") and "Traceback" not in out
    assert not (tmp_path / "copy").exists()


def test_judge_3_an_import_without_verify_counts_no_entry_and_checks_only_the_manifest(played: Path,
                                                                                         tmp_path: Path) -> None:
    """``bundle.apply(verify=False)`` (a caller that verifies later) writes the files but has verified no
    entry, so it reports 0 entries, not the count it never checked; with verify it reports the count."""
    files = entry_files(played, 0)
    unchecked = bundle.apply(_bundle(tmp_path / "b0.json", files), tmp_path / "unchecked", verify=False)
    assert unchecked.entries == 0 and "ledger/0000.toml" in unchecked.new
    assert (tmp_path / "unchecked" / "ledger" / "0000.toml").read_bytes() == files["ledger/0000.toml"]
    checked = bundle.apply(tmp_path / "b0.json", tmp_path / "checked")
    assert checked.entries == 1 and checked.new == unchecked.new
    # a damaged entry: written unchecked without verify, refused (and nothing kept) with it
    bad = {**files, "ledger/0000.toml": files["ledger/0000.toml"].replace(b"rps-import", b"rps-imporT", 1)}
    assert bundle.apply(_bundle(tmp_path / "bad.json", bad), tmp_path / "bad-unchecked", verify=False).entries == 0
    with pytest.raises(PbemError, match="Nothing was imported"):
        bundle.apply(tmp_path / "bad.json", tmp_path / "bad-checked")
    assert not (tmp_path / "bad-checked" / "ledger" / "0000.toml").exists()


def _bundle(path: Path, files: dict[str, bytes]) -> Path:
    path.write_bytes(bundle.dump("rps-import", files))
    return path
