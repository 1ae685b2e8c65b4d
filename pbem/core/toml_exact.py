"""TOML in the exact form pbem's writer gives it, read without tomllib's loop over each character.

A ledger entry is read by every verify and audit, and tomllib reads a string one character at a
time in Python: an entry's ``board`` (canonical JSON with every quote escaped) and its 64-digit
hashes are most of its parse. ``loads`` reads the narrow form ``tomli_w`` writes: lines ending
in LF, ``[table]`` headers of bare keys, ``key = value`` lines with a bare key or a quoted one
holding no escape, and as values one-line basic strings whose only escapes are ``\\"`` and
``\\\\``, decimal integers, and arrays of such strings (``[]``, or one string a line, indented
four spaces, each followed by a comma). Anything else, and anything TOML would refuse (a key
or table given twice), makes it return None, and the caller reads the text with tomllib: it
never reads a document differently from tomllib, only faster (tests/core check both on the
entries of whole games and on thousands of altered ones). ``read`` does both: a command that
reads only files the tools wrote does not even import tomllib.
"""

from __future__ import annotations

from typing import Any

_BARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def _string(token: str) -> str | None:
    """The value of a one-line basic string token ``"..."``; None when it is not in the narrow form."""
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        return None
    body = token[1:-1]
    if not body.isprintable():  # control characters (tab too), and the Unicode that is not shown: tomllib's
        return None
    if "\\" not in body:
        return None if '"' in body else body
    parts = body.split("\\\\")  # left to right, as escapes are read: each "\\" is one backslash
    for part in parts:
        rest = part.replace('\\"', "")
        if '"' in rest or "\\" in rest:
            return None  # another escape, a lone backslash, or a quote that ends the string early
    return "\\".join(part.replace('\\"', '"') for part in parts)


def _key(line: str) -> tuple[str, str] | None:
    """(key, value text) of a ``key = value`` line; None when not in the narrow form."""
    if line[0] == '"':
        end = line.find('"', 1)
        if end < 0:
            return None
        key = line[1:end]
        if "\\" in key or not key.isprintable():
            return None
        rest = line[end + 1:]
    else:
        end = line.find(" ")
        key = line[:end]
        if end <= 0 or key.strip(_BARE):
            return None
        rest = line[end:]
    if not rest.startswith(" = "):
        return None
    return key, rest[3:]


def read(text: str) -> dict[str, Any]:
    """The TOML document ``text``; ``tomllib.TOMLDecodeError`` (a ValueError) when it is not TOML."""
    doc = loads(text)
    if doc is None:
        import tomllib  # here: the form the tools write never needs it
        doc = tomllib.loads(text)
    return doc


def loads(text: str) -> dict[str, Any] | None:
    """The document ``text`` when it is in the narrow form, else None (read it with tomllib)."""
    if "\r" in text or not text.endswith("\n"):
        return None
    lines = text.split("\n")
    lines.pop()
    root: dict[str, Any] = {}
    table = root
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        i += 1
        if not line:
            continue
        if line[0] == "[":
            if line[-1] != "]" or line[1:2] == "[":
                return None
            parts = line[1:-1].split(".")
            table = root
            for part in parts[:-1]:
                if not part or part.strip(_BARE):
                    return None
                inner = table.setdefault(part, {})
                if type(inner) is not dict:
                    return None
                table = inner
            last = parts[-1]
            if not last or last.strip(_BARE) or last in table:
                return None  # a table given twice (or over a value): tomllib's to judge
            table[last] = table = {}
            continue
        pair = _key(line)
        if pair is None or pair[0] in table:
            return None
        key, value = pair
        first = value[:1]
        parsed: Any
        if first == '"':
            parsed = _string(value)
            if parsed is None:
                return None
        elif value == "[]":
            parsed = []
        elif value == "[":
            parsed = []
            while i < count and lines[i] != "]":
                item = lines[i]
                i += 1
                element = _string(item[4:-1]) if item.startswith("    ") and item.endswith(",") else None
                if element is None:
                    return None
                parsed.append(element)
            if i == count:
                return None
            i += 1
        elif value.isascii() and value.isdigit() and (value == "0" or first != "0"):
            parsed = int(value)
        elif first == "-" and value[1:2] not in ("", "0") and value[1:].isascii() and value[1:].isdigit():
            parsed = int(value)
        else:
            return None
        table[key] = parsed
    return root
