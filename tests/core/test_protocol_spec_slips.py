"""Places where docs/protocol.md and pbem disagreed, as an independent verifier written from the text
found them; each is now said one way in the text and held here.

- §8.1: a join's `answers` is the manifest's record hash (§7), not the hash of game.toml's bytes;
- §7.2: `reports` names every side of the manifest, and `orders` ∪ `defaulted` is exactly the sides
  that owed (an equality, not a subset);
- §4.3: a flipped character in a consumed order is a signature error (the signature is checked
  before the file's hash is compared with the ledger's);
- §6: the commitment labels and value shapes of each ruleset are what docs/protocol.md §6.1 lists;
- §9.2: receipt numbers go past 999 (file names `NNNN-SIDE-1000.pbem`).
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import pytest
from core_support import Keys, order

from pbem.core import armor, envelope, game, ledger, receipts
from pbem.core.drbg import Drbg
from pbem.core.errors import LedgerError, SignatureError


def _resign(path: Path, keys: Keys, change: object) -> None:
    doc = tomllib.loads(path.read_text())
    doc.pop("signature")
    change(doc)  # type: ignore[operator]
    path.write_bytes(ledger.dump_signed(doc, keys.referee, ledger.ENTRY_DOMAIN))


def test_protocol_8_1_a_join_answers_the_manifests_record_hash(tmp_path: Path, keys: Keys) -> None:
    d = tmp_path / "g"
    game.open_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                   game_id="rps-joined", chain_length=20)
    join = envelope.read(game.write_join(d, keys.north, "north"))
    manifest_bytes = (d / "game.toml").read_bytes()
    assert join.header.answers == ledger.record_hash(manifest_bytes)
    assert join.header.answers != hashlib.sha256(manifest_bytes).hexdigest()


def test_protocol_7_2_reports_must_name_every_side(played: Path, keys: Keys) -> None:
    _resign(played / "ledger" / "0003.toml", keys, lambda d: d["reports"].pop("south"))
    with pytest.raises(LedgerError, match="field reports must name every side"):
        ledger.verify_record(played)


def test_protocol_7_2_orders_and_defaulted_are_exactly_the_sides_that_owed(played: Path, keys: Keys) -> None:
    def drop_south(d: dict[str, dict[str, object]]) -> None:
        d["orders"].pop("south")
        d["received"].pop("south")
    _resign(played / "ledger" / "0003.toml", keys, drop_south)
    (played / "orders" / "0002-south.pbem").unlink()
    with pytest.raises(LedgerError, match="orders and defaults cover north, but north, south owed orders"):
        ledger.verify_record(played)


def test_protocol_4_3_a_flipped_character_in_a_consumed_order_is_a_signature_error(played: Path) -> None:
    path = played / "orders" / "0001-north.pbem"
    raw = bytearray(armor.dearmor(path.read_text()))
    raw[-1] ^= 1  # the last byte of the signature: the armor stays valid
    path.write_text(armor.armor(bytes(raw)))
    with pytest.raises(SignatureError):
        ledger.verify_record(played)


def test_protocol_6_1_hammer_commitment_labels_and_value_shapes() -> None:
    from pbem.hammer.ruleset import HammerRuleset
    rules = HammerRuleset()
    items = rules.secrets(rules.setup("braveheart", {}, Drbg(b"labels-labels-labels")))
    assert {"hand.england", "hand.scotland", "deck"} <= set(items)
    areas = [label for label in items if label.startswith("area.")]
    assert set(items) == {"hand.england", "hand.scotland", "deck", *areas}
    assert all(items[h] == sorted(items[h]) and len(items[h]) == 5 for h in ("hand.england", "hand.scotland"))
    assert len(items["deck"]) == 15 and set(items["deck"]).isdisjoint(items["hand.england"])
    for label in areas:
        blocks = items[label]
        assert blocks == sorted(blocks) and all(
            isinstance(n, str) and o in ("england", "scotland") and isinstance(s, int) for n, o, s in blocks)


def test_protocol_6_1_bagpipes_commitment_labels_and_value_shapes() -> None:
    from pbem.bagpipes.ruleset import BagpipesRuleset
    rules = BagpipesRuleset(2)
    items = rules.secrets(rules.setup("standard", {"players": 2}, Drbg(b"labels-labels-labels")))
    seats = ("clan1", "clan2")
    assert set(items) == {"round_deck", "round_out", "bagpipe_deck", "dagger_deck",
                          *(f"{kind}.{s}" for s in seats for kind in ("hand", "daggers", "dagger_hand"))}
    assert all(isinstance(v, list) and all(isinstance(c, str) for c in v) for v in items.values())


def test_protocol_9_2_receipt_numbers_go_past_999(fresh: Path, keys: Keys) -> None:
    man = ledger.read_manifest(fresh)
    first = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "rock"))
    entry = ledger.latest(fresh, man)
    forged = receipts.issue(keys.referee, man.game, 0, "north", entry.hash, 999, "ab" * 32, first.received,
                            entry.deadline, first.order, entry.hash, first.received)
    game.receipt_path(fresh, 0, "north", 999).write_text(forged.armored)  # as if 998 more had come in
    assert game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper")).seq == 1000
    assert game.receipt_path(fresh, 0, "north", 1000).name == "0000-north-1000.pbem"
    assert game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "scissors")).seq == 1001
    assert [r.seq for r in receipts.kept(fresh, man, 0, "north")] == [1, 999, 1000, 1001]
