"""Canonical JSON (§2), commitments (§6), the dice beacon (§8), identities (§5)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.key import key_app
from pbem.core import beacon, commitments, identity
from pbem.core.canonical import canonical_bytes, canonical_hash, canonical_loads
from pbem.core.encoding import is_hex64
from pbem.core.errors import DecryptError, FormatError, LedgerError

runner = CliRunner()


def test_protocol_2_canonical_json_sorts_keys_without_spaces_in_utf8() -> None:
    assert canonical_bytes({"b": [1, True, None], "a": "é"}) == '{"a":"é","b":[1,true,null]}'.encode()
    assert canonical_hash({}) == hashlib.sha256(b"{}").hexdigest()


@pytest.mark.parametrize("bad", [1.5, {1: "x"}, {"a": {2}}, [b"x"]])
def test_protocol_2_floats_non_str_keys_and_other_types_are_rejected(bad: object) -> None:
    with pytest.raises(FormatError):
        canonical_bytes(bad)


def test_protocol_2_non_canonical_payload_is_rejected() -> None:
    with pytest.raises(FormatError):
        canonical_loads(b'{"b":1, "a":2}')
    assert canonical_loads(b'{"a":2,"b":1}') == {"a": 2, "b": 1}


def test_protocol_6_partial_reveal_checks_one_item() -> None:
    secret = bytes(32)
    c = commitments.commit_all(secret, "g", 3, {"hand.north": ["a", "b"], "deck": [1, 2]})
    salt = commitments.salt_for(secret, "g", 3, "hand.north")
    commitments.check_reveal(c, "hand.north", salt, ["a", "b"])
    with pytest.raises(LedgerError):
        commitments.check_reveal(c, "hand.north", salt, ["a", "c"])
    assert commitments.commit_all(secret, "g", 4, {"deck": [1, 2]})["deck"] != c["deck"]  # fresh per entry


def test_protocol_8_chain_reveals_hash_back_to_the_anchor() -> None:
    x = bytes(range(32))
    anchor = beacon.anchor(x, 10)
    prev = anchor
    for e in range(10):
        r = beacon.reveal(x, 10, e)
        beacon.check_reveal(prev, r, e)
        assert beacon.h_n(r, e + 1) == anchor
        prev = r
    with pytest.raises(LedgerError):
        beacon.reveal(x, 10, 10)
    with pytest.raises(LedgerError):
        beacon.check_reveal(anchor, beacon.reveal(x, 10, 1), 0)


def test_protocol_8_seed_encoding_is_unambiguous() -> None:
    k, r = bytes(32), bytes([1]) * 32
    a = beacon.step_seed(k, "g", 1, r, [("ab", b"c" * 32)])
    b = beacon.step_seed(k, "g", 1, r, [("a", b"b" + b"c" * 32)])
    assert a != b and len(a) == 32
    assert beacon.step_seed(k, "g", 1, r, [("a", b"")]) != beacon.step_seed(k, "g", 1, r, [])
    assert beacon.step_seed(k, "g", 1, r, []) != beacon.step_seed(bytes([2]) * 32, "g", 1, r, [])


def test_protocol_5_passphrase_protected_key_round_trips(tmp_path: Path) -> None:
    ident = identity.generate("ann")
    identity.save_private(ident, tmp_path / "ann.key", b"correct horse")
    assert identity.load_private(tmp_path / "ann.key", b"correct horse").fingerprint == ident.fingerprint
    with pytest.raises(DecryptError):
        identity.load_private(tmp_path / "ann.key", b"wrong")
    with pytest.raises(DecryptError):
        identity.load_private(tmp_path / "ann.key")
    assert identity.load_public(tmp_path / "ann.key") == ident.public


def test_protocol_5_fingerprint_is_four_groups_of_base32() -> None:
    fp = identity.from_seeds("x", bytes(32), bytes(32)).fingerprint
    assert len(fp) == 19 and fp.count("-") == 3


def test_protocol_5_cli_key_new_and_show(tmp_path: Path) -> None:
    pw = tmp_path / "pw"
    pw.write_text("secret words\n")
    out = runner.invoke(key_app, ["new", "ann", "--dir", str(tmp_path), "--passphrase-file", str(pw)])
    assert out.exit_code == 0, out.output
    fp = out.output.split("fingerprint: ")[1].strip()
    for name in ("ann.key", "ann.pub.toml"):
        shown = runner.invoke(key_app, ["show", str(tmp_path / name)])
        assert shown.exit_code == 0 and shown.output.strip() == f"ann: {fp}"
    again = runner.invoke(key_app, ["new", "ann", "--dir", str(tmp_path)])
    assert again.exit_code == 1 and again.output.startswith("error: ") and "Traceback" not in again.output


def test_protocol_5_tampered_public_identity_is_rejected(tmp_path: Path) -> None:
    ident = identity.generate("bo")
    identity.save_public(ident, tmp_path / "bo.pub.toml")
    text = (tmp_path / "bo.pub.toml").read_text()
    other = identity.generate("x").public.to_dict()["sign"]
    (tmp_path / "bo.pub.toml").write_text(text.replace(ident.public.to_dict()["sign"], other))
    result = runner.invoke(key_app, ["show", str(tmp_path / "bo.pub.toml")])
    assert result.exit_code == 1 and "fingerprint" in result.output


def test_protocol_1_a_hex_sha256_is_exactly_64_lower_case_hex_digits() -> None:
    good = "0123456789abcdef" * 4
    assert is_hex64(good)
    for bad in (good + "\n", good[:-1], good.upper(), good[:-1] + "g", " " + good[1:], "", None, 64, good.encode()):
        assert not is_hex64(bad)
