"""The stored ledger entry and receipt vectors (tests/core/ledger_vectors, protocol §7.1, §7.2, §9.2): a
good entry or receipt reads, and each vector that breaks one rule is refused with its error kind, in one
sentence naming its section."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from core_support import regenerated

from pbem.core import ledger, receipts
from pbem.core.errors import PbemError

VECTORS = Path(__file__).parent / "ledger_vectors"
FILES = sorted(VECTORS.glob("entry-*.toml"))
RECEIPTS = sorted(VECTORS.glob("receipt-*.toml"))


def _read(doc: dict, folder: Path) -> ledger.Entry:
    (folder / "ledger").mkdir(parents=True)
    (folder / "game.toml").write_bytes(doc["manifest"].encode("utf-8"))
    (folder / "ledger" / "0000.toml").write_bytes(doc["entry"].encode("utf-8"))
    man = ledger.parse_manifest(doc["manifest"].encode("utf-8"), "game.toml")
    return ledger.read_entry(folder, doc["number"], man)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_protocol_7_2_ledger_vector(path: Path, tmp_path: Path) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    if doc["expect"] == "ok":
        entry = _read(doc, tmp_path)
        assert (entry.number, entry.kind, entry.owes) == (0, "setup", {"north": "throw", "south": "throw"})
        return
    with pytest.raises(PbemError) as info:
        _read(doc, tmp_path)
    assert info.value.kind == doc["expect"], f"{path.name}: got {info.value.kind}: {info.value}"
    assert str(info.value).endswith(")."), "every message is one sentence naming its section"
    assert f"§{doc['section']}" in str(info.value), f"{path.name}: the error names another section: {info.value}"


def test_protocol_7_2_each_ledger_vector_breaks_one_thing_and_the_kinds_are_all_there() -> None:
    docs = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in FILES}
    good = docs["entry-good"]["entry"].splitlines()
    assert {d["expect"] for d in docs.values()} == {"ok", "ledger", "format"}
    for name, d in docs.items():
        assert d["description"] and d["manifest"] == docs["entry-good"]["manifest"], name
        changed = [line for line in d["entry"].splitlines() if line not in good and not line.startswith("signature")]
        assert len(changed) <= 1 or name == "entry-good", (name, changed)   # one field changed (or the key)


@pytest.mark.parametrize("path", RECEIPTS, ids=[p.stem for p in RECEIPTS])
def test_protocol_9_2_receipt_vector(path: Path) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    man = ledger.parse_manifest(doc["manifest"].encode("utf-8"), "game.toml")
    if doc["expect"] == "ok":
        r = receipts.parse(doc["receipt"], man, path.name)
        assert (r.side, r.step, r.seq, r.seen_at) == ("north", 0, 1, 1_700_000_030)
        return
    with pytest.raises(PbemError) as info:
        receipts.parse(doc["receipt"], man, path.name)
    assert info.value.kind == doc["expect"], f"{path.name}: got {info.value.kind}: {info.value}"
    assert str(info.value).endswith(").") and f"§{doc['section']}" in str(info.value), str(info.value)


def test_protocol_9_2_the_receipt_vectors_cover_good_format_and_signature() -> None:
    assert {tomllib.loads(p.read_text(encoding="utf-8"))["expect"] for p in RECEIPTS} == {"ok", "format", "signature"}


def test_protocol_7_2_verify_prints_each_entry_with_who_owes_next() -> None:
    """verify-summary.txt: the summary of a game played to its end and of one with a default; the
    generator below remakes it (test_protocol_7_2_the_committed_generator...)."""
    text = (VECTORS / "verify-summary.txt").read_text(encoding="utf-8")
    assert "entry 0001: step 0, orders from north, south; next: north owes throw, south owes throw\n" in text
    assert "entry 0003: step 2, orders from north, south; next: nobody owes\n" in text
    assert "entry 0001: step 0, orders from north, defaults for south; next: north owes throw" in text
    assert text.count("nobody owes") == 1


def test_protocol_7_2_the_committed_generator_reproduces_every_ledger_vector(tmp_path: Path) -> None:
    made, stored = regenerated(VECTORS, tmp_path)
    assert made == stored
