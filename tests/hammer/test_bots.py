"""Bots write real drafts from a report alone; every draft they write passes the player's check."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.hammer import bots, drafts
from pbem.hammer.errors import InvalidOrder

LEGAL = {"Fife": {"Wallace": ["Angus", "Lothian"], "Douglas": ["Angus"]},
         "Moray": {"Moray": ["Ross", "Strathspey"], "Fraser": ["Ross"]},
         "Annan": {"Bruce": []}}


def _report(asks: str, **options: Any) -> dict[str, Any]:
    return {"game": "g", "side": "scotland", "step": 7, "asks": asks, "options": options,
            "public": {"blocks": {"Angus": {"england": 1, "scotland": 0}}}}


@pytest.mark.parametrize("bot", bots.BOTS)
@pytest.mark.parametrize("seed", [b"1", b"2", b"3", b"4", b"5"])
def test_bot_card_drafts_check_and_carry_player1_moves(bot: str, seed: bytes) -> None:
    rep = _report("card", hand=["move1-1", "move3-2", "herald"], moves=LEGAL)
    d = bots.auto_draft(rep, bot, seed)
    drafts.check_draft(d, rep)
    assert d.sections["card"]["play"] in ("move1-1", "move3-2", "herald")
    if d.sections["card"]["play"] != "herald":
        assert "if_player1" in d.sections


@pytest.mark.parametrize("bot", bots.BOTS)
def test_4_2_bot_moves_at_most_the_cards_value_in_groups(bot: str) -> None:
    for i in range(20):
        rep = _report("moves", card="move1-1", moves=LEGAL)
        d = bots.auto_draft(rep, bot, bytes([i]))
        drafts.check_draft(d, rep)
        assert len({m["from"] for m in d.sections["moves"]["moves"]}) <= 1


def test_bot_simple_plays_its_highest_move_card_and_attacks_where_it_outnumbers() -> None:
    rep = _report("card", hand=["move1-1", "move3-2", "herald"], moves=LEGAL)
    d = bots.auto_draft(rep, "simple", b"x")
    assert d.sections["card"]["play"] == "move3-2"
    assert {"from": "Fife", "to": "Angus", "blocks": ["Douglas", "Wallace"]} in d.sections["if_player1"]["moves"]


def test_bot_answers_a_question_with_a_listed_option() -> None:
    rep = _report("decide", question={"side": "scotland", "kind": "hit", "options": ["Wallace", "Douglas"]})
    for bot in bots.BOTS:
        d = bots.auto_draft(rep, bot, b"q")
        assert d.sections["decide"]["answer"] in ("Wallace", "Douglas")
        drafts.check_draft(d, rep)


def test_bot_same_seed_same_draft_and_unknown_bot_refused() -> None:
    rep = _report("card", hand=["move1-1", "move3-2", "herald"], moves=LEGAL)
    assert bots.auto_draft(rep, "random", b"s") == bots.auto_draft(rep, "random", b"s")
    with pytest.raises(InvalidOrder, match="unknown bot"):
        bots.auto_draft(rep, "clever", b"s")


@pytest.mark.parametrize("bot", bots.BOTS)
def test_bot_drafts_carry_standing_battle_plans_that_parse(bot: str) -> None:
    from pbem.hammer.plans import parse_plans
    seen = []
    for i in range(30):
        for rep in (_report("card", hand=["move1-1", "move3-2"], moves=LEGAL), _report("moves", card="move1-1", moves=LEGAL)):
            d = bots.auto_draft(rep, bot, bytes([i]))
            parse_plans("scotland", d.sections["plans"])
            seen.append(d.sections["plans"])
    if bot == "simple":
        assert all(p == bots.SIMPLE_PLANS for p in seen)
    else:
        assert any(p.get("ask") for p in seen), "the random bot sometimes asks, so bot games open decide steps"
        assert len({str(p) for p in seen}) > 2


def test_bot_winter_and_event_drafts_check() -> None:
    for bot in bots.BOTS:
        d = bots.auto_draft(_report("winter"), bot, b"w")
        assert d.kind == "winter" and d.sections == {"winter": {}}
        rep = _report("event", event="herald", event_params=[{"noble": "Mar"}, {"pass": True}])
        d = bots.auto_draft(rep, bot, b"e")
        assert d.sections["event"] in ({"noble": "Mar"}, {"pass": True})
        drafts.check_draft(d, rep)
