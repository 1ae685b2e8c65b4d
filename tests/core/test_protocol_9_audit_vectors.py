"""The stored audit vectors (tests/core/audit_vectors, protocol §9, §9.2): the reveal bundle of one
stored game audits clean, and each vector that edits one thing in it (the dice secret, an order's
key, an order, a receipt added, the bundle's byte form) is refused with its error kind, in one
sentence naming its section."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from core_support import regenerated

from pbem.core import audit
from pbem.core.errors import PbemError

VECTORS = Path(__file__).parent / "audit_vectors"
FILES = sorted(VECTORS.glob("audit-*.toml"))
GAME = tomllib.loads((VECTORS / "game.toml").read_text(encoding="utf-8"))
NOW = 1_700_000_000 + 86_400  # the clock the stored game is audited at (generate.py)


def _audit(doc: dict, folder: Path) -> dict:
    """Lay the stored game's public folder out in ``folder`` and audit it with the vector's bundle and receipts."""
    for name, text in GAME["files"].items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder.parent / "bundle.json").write_text(doc["bundle"], encoding="utf-8")
    return audit.audit_game(folder, folder.parent / "bundle.json",
                            [(f"receipt {n}", r.encode("ascii")) for n, r in enumerate(doc["receipts"])], now=NOW)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_protocol_9_audit_vector(path: Path, tmp_path: Path) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    if doc["expect"] == "ok":
        lines = _audit(doc, tmp_path / "game")["lines"]
        assert lines[-1].startswith("audit ok: 2 entries replayed") and "1 receipts honoured" in lines[-1], lines
        return
    with pytest.raises(PbemError) as info:
        _audit(doc, tmp_path / "game")
    assert info.value.kind == doc["expect"], f"{path.name}: got {info.value.kind}: {info.value}"
    assert str(info.value).endswith(")."), "every message is one sentence naming its section"
    assert f"§{doc['section']}" in str(info.value), f"{path.name}: the error names another section: {info.value}"


def test_protocol_9_each_audit_vector_makes_one_edit_to_the_stored_game() -> None:
    """Each failing vector is the good bundle with one value changed, or the good one with one receipt
    added, or the good one's text with one byte added (not canonical): it tests one failure kind."""
    docs = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in FILES}
    good = docs.pop("audit-good")
    assert good["bundle"] == GAME["bundle"] and good["receipts"] == [GAME["receipt"]]
    assert {d["expect"] for d in docs.values()} == {"audit", "decrypt", "format"}

    def leaves(value: object, at: str = "") -> dict[str, object]:
        if isinstance(value, dict):
            return {k: v for key, sub in value.items() for k, v in leaves(sub, f"{at}/{key}").items()}
        return {at: value}
    base = leaves(json.loads(good["bundle"]))
    for name, d in docs.items():
        if d["bundle"] != good["bundle"] and json.loads(d["bundle"]) == json.loads(good["bundle"]):
            assert len(d["bundle"]) == len(good["bundle"]) + 1 and d["receipts"] == good["receipts"], name
            continue
        changed = {k for k, v in leaves(json.loads(d["bundle"])).items() if base.get(k) != v}
        assert len(changed) + len(d["receipts"]) - 1 == 1, (name, changed)


def test_protocol_9_the_committed_generator_reproduces_every_audit_vector(tmp_path: Path) -> None:
    made, stored = regenerated(VECTORS, tmp_path)
    assert made == stored
