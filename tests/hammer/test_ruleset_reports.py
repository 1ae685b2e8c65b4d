"""What the ruleset publishes and seals (brief 3, 6): public facts without identities; reports per side."""

from __future__ import annotations

import json

from pbem.core.drbg import Drbg
from pbem.hammer.ruleset import HammerRuleset

R = HammerRuleset()


def _state() -> dict:
    return R.setup("braveheart", {}, Drbg(b"reports-test-key"))


def test_2_3_public_board_counts_blocks_per_side_and_names_none() -> None:
    s = _state()
    pub = R.public(s)
    assert pub["blocks"]["Fife"] == {"england": 0, "scotland": 3}
    assert pub["blocks"]["Mentieth"] == {"england": 2, "scotland": 0}
    text = json.dumps(pub)
    assert "Wallace" not in text and "Comyn" not in text and "move" not in text


def test_2_3_a_report_never_names_an_enemy_block_or_card() -> None:
    s = _state()
    rep = R.report(s, "scotland", [], "g", 0)
    text = json.dumps(rep)
    assert "Wallace" in text
    for english in ("Comyn", "Northumber Infantry", "Cumbria Infantry", "Edward"):
        assert english not in text
    for c in R.secrets(s)["hand.england"]:
        if c not in R.secrets(s)["hand.scotland"]:
            assert f'"{c}"' not in text


def test_brief6_secrets_commit_each_hidden_thing_separately() -> None:
    sec = R.secrets(_state())
    assert len(sec["hand.england"]) == 5 and len(sec["hand.scotland"]) == 5
    assert ["Wallace", "scotland", 4] in sec["area.Fife"]
    assert len(sec["deck"]) == 15
    assert "area.pool" in sec


def test_brief4_same_seed_same_state_bytes() -> None:
    a, b = _state(), _state()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
