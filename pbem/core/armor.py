"""ASCII armor that survives email (docs/protocol.md §3).

Profile: ``-----BEGIN PBEM ENVELOPE-----``, strict base64 of the binary envelope in lines of
exactly 64 columns (the last may be shorter, padded with ``=``), ``-----END PBEM ENVELOPE-----``.
Reading tolerates what mail does to text: ``>`` quoting at any depth, CRLF line ends, trailing
spaces, other text before and after; no other line end, and no leading spaces. It refuses what
mail should not do: truncation, two envelopes in one message, bad base64, and anything over
``MAX_INPUT`` bytes. Base64 is binascii's, which the ``base64`` module calls (``b64decode`` with
``validate=True`` is ``a2b_base64`` with ``strict_mode=True``), without that module's import.
"""

from __future__ import annotations

import binascii
import re

from pbem.core.errors import ArmorError

BEGIN = "-----BEGIN PBEM ENVELOPE-----"
END = "-----END PBEM ENVELOPE-----"
COLUMNS = 64
MAX_INPUT = 1 << 20  # 1 MiB of armored text (or binary envelope)

# Compiled (by re, once) the first time a text is read line by line: the form the tools write is not.
_QUOTE = r"^(?:> ?)*"  # mail quoting: ">" and at most one space, repeated; nothing else
_B64_LINE = r"^[A-Za-z0-9+/]*={0,2}$"


def armor(data: bytes) -> str:
    """The armored text of a binary envelope, ending with a newline."""
    if len(data) > MAX_INPUT:
        raise ArmorError(f"envelope of {len(data)} bytes is over the {MAX_INPUT}-byte limit (protocol §3).")
    text = binascii.b2a_base64(data, newline=False).decode("ascii")
    lines = [text[i : i + COLUMNS] for i in range(0, len(text), COLUMNS)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def _lines(text: str) -> list[str]:
    """Lines end in LF, or CRLF (§3). Not ``str.splitlines``: VT, FF, NEL, U+2028, U+2029 or a
    lone CR do not end a line, so a line holding one is not base64 and is refused."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def _clean(line: str) -> str:
    """A line with mail quoting and trailing spaces and tabs taken off (leading spaces are kept)."""
    return re.sub(_QUOTE, "", line).rstrip(" \t")


def _exact(text: str) -> bytes | None:
    """The envelope in ``text`` when the text is exactly what ``armor`` writes (a file the tools
    wrote, the usual case), found without the line-by-line reading; else None."""
    head, tail = BEGIN + "\n", "\n" + END + "\n"
    if len(text) <= len(head) + len(tail) or not text.startswith(head) or not text.endswith(tail):
        return None
    body = text[len(head):-len(tail)]
    joined = body.replace("\n", "")
    try:
        data = binascii.a2b_base64(joined, strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    # ``armor(data) == text``, without building the lines: the base64 is the one ``armor`` writes,
    # and the line ends are exactly every 65th character (lines of 64 columns, the last 1 to 64).
    # With exactly four characters per three bytes (strict mode alone lets padding run on after a
    # whole group: "K0Xg==" reads as "K0Xg"), each full group is the only writing of its three
    # bytes, so only the last, padded group (its unused bits) can differ from what ``armor`` writes.
    breaks = -(-len(joined) // COLUMNS) - 1
    tail_bytes = len(data) % 3
    if not data or len(data) > MAX_INPUT or len(joined) != 4 * -(-len(data) // 3) or body.count("\n") != breaks \
            or body[COLUMNS::COLUMNS + 1] != "\n" * breaks \
            or (tail_bytes and binascii.b2a_base64(data[-tail_bytes:], newline=False).decode("ascii") != joined[-4:]):
        return None
    return data


def dearmor(text: str | bytes, where: str = "input") -> bytes:
    """The binary envelope inside a mail body, or ArmorError saying what is wrong with it."""
    if len(text) > MAX_INPUT:
        raise ArmorError(f"{where} is {len(text)} bytes, over the {MAX_INPUT}-byte limit (protocol §3).")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ArmorError(f"{where} is not UTF-8 text, so it holds no armored envelope (protocol §3).") from None
    exact = _exact(text)
    if exact is not None:
        return exact
    lines = [_clean(line) for line in _lines(text)]
    begins = [i for i, line in enumerate(lines) if line == BEGIN]
    ends = [i for i, line in enumerate(lines) if line == END]
    if not begins:
        raise ArmorError(f"{where} holds no '{BEGIN}' line (protocol §3).")
    if len(begins) > 1 or len(ends) > 1:
        raise ArmorError(f"{where} holds more than one envelope; send one per message (protocol §3).")
    if not ends or ends[0] < begins[0]:
        raise ArmorError(f"{where} is truncated: no '{END}' line after the BEGIN line (protocol §3).")
    body = lines[begins[0] + 1 : ends[0]]
    if not body:
        raise ArmorError(f"{where}: the armor is empty (protocol §3).")
    for n, line in enumerate(body):
        last = n == len(body) - 1
        if not re.match(_B64_LINE, line) or (line.find("=") not in (-1,) and not last):
            raise ArmorError(f"{where}: armor line {n + 1} is not base64 (protocol §3).")
        if (not last and len(line) != COLUMNS) or (last and not 0 < len(line) <= COLUMNS):
            raise ArmorError(f"{where}: armor line {n + 1} has {len(line)} columns, not {COLUMNS}; "
                             "the armor was re-wrapped or cut (protocol §3).")
    joined = "".join(body)
    if len(joined) % 4:
        raise ArmorError(f"{where}: the armor's base64 length is not a multiple of 4; it was cut (protocol §3).")
    try:
        data = binascii.a2b_base64(joined, strict_mode=True)
    except (binascii.Error, ValueError):
        raise ArmorError(f"{where}: the armor is not valid base64 (protocol §3).") from None
    if binascii.b2a_base64(data, newline=False).decode("ascii") != joined:
        raise ArmorError(f"{where}: the armor's base64 is not canonical (protocol §3).")
    return data


def is_armored(data: bytes | str) -> bool:
    """Whether the input looks like armored text rather than a binary envelope."""
    probe = data if isinstance(data, str) else data[: MAX_INPUT + 1].decode("latin-1")
    return BEGIN in probe
