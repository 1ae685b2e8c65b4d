"""Step 10 (issue 14) item 6: a misspelt area, block, card or noble gets a suggestion, in the
referee's refusal and the player's check alike (one code path, one sentence); a move only a
Truce forbids cites the Truce (3.12), not the path it happened to try first."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.drbg import Drbg
from pbem.hammer.play import drafts
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder, PbemError
from pbem.hammer.rules.movement import apply_moves
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import Options, Turn
from pbem.hammer.rules.suggest import closest
from pbem.hammer.ruleset import HammerRuleset, game_of

RULES = HammerRuleset()


def _start() -> dict[str, Any]:
    return RULES.setup("braveheart", {}, Drbg(b"x" * 32))


def _both_say(state: dict[str, Any], side: str, sections: dict[str, Any], kind: str = "card") -> str:
    """The referee's sentence and the player's check's sentence for one draft: they must be the same."""
    body = {"game": "g1", "side": side, "step": 0, "kind": kind, **sections}
    with pytest.raises(PbemError) as referee:
        RULES.validate(state, side, body)
    report = RULES.report(state, side, [], "g1", 0)
    with pytest.raises(PbemError) as check:
        drafts.check_draft(drafts.from_body(body), report)
    assert str(check.value) == str(referee.value)
    return str(referee.value)


def _card(state: dict[str, Any], side: str) -> str:
    """A Move card of the side's hand (its [if_player1] moves are checked, 4.1)."""
    return sorted(c for c in game_of(state).hands[side] if c.startswith("move"))[-1]


def test_step10_item6_a_misspelt_area_gets_a_suggestion() -> None:
    state = _start()
    said = _both_say(state, "scotland", {"card": {"play": _card(state, "scotland")},
                                         "if_player1": {"moves": [{"from": "Fife", "to": "Fyfe",
                                                                   "blocks": ["Wallace"]}]}})
    assert said.endswith("'Fyfe' is not an area of the map (1.1); did you mean Fife?"), said


def test_step10_item6_a_misspelt_block_gets_a_suggestion() -> None:
    state = _start()
    said = _both_say(state, "scotland", {"card": {"play": _card(state, "scotland")},
                                         "if_player1": {"moves": [{"from": "Fife", "to": "Angus",
                                                                   "blocks": ["Walace"]}]}})
    assert said.endswith("'Walace' is not a block of the game (2.0); did you mean Wallace?"), said


def test_step10_item6_a_misspelt_card_gets_a_suggestion() -> None:
    state = _start()
    card = _card(state, "england")
    typo = card.replace("-", "_")
    said = _both_say(state, "england", {"card": {"play": typo}})
    assert said.endswith(f"(3.1); did you mean {card}?"), said


def test_step10_item6_a_misspelt_noble_and_plan_names_get_a_suggestion() -> None:
    from pbem.hammer.rules.plans import parse_plans
    with pytest.raises(InvalidOrder, match=r"'Dougls' is not a scotland block; did you mean Douglas\?"):
        parse_plans("scotland", {"hits": ["Dougls"]})
    with pytest.raises(InvalidOrder, match=r"unknown area \(1\.1\); did you mean Lennox\?"):
        parse_plans("scotland", {"areas": {"Lenox": {"ask": True}}})
    from pbem.hammer.rules.events import validate_event
    g = game_of(_start())
    with pytest.raises(IllegalOrder, match=r"is not a noble \(3\.12\); did you mean Comyn\?"):
        validate_event(g, "scotland", "herald", {"noble": "Comin"})


def test_step10_item6_no_suggestion_when_nothing_is_close() -> None:
    assert closest("Atlantis", ["Fife", "Angus"]) == ""
    assert closest("fife", ["Fife", "Angus"]) == "Fife"


def test_step10_item6_a_move_only_the_truce_forbids_cites_the_truce() -> None:
    """Lennox (English) to Fife (Scottish) while the Scots' Truce holds: the shortest path stops at
    a red border, but what closes Fife is the Truce (3.12)."""
    g = setup("braveheart", Options(), Drbg(bytes(32)))
    order = parse_moves({"moves": [{"from": "Lennox", "to": "Fife", "blocks": ["Lennox"]}]})
    free = g.copy()
    free.current = Turn(cards={"scotland": "move1-1", "england": "move3-1"}, player1="england")
    apply_moves(free, "england", order)  # legal without the Truce
    g.current = Turn(cards={"scotland": "truce", "england": "move3-1"}, player1="scotland", truce="scotland",
                     moves_done=["scotland"])
    with pytest.raises(IllegalOrder) as refused:
        apply_moves(g, "england", order)
    assert refused.value.rule == "3.12" and "Truce forbids attacking (3.12)" in str(refused.value)
    assert "red border" not in str(refused.value)
