"""Bots write real drafts from a report alone; every draft they write passes the player's check."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.drbg import Drbg
from pbem.hammer import ruleset
from pbem.hammer.play import bots, drafts
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.ruleset import HammerRuleset

R = HammerRuleset()
HAND = ["move1-2", "move1-3", "move1-4", "pillage", "victuals"]  # Scotland's first hand with this seed
SEED = b"x" * 28 + (23867).to_bytes(4, "big")  # a set-up key that deals Scotland HAND (docs/draws.md, the deal)


def _start() -> dict[str, Any]:
    """Braveheart as set up: Wallace, Douglas and Barclay in Fife, the English Angus next door."""
    s = R.setup("braveheart", {}, Drbg(SEED))
    assert sorted(ruleset.game_of(s).hands["scotland"]) == HAND
    return s


def _report(asks: str, **options: Any) -> dict[str, Any]:
    """Scotland's real report at the start (card step), or owing ``asks`` with the given options."""
    rep = R.report(_start(), "scotland", [], "g", 0)
    if asks != "card":
        rep = {**rep, "asks": asks, "owes": {"scotland": asks}, "options": options}
    if asks == "event":
        rep["view"] = {**rep["view"], "cards": {"scotland": options["event"]}, "player1": "scotland"}
    return rep


def _moves_report() -> dict[str, Any]:
    """Scotland owes its Move Phase as Player 2 with a Move 1 card; England (Player 1) stayed put."""
    s = _start()
    order = lambda side, sections: {"game": "g", "side": side, "step": 0, "kind": "card", **sections}  # noqa: E731
    s = R.adjudicate(s, {"england": order("england", {"card": {"play": ruleset.game_of(s).hands["england"][0]},
                                                      "if_player1": {"moves": []}}),
                         "scotland": order("scotland", {"card": {"play": "move1-2"}})}, Drbg(b"m" * 32)).state
    assert R.owes(s) == {"scotland": "moves"}
    return R.report(s, "scotland", [], "g", 1)


@pytest.mark.parametrize("bot", bots.BOTS)
@pytest.mark.parametrize("seed", [b"1", b"2", b"3", b"4", b"5"])
def test_bot_card_drafts_check_and_carry_player1_moves(bot: str, seed: bytes) -> None:
    rep = _report("card")
    d = bots.auto_draft(rep, bot, seed)
    drafts.check_draft(d, rep)
    assert d.sections["card"]["play"] in HAND
    if d.sections["card"]["play"] not in ("pillage", "victuals"):
        assert "if_player1" in d.sections


def test_4_1_a_card_step_report_lists_the_reach_as_player1_and_bots_move_from_it() -> None:
    """The card-step report lists what each block could reach as Player 1 (4.1), from the side's
    own view; the bots fill [if_player1] from it, and the referee accepts it."""
    s = _start()
    rep = R.report(s, "scotland", [], "g", 0)
    reach = rep["options"]["moves"]
    assert "Angus" in reach["Fife"]["Wallace"] and set(reach["Fife"]) == {"Barclay", "Douglas", "Wallace"}
    moved = 0
    for i in range(20):
        for bot in bots.BOTS:
            d = bots.auto_draft(rep, bot, bytes([i]))
            R.validate(s, "scotland", d.body())
            moved += bool(d.sections.get("if_player1", {}).get("moves"))
    assert moved >= 20


@pytest.mark.parametrize("bot", bots.BOTS)
def test_4_2_bot_moves_at_most_the_cards_value_in_groups(bot: str) -> None:
    rep = _moves_report()
    for i in range(20):
        d = bots.auto_draft(rep, bot, bytes([i]))
        drafts.check_draft(d, rep)
        assert len({m["from"] for m in d.sections["moves"]["moves"]}) <= 1


def test_bot_simple_plays_its_highest_move_card_and_attacks_where_it_outnumbers() -> None:
    rep = _report("card")
    d = bots.auto_draft(rep, "simple", b"x")
    assert d.sections["card"]["play"] == "move1-2"
    move = {"from": "Fife", "to": "Angus", "blocks": ["Barclay", "Douglas", "Wallace"]}
    assert move in d.sections["if_player1"]["moves"]


def test_bot_answers_a_question_with_a_listed_option() -> None:
    rep = _report("decide", question={"side": "scotland", "kind": "hit", "options": ["Wallace", "Douglas"]})
    for bot in bots.BOTS:
        d = bots.auto_draft(rep, bot, b"q")
        assert d.sections["decide"]["answer"] in ("Wallace", "Douglas")
        drafts.check_draft(d, rep)


def test_bot_same_seed_same_draft_and_unknown_bot_refused() -> None:
    rep = _report("card")
    assert bots.auto_draft(rep, "random", b"s") == bots.auto_draft(rep, "random", b"s")
    with pytest.raises(InvalidOrder, match="unknown bot"):
        bots.auto_draft(rep, "clever", b"s")


@pytest.mark.parametrize("bot", bots.BOTS)
def test_bot_drafts_carry_standing_battle_plans_that_parse(bot: str) -> None:
    from pbem.hammer.rules.plans import parse_plans
    seen = []
    for i in range(30):
        for rep in (_report("card"), _moves_report()):
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
