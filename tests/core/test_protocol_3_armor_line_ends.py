"""docs/protocol.md §3: a reader accepts exactly the line ends and quoting §3 lists (LF, CRLF,
">" quoting with an optional space, trailing spaces and tabs) and refuses every other line end
(VT, FF, NEL, U+2028, U+2029, a lone CR) and leading spaces before the base64."""

from __future__ import annotations

import pytest

from pbem.core import armor
from pbem.core.errors import ArmorError

DATA = bytes(range(256)) * 2  # five full lines of base64 and a short one


def lines() -> list[str]:
    return armor.armor(DATA).rstrip("\n").split("\n")


@pytest.mark.parametrize("text", [
    "\n".join(lines()) + "\n",
    "\r\n".join(lines()) + "\r\n",
    "mail says hello\n" + "\n".join("> " + x for x in lines()) + "\n-- \nbye\n",
    "\n".join(">> " + x for x in lines()),
    "\n".join("> > >" + x for x in lines()),
    "\n".join(x + " \t " for x in lines()),
], ids=["lf", "crlf", "quoted", "quoted-twice", "quoted-three", "trailing-space"])
def test_protocol_3_the_listed_line_ends_and_quoting_are_accepted(text: str) -> None:
    assert armor.dearmor(text) == DATA


@pytest.mark.parametrize("end", ["\v", "\f", "\x85", "\u2028", "\u2029", "\r", "\x1c", "\x1e"],
                         ids=["vt", "ff", "nel", "u2028", "u2029", "lone-cr", "fs", "rs"])
def test_protocol_3_a_line_end_not_listed_is_refused(end: str) -> None:
    ls = lines()
    text = "\n".join(ls[:2]) + "\n" + end.join(ls[2:4]) + "\n" + "\n".join(ls[4:]) + "\n"
    with pytest.raises(ArmorError, match="§3"):
        armor.dearmor(text)


@pytest.mark.parametrize("end", ["\v", "\u2028", "\x85"], ids=["vt", "u2028", "nel"])
def test_protocol_3_an_armor_joined_by_other_line_ends_only_is_refused(end: str) -> None:
    with pytest.raises(ArmorError, match="§3"):
        armor.dearmor(end.join(lines()))


@pytest.mark.parametrize("prefix", [" ", "  ", "\t", " > ", ">\t"], ids=["space", "two-spaces", "tab",
                                                                         "space-before-quote", "tab-after-quote"])
def test_protocol_3_leading_white_space_before_the_base64_is_refused(prefix: str) -> None:
    ls = lines()
    text = "\n".join(ls[:2] + [prefix + ls[2]] + ls[3:]) + "\n"
    with pytest.raises(ArmorError, match=r"armor line 2 is not base64.*§3"):
        armor.dearmor(text)
