"""schemas/{manifest,ledger-entry,reveal-bundle,receipt}.schema.json describe the real files exactly
(docs/protocol.md §7.1, §7.2, §9, §9.2): files a game wrote validate; a tampered one does not."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from core_support import Keys
from jsonschema import Draft202012Validator

from pbem.core import audit, envelope, game

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors(name: str, doc: dict) -> list[str]:
    return [e.message for e in validator(name).iter_errors(doc)]


def toml(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def hammer_game(tmp_path: Path, keys: Keys) -> Path:
    d = tmp_path / "hammer"
    game.new_game(d, "hammer", "braveheart", {}, keys.referee,
                  {"england": keys.north.public, "scotland": keys.south.public}, chain_length=5)
    return d


def test_protocol_7_1_real_manifests_validate(played: Path, hammer_game: Path) -> None:
    for d in (played, hammer_game):
        assert errors("manifest", toml(d / "game.toml")) == []


def test_protocol_7_2_every_real_ledger_entry_validates(played: Path, hammer_game: Path) -> None:
    paths = sorted((played / "ledger").glob("*.toml")) + sorted((hammer_game / "ledger").glob("*.toml"))
    assert len(paths) == 5
    for p in paths:
        assert errors("ledger-entry", toml(p)) == [], p


def test_protocol_9_a_real_reveal_bundle_validates(played: Path, keys: Keys) -> None:
    bundle = json.loads(audit.dump_reveal(audit.make_reveal(played, keys.referee)))
    assert bundle["orders"]["0000"]["north"]["order"]["throw"] == "paper"
    assert errors("reveal-bundle", bundle) == []


@pytest.mark.parametrize("name, change", [
    ("manifest", lambda d: d.update(extra="field")),
    ("manifest", lambda d: d.pop("dice")),
    ("manifest", lambda d: d["dice"].update(anchor="AB" * 32)),
    ("manifest", lambda d: d["identities"]["north"].update(fingerprint="not-a-fingerprint")),
    ("ledger-entry", lambda d: d.pop("prev")),
    ("ledger-entry", lambda d: d.update(kind="turn")),
    ("ledger-entry", lambda d: d["orders"].update(north="1234")),
    ("ledger-entry", lambda d: d.update(signature="c2ln")),
    ("reveal-bundle", lambda d: d.update(salts={})),
    ("reveal-bundle", lambda d: d["orders"]["0001"]["north"].pop("key")),
    ("reveal-bundle", lambda d: d.update(dice_secret="11")),
    ("reveal-bundle", lambda d: d["orders"]["0001"]["north"].pop("proof")),
    ("manifest", lambda d: d["deadline"].update(hours=-1)),
    ("ledger-entry", lambda d: d.pop("deadline")),
    ("ledger-entry", lambda d: d["received"].update(north=0)),
])
def test_protocol_7_tampered_files_fail_their_schema(played: Path, keys: Keys, name: str, change: object) -> None:
    doc = {"manifest": lambda: toml(played / "game.toml"),
           "ledger-entry": lambda: toml(played / "ledger" / "0002.toml"),
           "reveal-bundle": lambda: audit.make_reveal(played, keys.referee)}[name]()
    assert errors(name, doc) == []
    change(doc)  # type: ignore[operator]
    assert errors(name, doc) != []


def test_protocol_9_2_a_real_receipt_validates(fresh: Path, keys: Keys) -> None:
    from core_support import order

    receipt = game.receive_order(fresh, keys.referee, order(keys, fresh, "north"))
    payload = json.loads(envelope.read(receipt.armored).body)
    assert errors("receipt", payload) == []
    assert errors("receipt", {**payload, "seq": 0}) != []
    assert errors("receipt", {**payload, "extra": 1}) != []
