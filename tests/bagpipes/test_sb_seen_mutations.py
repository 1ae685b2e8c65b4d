"""Issue 25 point 4: tests that see three mutations the earlier suite let through.

- a single winner shown as "tie:clan1" [SB-9];
- a bot reading another seat's row as its own (a bot reads only its own seat's view) [SB-5.4];
- a deadline default's data changed (defaults neither decide the war nor reward absence) [SB-5.2], [SB-5.4].
Each was checked by applying the mutation and watching the test fail.
"""

from __future__ import annotations

from typing import Any

from bp_support import COMPS, new, rng

from pbem.bagpipes.bots import BOTS
from pbem.bagpipes.engine import Game, default_order
from pbem.bagpipes.model import Phase, order_data
from pbem.bagpipes.ruleset import BagpipesRuleset
from pbem.bagpipes.views import result, view


def test_SB_9_a_single_winner_is_named_not_shown_as_a_tie() -> None:
    t = new(4)
    for s, gold in zip(t.seats, (4, 9, 5, 5)):
        s.gold = gold
    Game(t, COMPS, rng()).final("test")
    assert t.phase == Phase.OVER and t.winners == ["clan2"]
    assert result(t) == {"winner": "clan2", "winners": ["clan2"], "reason": t.end_reason}
    assert not result(t)["winner"].startswith("tie")
    rules = BagpipesRuleset(4)
    assert rules.result(t.to_data())["winner"] == "clan2"          # what the ledger and the CLI show
    t2 = new(4)
    for s, gold in zip(t2.seats, (9, 9, 5, 5)):
        s.gold = gold
    Game(t2, COMPS, rng()).final("test")
    assert result(t2)["winner"] == "tie:clan1,clan2" and result(t2)["winners"] == ["clan1", "clan2"]


def _choice_view(seat: str) -> dict[str, Any]:
    """A 4-player choice step where clan3's own camp is empty and clan1's holds 10 troops."""
    t = new(4)
    t.badge = "clan2"
    for s, camp in zip(t.seats, (10, 0, 0, 0)):
        s.camp = camp
    t.revealed = ["sample-arms-1"]                 # English strength 7
    t.phase = Phase.TOKENS
    t.pending.owes = {s: "choice" for s in t.ids}
    return view(t, COMPS, seat)


def test_SB_5_4_the_simple_bot_reads_its_own_row_of_the_view() -> None:
    """clan3 (camp 0): the others bring 10 against 7 + its own 0, so it can betray; had it read clan1's row
    (camp 10) as its own, it would count 17 against 10 and stay loyal."""
    body = BOTS["simple"](_choice_view("clan3"), "clan3", "choice", rng())
    assert body["loyalty"] == "england"
    body = BOTS["simple"](_choice_view("clan1"), "clan1", "choice", rng())
    assert body["loyalty"] == "scotland"   # clan1's own 10 troops are what Scotland needs: it stays


def test_SB_5_2_the_random_bot_hires_only_with_its_own_gold() -> None:
    v = _choice_view("clan3")
    v["owes"] = {"clan3": "turn"}
    for s in v["seats"]:
        s["gold"] = 0 if s["id"] == "clan3" else 9
    picks = {BOTS["random"](v, "clan3", "turn", rng(str(i)))["turn"]["replenish"] for i in range(40)}
    assert "hire_mercenaries" not in picks and len(picks) >= 2


EXPECTED_DEFAULTS: dict[str, dict[str, Any]] = {
    "plan": {"kind": "plan", "round": 1, "program": [], "on_fail": "default", "badge": {"prefer": [], "ask": False},
             "stay_home": {"prefer": [], "ask": False}, "if_sent_home": None, "home_ask": False},
    "turn": {"kind": "turn", "round": 1, "turn": {"replenish": "collect_taxes", "relocate": 0, "cards": [],
                                                   "order": ["cards", "replenish", "relocate"]}},
    "badge": {"kind": "badge", "round": 1, "to": "clan2"},
    "stay_home": {"kind": "stay_home", "round": 1, "to": "clan2"},
    "home_actions": {"kind": "home_actions", "round": 1, "replenish": ["collect_taxes"] * 3},
    "choice": {"kind": "choice", "round": 1, "loyalty": "scotland", "dagger": None,
               "tokens": {"play": [], "ask": False, "ask_if_played_before_me": False},
               "purse": {"play": [], "ask": False, "ask_if_played_before_me": False}, "giveaway": "keep",
               "giveaway_if_camp_at_least": None},
    "window": {"kind": "window", "round": 1, "cards": []},
    "giveaway": {"kind": "giveaway", "round": 1, "giveaway": "keep"},
    "ruling": {"kind": "ruling", "round": 1, "ruling": "No ruling by the deadline: the card has no effect.",
               "ops": []},
}


def test_SB_5_4_every_deadline_default_is_exactly_the_documented_order() -> None:
    """Collect Taxes and nothing else, Scotland, pass, keep, first eligible seat clockwise, three Collect Taxes,
    no ruling (docs/bagpipes-notes.md §4, adjudication NMR defaults): field by field."""
    t = new(6)
    for kind, expected in EXPECTED_DEFAULTS.items():
        assert order_data(default_order(t, "clan2", kind)) == expected, kind
    state = t.to_data()
    rules = BagpipesRuleset(6)
    assert rules.default_order(state, "clan3") == EXPECTED_DEFAULTS["plan"]   # what the referee's deadline gives
