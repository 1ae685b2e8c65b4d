"""docs/orders.md "Checking a draft": ``pbem orders check`` gives the referee's verdict, with the
referee's rule, on every draft whose verdict depends only on what the player can see.

The property test plays games of all three scenarios through the ruleset, stops at every card,
moves, event, decide and winter step, and puts the bots' drafts and thousands of mutations of
them (docs: tests/hammer/check_corpus.py) to both the referee (``HammerRuleset.validate`` on the
secret state) and the player's check (the same validation on the game rebuilt from the report).
"""

from __future__ import annotations

import collections
from typing import Any

import pytest
from check_corpus import SCENARIOS, corpus, player, referee

from pbem.core.drbg import Drbg
from pbem.hammer import ruleset
from pbem.hammer.play import drafts, known
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.ruleset import HammerRuleset

R = HammerRuleset()

# (scenario, game seed, steps played, keep every n-th step): about 5,900 drafts in all.
GAMES = [(s, seed, 70, 4) for s in SCENARIOS for seed in (0, 1)]


@pytest.mark.slow
def test_orders_md_checking_a_draft_check_and_referee_agree_on_random_and_mutated_drafts() -> None:
    total = 0
    kinds: collections.Counter[str] = collections.Counter()
    verdicts: collections.Counter[tuple[str, str]] = collections.Counter()
    disagree: list[str] = []
    seen: set[int] = set()
    for p, name, body in corpus(GAMES, seed=11):
        if id(p.report) not in seen:  # the game rebuilt from the report offers what the referee offered
            seen.add(id(p.report))
            rebuilt = known.state_from_report(p.report)
            assert R.options(rebuilt, p.side) == p.report["options"], (p.asks, p.report["step"], p.side)
        ref, ref_msg = referee(p, body)
        mine, my_msg = player(p, body)
        total += 1
        kinds[p.asks] += 1
        verdicts[ref] += 1
        same_words = ref_msg == my_msg or name.startswith("header:")  # the header is checked against the report
        if ref != mine or not same_words:
            disagree.append(f"{p.asks} step {p.report['step']} {p.side} {name}: referee {ref} {ref_msg!r}; "
                            f"check {mine} {my_msg!r}")
    assert not disagree, f"{len(disagree)} of {total} drafts:\n" + "\n".join(disagree[:20])
    assert total >= 2000
    assert {"card", "moves", "event", "decide", "winter"} <= set(kinds), kinds
    assert verdicts[("ok", "")] >= total // 5, verdicts
    rules = {rule for (_, rule) in verdicts if rule}
    assert {"2.11", "2.13", "3.1", "3.12", "4.0", "4.2", "4.3", "4.6", "4.7", "5.32"} <= rules, sorted(rules)


# --- the examples of issue 11, one by one, on the Braveheart set-up ----------------------------------

def _start(hands: dict[str, list[str]]) -> dict[str, Any]:
    """Braveheart as set up (Wallace, Douglas, Barclay in Fife; Cumbria Infantry in Lothian; Mar
    English), with the given hands."""
    s = R.setup("braveheart", {}, Drbg(b"x" * 32))
    g = ruleset.game_of(s)
    g.hands = {side: list(h) for side, h in hands.items()}
    return {**s, "game": g.to_dict()}


HANDS = {"england": ["move2-1", "herald", "truce", "move3-1", "move1-1"],
         "scotland": ["move1-2", "sea_move", "victuals", "herald", "pillage"]}


def _card(side: str, play: str, **sections: Any) -> dict[str, Any]:
    return {"game": "g", "side": side, "step": 0, "kind": "card", "card": {"play": play}, **sections}


def _moves(*moves: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"moves": list(moves), **extra}


CUMBRIA = {"from": "Lothian", "to": "Fife", "blocks": ["Cumbria Infantry"]}
EXAMPLES: list[tuple[str, dict[str, Any], str]] = [
    # (what, order, the rule both cite; "ok" when both accept)
    ("4.1 [if_player1] moves in a card-step draft", _card("england", "move2-1", if_player1=_moves(CUMBRIA)), "ok"),
    ("4.2 parts and path", _card("england", "move2-1", if_player1=_moves(
        {"from": "Lothian", "parts": [{"blocks": ["Cumbria Infantry"], "path": ["Mentieth", "Fife"]}]})), "ok"),
    ("4.2 three moves on a Move 2 card", _card("england", "move2-1", if_player1=_moves(
        CUMBRIA, {"from": "Angus", "to": "Fife", "blocks": ["Angus"]},
        {"from": "Mentieth", "to": "Fife", "blocks": ["Northumber Infantry"]})), "4.2"),
    ("5.32 no Main Attack named", _card("england", "move2-1", if_player1=_moves(
        CUMBRIA, {"from": "Mentieth", "to": "Fife", "blocks": ["Northumber Infantry"]})), "5.32"),
    ("5.32 the Main Attack named", _card("england", "move2-1", if_player1=_moves(
        CUMBRIA, {"from": "Mentieth", "to": "Fife", "blocks": ["Northumber Infantry"]},
        main_attack={"Fife": {"from": "Lothian", "via": "Mentieth"}})), "ok"),
    ("4.3 three blocks over a red border", _card("scotland", "move1-2", if_player1=_moves(
        {"from": "Fife", "to": "Atholl", "blocks": ["Barclay", "Douglas", "Wallace"]})), "4.3"),
    ("3.12 Sea Move to an inland area", _card("scotland", "sea_move", event={
        "from": "Fife", "to": "Lanark", "blocks": ["Wallace"]}), "3.12"),
    ("2.11 Victuals beyond a block's steps", _card("scotland", "victuals", event={
        "area": "Fife", "steps": ["Wallace"]}), "2.11"),
    ("3.12 Herald on a misspelt noble", _card("england", "herald", event={"noble": "Brice"}), "3.12"),
    ("3.12 Herald on Moray", _card("england", "herald", event={"noble": "Moray"}), "3.12"),
    ("3.12 Herald on one's own noble", _card("scotland", "herald", event={"noble": "Bruce"}), "3.12"),
    ("3.12 Herald on an enemy noble", _card("scotland", "herald", event={"noble": "Mar"}), "ok"),
    ("6.21 a coronation while Wallace lives", _card("scotland", "victuals", event={"coronation": "Bruce"}), "6.21"),
    ("3.12 Truce with a parameter", _card("england", "truce", event={"noble": "Mar"}), "InvalidOrder"),
    ("3.12 another event's parameters", _card("scotland", "herald", event={"area": "Fife", "steps": []}),
     "InvalidOrder"),
    ("3.1 a card not in hand", _card("scotland", "move3-2"), "3.1"),
]


@pytest.mark.parametrize("what, order, expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_orders_md_checking_a_draft_the_issue_examples(what: str, order: dict[str, Any], expected: str) -> None:
    s = _start(HANDS)
    side = order["side"]
    report = R.report(s, side, [], "g", 0)
    verdicts = []
    for judge in (lambda: R.validate(s, side, order), lambda: drafts.check_draft(drafts.from_body(order), report)):
        try:
            judge()
            verdicts.append(("ok", ""))
        except IllegalOrder as exc:
            verdicts.append((exc.rule, str(exc)))
        except InvalidOrder as exc:
            verdicts.append(("InvalidOrder", str(exc)))
    assert verdicts[0] == verdicts[1], what
    assert verdicts[0][0] == expected, verdicts[0]
