"""Protocol §2 and §3 read by their fast paths: canonical_bytes skips naming paths for plain
data, and dearmor reads text exactly as armor wrote it without going line by line. Each must
give what the full reading gives, and refuse what it refuses."""

from __future__ import annotations

import json
import os

import pytest

from pbem.core import armor
from pbem.core.canonical import MAX_DEPTH, canonical_bytes
from pbem.core.errors import ArmorError, FormatError


@pytest.mark.parametrize("size", [1, 2, 3, 47, 48, 49, 1000, 4097])
def test_protocol_3_armor_as_written_and_as_mail_changes_it_reads_back_the_same(size: int) -> None:
    data = os.urandom(size)
    text = armor.armor(data)
    assert armor.dearmor(text) == data
    assert armor.dearmor(text.replace("\n", "\r\n")) == data  # CRLF: the line-by-line reading
    assert armor.dearmor("> " + text.replace("\n", "\n> ")) == data  # quoted


def test_protocol_3_armor_cut_or_altered_is_refused_on_the_fast_path_too() -> None:
    text = armor.armor(os.urandom(200))
    lines = text.split("\n")
    with pytest.raises(ArmorError, match="columns"):
        armor.dearmor("\n".join(lines[:2] + [lines[2][:-4]] + lines[3:]))
    with pytest.raises(ArmorError, match="not base64"):
        armor.dearmor("\n".join(lines[:2] + ["*" + lines[2][1:]] + lines[3:]))
    with pytest.raises(ArmorError, match="empty"):
        armor.dearmor(f"{armor.BEGIN}\n{armor.END}\n")


@pytest.mark.parametrize("size", [1, 2, 4, 5, 100, 101])
def test_protocol_3_armor_whose_padded_group_sets_unused_bits_is_refused_as_not_canonical(size: int) -> None:
    """"QQ==" and "QR==" both decode to b"A" (the second sets bits base64 leaves unused): only the
    first is the canonical writing, on the fast path as on the line-by-line one."""
    data = os.urandom(size)
    text = armor.armor(data)
    end = text.index("=")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    odd = alphabet[alphabet.index(text[end - 1]) + 1]  # the last character's unused low bits were zero
    bad = text[: end - 1] + odd + text[end:]
    with pytest.raises(ArmorError, match="not canonical"):
        armor.dearmor(bad)
    with pytest.raises(ArmorError, match="not canonical"):
        armor.dearmor(bad.replace("\n", "\r\n"))


@pytest.mark.parametrize("size", [3, 6, 48, 96, 300])
@pytest.mark.parametrize("extra", ["=", "==", "===="])
def test_protocol_3_armor_with_padding_after_a_whole_group_is_refused_as_not_canonical(size: int, extra: str) -> None:
    """Strict base64 reads "K0Xg==" as "K0Xg": padding after a whole group of four is a second
    writing of the same envelope, refused on the fast path as on the line-by-line one (§3: one
    armor per envelope)."""
    text = armor.armor(os.urandom(size))
    body = text[len(armor.BEGIN) + 1:-len(armor.END) - 2]
    if len(body.split("\n")[-1]) + len(extra) > armor.COLUMNS:
        body += "\n"
    bad = f"{armor.BEGIN}\n{body}{extra}\n{armor.END}\n"
    for variant in (bad, bad.replace("\n", "\r\n"), "> " + bad.replace("\n", "\n> ")):
        with pytest.raises(ArmorError):
            armor.dearmor(variant)


class Text(str):
    pass


def test_protocol_2_canonical_bytes_refuses_and_accepts_as_before() -> None:
    assert canonical_bytes({"b": [1, True, None, ("x",)], "a": Text("y")}) == b'{"a":"y","b":[1,true,null,["x"]]}'
    for bad, words in (({"a": 1.0}, "float"), ({1: "a"}, "string keys"), ({"a": "\ud800"}, "surrogate"),
                       ({"a": {"\ud800": 1}}, "surrogate"), ({"a": object()}, "object")):
        with pytest.raises(FormatError, match=words):
            canonical_bytes(bad)
    deep: list = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(FormatError, match="levels deep"):
        canonical_bytes(deep)


class Count(int):
    pass


@pytest.mark.parametrize("value", [
    "plain", "é\u2028\"\\\n", 0, -7, 2**70, True, False, None, [], {}, (), Count(3), Text("t"),
    {"z": 1, "a": [1, "x", {"é": None, "e": (True,)}], "m": {"": "", "b": Count(2)}},
    [[[[{"k": [1, 2, 3]}]]]],
])
def test_protocol_2_canonical_bytes_is_sorted_compact_json_by_the_shared_c_encoder(value: object) -> None:
    """canonical_bytes encodes with one C encoder made once (not one per call): the same text as
    ``json.dumps`` with the §2 options, for scalars, containers and subclasses of str and int."""
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    assert canonical_bytes(value) == expected.encode("utf-8")
