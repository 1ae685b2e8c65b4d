"""A side's private area (docs/protocol.md §13.1, pbem/core/peer/secrets_file.py) is parsed once per text and
written with the texts of the openings already written reused; what the file holds is still what counts:
its bytes are the canonical JSON of the whole, and a file another program rewrote is read again."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.core.canonical import canonical_bytes
from pbem.core.peer import secrets_file


def _opening(label: str, value: object) -> dict[str, object]:
    return {"label": label, "salt": f"{len(label):064x}", "value": value}


def test_protocol_13_1_the_private_area_written_is_the_canonical_json_of_the_whole(tmp_path: Path) -> None:
    """Save after save, openings added and one replaced by another of the same label: the file's bytes are
    always ``canonical_bytes`` of what was saved (the reused texts never stand for a changed opening)."""
    data = {"chain": "ab" * 32, "openings": {"order.1": _opening("order.1", {"b": [1, 2], "a": "é"})}}
    path = secrets_file.private(tmp_path, "north")
    for n in range(2, 6):
        secrets_file.save(tmp_path, "north", data)
        assert path.read_bytes() == canonical_bytes(data)
        data = secrets_file.load(tmp_path, "north")
        data["openings"][f"order.{n}"] = _opening(f"order.{n}", n)
        data["deals"] = {str(n): {"keys": {"0": "cd" * 32}}}
    data["openings"]["order.1"] = _opening("order.1", {"b": [1, 3], "a": "é"})  # another object, another value
    secrets_file.save(tmp_path, "north", data)
    assert path.read_bytes() == canonical_bytes(data)
    assert json.loads(path.read_bytes())["openings"]["order.1"]["value"] == {"b": [1, 3], "a": "é"}


def test_protocol_13_1_the_private_area_is_what_its_file_holds(tmp_path: Path) -> None:
    """A file rewritten in place by another program (same size) is read again; a change the caller makes to
    what it loaded, and does not save, is not in the next load."""
    secrets_file.save(tmp_path, "north", {"chain": "ab" * 32, "openings": {"x": _opening("x", "n1")}})
    loaded = secrets_file.load(tmp_path, "north")
    loaded["openings"]["y"] = _opening("y", "n2")
    loaded["chain"] = "cd" * 32
    assert secrets_file.load(tmp_path, "north") == {"chain": "ab" * 32, "openings": {"x": _opening("x", "n1")}}
    path = secrets_file.private(tmp_path, "north")
    with open(path, "r+b") as f:  # in place: the same inode, the same size
        f.write(path.read_bytes().replace(b'"n1"', b'"n4"'))
    assert secrets_file.load(tmp_path, "north")["openings"]["x"]["value"] == "n4"
