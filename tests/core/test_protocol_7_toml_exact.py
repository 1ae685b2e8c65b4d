"""Protocol §7: the record's TOML read by its fast path (pbem.core.toml_exact) means what tomllib
reads: the same document for every file the tools write, and for any other text either the same
document or no answer (then tomllib reads it), never a document tomllib would refuse or read
otherwise."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.core import toml_exact

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "game" / "game"
RECORD = [EXAMPLE / "game.toml", *sorted((EXAMPLE / "ledger").glob("*.toml"))]


def tomllib_reads(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


@pytest.mark.parametrize("path", RECORD, ids=lambda p: p.name)
def test_protocol_7_every_file_of_the_example_record_is_read_by_the_fast_path_as_tomllib_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = toml_exact.loads(text)
    assert fast is not None  # the form the tools write is the fast path's
    assert fast == tomllib.loads(text)


def test_protocol_7_a_played_game_s_record_is_read_by_the_fast_path_as_tomllib_reads_it(played: Path) -> None:
    for path in [played / "game.toml", *sorted((played / "ledger").glob("*.toml"))]:
        text = path.read_text(encoding="utf-8")
        assert toml_exact.loads(text) == tomllib.loads(text), path


TRICKY = ['a"b', "a\\b", 'a\\"b', "\\", "\\\\", '"', "", "tab\there", "line\nend", "nul\x00", "del\x7f", "é ✓",
          '{"k":"v\\\\n"}', "\u2028", "\u00a0", '\\"\\\\"', "# not a comment", "[x]", "k = 1"]


@pytest.mark.parametrize("value", TRICKY)
def test_protocol_7_strings_with_escapes_written_by_tomli_w_read_back_the_same_or_go_to_tomllib(value: str) -> None:
    text = tomli_w.dumps({"s": value, "t": {"u": [value, "x"], "n": 3}})
    fast = toml_exact.loads(text)
    assert fast is None or fast == tomllib.loads(text) == {"s": value, "t": {"u": [value, "x"], "n": 3}}


ALPHABET = ['"', "\\", " ", "=", "[", "]", "\n", "\r", "\t", "#", ".", ",", "0", "1", "-", "+", "_", "a", "'", "{",
            "}", "\x00", "é", "e", "\\u0041", '"""', "[[", "\n[a]\n", "\nx = 1\n", "\ndice = 2\n"]


def _mutants(text: str, rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        t = text
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(t) + 1)
            how = rng.randrange(3)
            if how == 0:
                t = t[:i] + rng.choice(ALPHABET) + t[i:]
            elif how == 1:
                t = t[:i] + t[i + rng.randint(1, 3):]
            else:
                t = t[:i] + rng.choice(ALPHABET) + t[i + 1:]
        out.append(t)
    return out


@pytest.mark.parametrize("path", [RECORD[0], RECORD[2]], ids=lambda p: p.name)
def test_protocol_7_altered_files_are_read_as_tomllib_reads_them_or_left_to_it(path: Path) -> None:
    """Thousands of altered copies: where the fast path answers, tomllib reads the same document."""
    text = path.read_text(encoding="utf-8")
    answered = 0
    for mutant in _mutants(text, random.Random(f"toml-exact-{path.name}"), 3000):
        fast = toml_exact.loads(mutant)
        if fast is not None:
            answered += 1
            assert fast == tomllib_reads(mutant), mutant
    assert answered > 300  # most single changes inside values keep the form: the comparison did run


def test_protocol_7_a_key_or_table_given_twice_is_left_to_tomllib() -> None:
    for text in ('a = 1\na = 2\n', '[t]\nx = 1\n[t]\ny = 2\n', 'a = 1\n[a]\n', '[a.b]\n[a]\n', 'x = "1"\n[x.y]\n'):
        assert toml_exact.loads(text) is None
        assert tomllib_reads(text) is None or text == '[a.b]\n[a]\n'  # TOML allows defining a super-table late


def test_protocol_7_any_other_form_is_read_by_tomllib_and_bad_toml_is_its_error() -> None:
    hand = '# written by hand\nname = "england"  # a comment\nsign="x"\n\n[protected]\nn = 32_768\n'
    assert toml_exact.loads(hand) is None
    assert toml_exact.read(hand) == tomllib.loads(hand)
    with pytest.raises(tomllib.TOMLDecodeError):
        toml_exact.read('name = "unterminated\n')
