"""Every kind of bad input named in docs/protocol.md §3-§7: one clear sentence, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from core_support import Keys, order, snapshot

from pbem.core import armor, envelope, game
from pbem.core.errors import (
    ArmorError,
    DecryptError,
    EnvelopeError,
    FormatError,
    PbemError,
    ReplayError,
    SignatureError,
)


def refused(d: Path, keys: Keys, files: list, kind: type[PbemError], **kw: object) -> str:
    """Adjudicate with ``files``: must raise ``kind``, with one sentence, and write nothing."""
    before = snapshot(d)
    with pytest.raises(kind) as info:
        game.adjudicate(d, keys.referee, files, **kw)
    assert snapshot(d) == before
    message = str(info.value)
    assert "\n" not in message and message.endswith(".")
    return message


def test_protocol_4_3_flipped_header_byte_is_rejected(fresh: Path, keys: Keys) -> None:
    raw = armor.dearmor(order(keys, fresh, "north"))
    at = raw.index(b"rps-fresh")
    bad = raw[:at] + b"R" + raw[at + 1 :]
    assert "signature" in refused(fresh, keys, [armor.armor(bad), order(keys, fresh, "south")], SignatureError)


def test_protocol_4_3_flipped_body_byte_is_rejected(fresh: Path, keys: Keys) -> None:
    raw = bytearray(armor.dearmor(order(keys, fresh, "north")))
    raw[-80] ^= 1
    refused(fresh, keys, [armor.armor(bytes(raw)), order(keys, fresh, "south")], SignatureError)


def test_protocol_4_3_flipped_signature_byte_is_rejected(fresh: Path, keys: Keys) -> None:
    raw = bytearray(armor.dearmor(order(keys, fresh, "north")))
    raw[-1] ^= 0x80
    refused(fresh, keys, [armor.armor(bytes(raw)), order(keys, fresh, "south")], SignatureError)


def test_protocol_4_5_order_for_another_game_is_rejected(fresh: Path, played: Path, keys: Keys) -> None:
    # same players and referee, but the order answers the other game's ledger
    other = (fresh.parent / "other")
    game.new_game(other, "rps", "standard", {}, keys.referee, {"north": keys.north.public,
                                                                "south": keys.south.public}, game_id="rps-other")
    msg = refused(fresh, keys, [order(keys, other, "north"), order(keys, fresh, "south")], ReplayError)
    assert "rps-other" in msg


def test_protocol_4_5_order_for_another_step_is_rejected(fresh: Path, keys: Keys) -> None:
    raw = envelope.seal(keys.north, [keys.referee.public], b"{}", game="rps-fresh", kind="order", side="north",
                        step=5, answers=game.status(fresh)["entry_hash"])
    msg = refused(fresh, keys, [armor.armor(raw), order(keys, fresh, "south")], ReplayError)
    assert "step 5" in msg


def test_protocol_4_5_order_answering_an_old_ledger_entry_is_rejected(fresh: Path, keys: Keys) -> None:
    raw = envelope.seal(keys.north, [keys.referee.public], b"{}", game="rps-fresh", kind="order", side="north",
                        step=0, answers="00" * 32)
    assert "answers ledger entry" in refused(fresh, keys, [armor.armor(raw), order(keys, fresh, "south")],
                                             ReplayError)


def test_protocol_4_5_replayed_order_from_an_adjudicated_step_is_rejected(fresh: Path, keys: Keys) -> None:
    first = [order(keys, fresh, "north"), order(keys, fresh, "south", "paper")]
    game.adjudicate(fresh, keys.referee, first)
    assert "already adjudicated" in refused(fresh, keys, first, ReplayError)


def test_protocol_4_5_order_signed_as_the_wrong_side_is_rejected(fresh: Path, keys: Keys) -> None:
    entry = game.status(fresh)["entry_hash"]
    raw = envelope.seal(keys.north, [keys.referee.public], b"{}", game="rps-fresh", kind="order", side="south",
                        step=0, answers=entry)
    assert "south" in refused(fresh, keys, [armor.armor(raw), order(keys, fresh, "north")], SignatureError)
    with pytest.raises(SignatureError):
        game.write_order(fresh, keys.north, "south", 0, {})


def test_protocol_4_5_order_signed_by_a_non_participant_is_rejected(fresh: Path, keys: Keys) -> None:
    entry = game.status(fresh)["entry_hash"]
    raw = envelope.seal(keys.outsider, [keys.referee.public], b"{}", game="rps-fresh", kind="order", side="north",
                        step=0, answers=entry)
    refused(fresh, keys, [armor.armor(raw), order(keys, fresh, "south")], SignatureError)


def test_protocol_4_4_order_sealed_to_the_wrong_recipient_is_rejected(fresh: Path, keys: Keys) -> None:
    entry = game.status(fresh)["entry_hash"]
    raw = envelope.seal(keys.north, [keys.outsider.public], b"{}", game="rps-fresh", kind="order", side="north",
                        step=0, answers=entry)
    refused(fresh, keys, [armor.armor(raw), order(keys, fresh, "south")], DecryptError)


def test_protocol_3_truncated_armor_is_rejected(fresh: Path, keys: Keys, tmp_path: Path) -> None:
    text = order(keys, fresh, "north")
    f = tmp_path / "cut.asc"
    f.write_text("\n".join(text.splitlines()[:-2]))
    assert "truncated" in refused(fresh, keys, [f, order(keys, fresh, "south")], ArmorError)


def test_protocol_3_two_envelopes_in_one_message_are_rejected(fresh: Path, keys: Keys, tmp_path: Path) -> None:
    f = tmp_path / "two.asc"
    f.write_text(order(keys, fresh, "north") + "\n" + order(keys, fresh, "south"))
    assert "more than one envelope" in refused(fresh, keys, [f], ArmorError)


def test_protocol_3_oversized_input_is_rejected(fresh: Path, keys: Keys, tmp_path: Path) -> None:
    f = tmp_path / "big.asc"
    f.write_text(order(keys, fresh, "north") + "x" * armor.MAX_INPUT)
    assert "limit" in refused(fresh, keys, [f, order(keys, fresh, "south")], ArmorError)
    with pytest.raises(FormatError):
        envelope.sign_only(keys.north, b"x" * armor.MAX_INPUT, game="g", kind="order", side="n", step=0)


def test_protocol_7_3_second_order_from_a_side_in_one_batch_is_rejected(fresh: Path, keys: Keys) -> None:
    files = [order(keys, fresh, "north"), order(keys, fresh, "north", "paper"), order(keys, fresh, "south")]
    assert "second order" in refused(fresh, keys, files, EnvelopeError)


def test_protocol_7_3_second_order_before_adjudication_replaces_the_first(fresh: Path, keys: Keys) -> None:
    game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "rock"))
    receipt = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"))
    assert (receipt.side, receipt.step, receipt.seq) == ("north", 0, 2)
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")])
    assert game.status(fresh)["board"]["rounds"][0]["throws"] == ["paper", "rock"]


def test_protocol_7_3_a_refused_replacement_says_the_earlier_order_stays_in_force(fresh: Path, keys: Keys) -> None:
    from pbem.core.errors import IllegalOrder
    bad = game.write_order(fresh, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "lizard"})
    with pytest.raises(IllegalOrder) as first:
        game.receive_order(fresh, keys.referee, bad)
    assert first.value.hint is None or "stays in force" not in first.value.hint  # nothing was kept to stay
    game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "rock"))
    with pytest.raises(IllegalOrder) as second:
        game.receive_order(fresh, keys.referee, bad)
    assert (
        second.value.hint
        == "the order north sent earlier for step 0 stays in force; send a corrected order to replace it"
    )
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "paper")])
    assert game.status(fresh)["board"]["rounds"][0]["throws"] == ["rock", "paper"]


def test_protocol_7_3_incomplete_step_is_refused_unless_the_deadline_passed(fresh: Path, keys: Keys) -> None:
    assert "incomplete" in refused(fresh, keys, [order(keys, fresh, "north", "paper")], PbemError)
    deadline = game.status(fresh)["deadline"]
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north", "paper")], deadline_passed=True, now=deadline)
    info = game.verify(fresh, now=deadline)
    assert "defaults for south" in "\n".join(info["lines"])


def test_protocol_7_3_illegal_order_is_refused_with_its_file(fresh: Path, keys: Keys) -> None:
    bad = game.write_order(fresh, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "lizard"})
    from pbem.core.errors import IllegalOrder
    assert "lizard" in refused(fresh, keys, [bad, order(keys, fresh, "south")], IllegalOrder)


def test_protocol_7_1_wrong_referee_key_is_refused(fresh: Path, keys: Keys) -> None:
    before = snapshot(fresh)
    with pytest.raises(SignatureError):
        game.adjudicate(fresh, keys.outsider, [])
    assert snapshot(fresh) == before
