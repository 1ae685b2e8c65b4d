"""docs/draws.md vectors (tests/e2e/vectors/draws.toml): expected draws for fixed stream keys.

The generator uses the rulesets' own draw code and must write the committed file byte for byte;
a verifier written from the text (test_draws_from_the_text.py: hashlib and hmac only) must draw
the same numbers.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from test_draws_from_the_text import CARDS, Stream, bagpipes_setup, draw_key

HERE = Path(__file__).parent / "vectors"
VECTORS: dict[str, Any] = tomllib.loads((HERE / "draws.toml").read_text(encoding="utf-8"))
SAMPLE = Path(__file__).resolve().parents[2] / "pbem" / "bagpipes" / "data" / "sample-components.toml"


def test_draws_vectors_regenerate_byte_for_byte(tmp_path: Path) -> None:
    import importlib.util
    spec = importlib.util.spec_from_file_location("generate_draws", HERE / "generate_draws.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    assert (tmp_path / "draws.toml").read_bytes() == (HERE / "draws.toml").read_bytes()


@pytest.mark.parametrize("case", VECTORS["hammer"], ids=lambda c: f"{c['what']}-{c['key'][:6]}")
def test_draws_hammer_vectors_from_the_text(case: dict[str, Any]) -> None:
    key = bytes.fromhex(case["key"])
    if "levy" in case:  # docs/draws.md, Hammer "Set-up": the levy and the deal, each its own stream
        assert case["levy_from"] == sorted(case["levy_from"])
        assert sorted(Stream(draw_key(key, "levy")).shuffled(case["levy_from"])[:len(case["levy"])]) == case["levy"]
        dealt = Stream(draw_key(key, "deal")).shuffled(CARDS)
        assert (sorted(dealt[:5]), sorted(dealt[5:10])) == (case["england"], case["scotland"])
    else:
        w = Stream(draw_key(key, case["label"]))
        assert case["from"][w.randbelow(len(case["from"]))] == case["picked"]


@pytest.mark.parametrize("case", VECTORS["bagpipes"], ids=lambda c: f"{c['players']}p-{c['key'][:6]}")
def test_draws_bagpipes_vectors_from_the_text(case: dict[str, Any]) -> None:
    made = bagpipes_setup(tomllib.loads(SAMPLE.read_text(encoding="utf-8")), {"players": case["players"]},
                          bytes.fromhex(case["key"]))
    assert made["badge"] == case["badge"]
    assert made["round_deck"][1:] == case["round_deck_after_reveal"]  # round 1 is revealed at set-up
    assert made["dagger_deck"] == case["dagger_deck"]
    dealt = 2 if case["players"] == 3 else 1  # the opening deal takes the top cards (no draw)
    assert made["bagpipe_deck"][dealt * case["players"]:] == case["bagpipe_deck_after_deal"]
