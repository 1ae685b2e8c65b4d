"""Protocol v2 hardening (issue 10 items 9 and 13): canonical data, key files, names, salts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pbem.core import commitments, identity
from pbem.core.canonical import MAX_DEPTH, canonical_bytes, canonical_loads
from pbem.core.errors import FormatError


def test_protocol_2_a_lone_surrogate_has_no_canonical_form() -> None:
    for bad in ("\ud800", {"a": ["\udfff"]}, {"\ud800": 1}):
        with pytest.raises(FormatError, match="lone surrogate"):
            canonical_bytes(bad)
    with pytest.raises(FormatError, match="lone surrogate"):
        canonical_loads(b'"\\ud800"')


def test_protocol_2_nesting_is_bounded() -> None:
    ok: object = 1
    for _ in range(MAX_DEPTH):
        ok = [ok]
    canonical_bytes(ok)
    with pytest.raises(FormatError, match="nest"):
        canonical_bytes([ok])
    for depth in (MAX_DEPTH + 1, 100_000):
        with pytest.raises(FormatError, match="nest"):
            canonical_loads(b"[" * depth + b"]" * depth)


def test_protocol_5_1_a_new_key_file_is_0600_from_the_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The secret is written into a file no one else can read: checked at the moment it is flushed."""
    seen: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        seen.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "chmod", lambda *a, **k: pytest.fail("chmod after the secret was written"))
    old = os.umask(0)
    try:
        identity.save_private(identity.generate("ann"), tmp_path / "ann.key")
    finally:
        os.umask(old)
    assert seen == [0o600]
    assert stat.S_IMODE((tmp_path / "ann.key").stat().st_mode) == 0o600


def test_protocol_5_1_scrypt_parameters_asking_for_too_much_memory_are_refused(tmp_path: Path) -> None:
    ident = identity.generate("ann")
    text = identity.private_to_toml(ident, b"pw")
    assert identity.private_from_toml(text, "k", b"pw").public == ident.public
    for old, new in (("n = 32768", "n = 1048576"), ("r = 8", "r = 1024"), ("p = 1", "p = 16")):
        with pytest.raises(FormatError, match="256 MiB"):
            identity.private_from_toml(text.replace(old, new), "k", b"pw")


@pytest.mark.parametrize("name", ["eve\rok", "a\nb", "tab\tname", "esc\x1b[2J", "x" * 65, ""])
def test_protocol_5_names_are_printable(name: str) -> None:
    with pytest.raises(FormatError):
        identity.generate(name)
    pub = identity.public_to_toml(identity.generate("ann").public).replace('name = "ann"', f"name = {name!r}"
                                                                          .replace("'", '"'))
    with pytest.raises(FormatError):
        identity.public_from_toml(pub.replace("\\x1b", "\\u001b"), "pub")


def test_protocol_5_names_may_be_any_printable_text() -> None:
    assert identity.generate("Édouard Longshanks").public.name == "Édouard Longshanks"


def test_protocol_6_a_salt_is_exactly_32_bytes() -> None:
    """A committed 123 must not open as 23 with a 33-byte salt ending in "1"."""
    salt = bytes(range(32))
    committed = commitments.commit("x", salt, 123)
    with pytest.raises(FormatError, match="32 bytes"):
        commitments.check_reveal({"x": committed}, "x", salt + b"1", 23)
    for bad in (b"", salt[:31], salt + b"1"):
        with pytest.raises(FormatError, match="32 bytes"):
            commitments.commit("x", bad, 1)
    commitments.check_reveal({"x": committed}, "x", salt, 123)
