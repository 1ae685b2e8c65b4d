"""[SB-6] bagpipe cards, [SB-7] daggers, [SB-8] end, [SB-9] victory, [SB-13] component limits."""

from __future__ import annotations

import pytest
from bp_support import COMPS, go, new, order, rng, stack_round_deck, texts, until

from pbem.bagpipes.engine import Game, Illegal
from pbem.bagpipes.model import CardPlay, Phase
from pbem.bagpipes.views import report
from pbem.core.errors import IllegalOrder


def give(t: object, seat: str, *cards: str) -> None:
    """Move named copies into a seat's hand from wherever they are (tests only)."""
    for card in cards:
        for s in t.seats:  # type: ignore[attr-defined]
            if card in s.hand:
                s.hand.remove(card)
        if card in t.bagpipe_deck:  # type: ignore[attr-defined]
            t.bagpipe_deck.remove(card)  # type: ignore[attr-defined]
        t.seat(seat).hand.append(card)  # type: ignore[attr-defined]


def test_SB_6_x2_card_plays_twice_never_twice_in_one_round() -> None:
    t = new(4)
    give(t, "clan1", "sample-tax#1")
    twice = {"program": [{"turn": {"cards": [{"card": "sample-tax"}, {"card": "sample-tax"}]}},
                         {"turn": {"replenish": "assemble_troops", "cards": [{"card": "sample-tax"}]}}]}
    t = go(t, {"clan1": twice})
    c1 = t.seat("clan1")
    assert (c1.gold, c1.castle) == (4, 5) and c1.x2_up == [["sample-tax#1", 1]] and "sample-tax#1" not in c1.hand
    t = until(go(t), "plan")
    t = go(t, {"clan1": {"program": [{"turn": {"replenish": "assemble_troops", "cards": [{"card": "sample-tax"}]}}]}})
    c1 = t.seat("clan1")
    assert c1.x2_up == [] and "sample-tax#1" in t.bagpipe_discard


def test_SB_6_timing_symbol_decides_the_window() -> None:
    t = until(new(4), "choice")
    give(t, "clan1", "sample-levy#1")
    with pytest.raises(IllegalOrder, match="axe card, not a tokens card"):
        order(t, "clan1", loyalty="scotland", tokens={"play": [{"card": "sample-levy"}]})


def test_SB_6_purse_card_received_in_this_awards_phase_cannot_be_played() -> None:
    t = new(4)
    give(t, "clan1", "sample-spoils#1")
    t.seat("clan1").loot = ["sample-spoils#1"]
    t.phase, t.scotland_won = Phase.PURSE, True
    g = Game(t, COMPS, rng())
    with pytest.raises(Illegal, match="received in this Awards phase"):
        g.play_card("clan1", CardPlay(card="sample-spoils"), "purse")
    t.seat("clan1").loot = []
    g.play_card("clan1", CardPlay(card="sample-spoils"), "purse")
    assert t.seat("clan1").gold == 5


def test_SB_6_gold_loss_icon_is_a_cost_by_default() -> None:
    for cost, gold_after, played in ((True, 0, False), (False, 0, True)):
        t = until(new(4, gold_loss_is_cost=cost), "choice")
        give(t, "clan1", "sample-rally#1")
        t.seat("clan1").gold = 0
        g = Game(t, COMPS, rng())
        t.phase = Phase.TOKENS
        g.window_turn("clan1", [CardPlay(card="sample-rally")], "tokens")
        assert t.seat("clan1").gold == gold_after
        assert (t.fields == 1) is played


def test_SB_6_orbit_from_the_badge_holder_asks_a_seat_that_asked_to_be_asked() -> None:
    t = until(new(4), "choice")          # badge: clan2; orbit clan2, clan3, clan4, clan1
    give(t, "clan2", "sample-rally#1")
    t2 = go(t, {"clan2": {"tokens": {"play": [{"card": "sample-rally"}]}},
                "clan3": {"loyalty": "england", "tokens": {"ask_if_played_before_me": True}},
                "clan4": {"loyalty": "scotland", "tokens": {"ask_if_played_before_me": True}}})
    assert t2.pending.owes == {"clan3": "window"} and t2.pending.context["window"] == "tokens"
    assert any("clan2 plays Rally" in x for x in texts(t2))
    t3 = go(t2, {"clan3": {"cards": []}})
    assert t3.pending.owes == {"clan4": "window"}
    assert any("clan3 passes in the tokens window." == x for x in texts(t3))


def test_SB_6_a_pass_reads_the_same_whatever_the_hand() -> None:
    t = until(new(4), "choice")
    give(t, "clan3", "sample-rally#1", "sample-ambush#1")
    t.seat("clan4").hand = []
    t2 = go(t, {"clan3": {"loyalty": "scotland"}, "clan4": {"loyalty": "scotland"}})
    passes = [x for x in texts(t2) if "passes in the tokens window" in x]
    assert "clan3 passes in the tokens window." in passes and "clan4 passes in the tokens window." in passes


def test_SB_6_drawn_card_identity_is_told_to_its_owner_only() -> None:
    t = until(new(4), "choice")
    t.revealed[-1] = "sample-arms-1"
    for s in t.seats:
        s.camp = 5
    stack_round_deck(t, "sample-arms-7")
    t2 = go(t, {s: {"loyalty": "scotland"} for s in ("clan1", "clan3", "clan4")})
    mine = [e.text for e in t2.log if e.visible == "clan1" and e.event == "you_draw"]
    assert len(mine) == 1
    other = report(t2, COMPS, "clan3")
    assert mine[0] not in str(other) and "clan1 draws a bagpipe card." in str(other)


def test_SB_7_dagger_values_are_secret_counts_public() -> None:
    t = new(4)
    t.seat("clan3").daggers = ["d3#1", "d1#2"]
    rep = report(t, COMPS, "clan1")
    assert "d3#1" not in str(rep) and rep["view"]["seats"][2]["dagger_cards"] == 2
    own = report(t, COMPS, "clan3")
    assert own["view"]["my_daggers"] == ["d1#2", "d3#1"] and own["view"]["my_dagger_total"] == 4


def test_SB_7_claims_about_daggers_are_delivered_never_checked() -> None:
    t = new(4)
    t.seat("clan3").daggers = ["d3#1"]
    t2 = go(t, {"clan3": {"talk": {"to": "clan1", "text": "I have no daggers at all."}}})
    assert report(t2, COMPS, "clan1")["talk"] == [{"from": "clan3", "to": "clan1", "text": "I have no daggers at all."}]
    assert report(t2, COMPS, "clan2")["talk"] == []
    assert t2.seat("clan3").daggers == ["d3#1"]


def test_SB_8_game_ends_after_the_fourth_defeat_awards_still_given() -> None:
    t = until(new(4), "choice")
    t.defeats = 3
    t.revealed[-1] = "sample-arms-1"
    for s, camp in zip(t.seats, (1, 1, 9, 9)):
        s.camp = camp
    gold = [s.gold for s in t.seats]
    t2 = go(t, {"clan1": {"loyalty": "scotland"}, "clan3": {"loyalty": "england"}, "clan4": {"loyalty": "england"}})
    assert t2.phase == Phase.OVER and t2.defeats == 4 and t2.round == 1
    assert [s.gold - g for s, g in zip(t2.seats, gold)] == [1, 1, 3, 3]
    assert "Scotland lost the war" in t2.end_reason


def test_SB_8_game_ends_after_the_last_round_card() -> None:
    from bp_support import play_out_scotland_winning
    t = new(4, seed="end")
    t.round_out += t.round_deck[:-1]
    t.round_deck = t.round_deck[-1:]        # the King Edward card only
    t = play_out_scotland_winning(t)
    assert t.phase == Phase.OVER and t.round == 2 and "last English Arms card" in t.end_reason


def final(golds: tuple[int, ...], daggers: tuple[int, ...], lost: bool = False, **opts: object) -> list[str]:
    t = new(len(golds), **opts)
    for s, gold, d in zip(t.seats, golds, daggers):
        s.gold, s.daggers, s.virtual_daggers = gold, [], d
    if lost:
        t.defeats = 4
    g = Game(t, COMPS, rng())
    # virtual daggers count 2 each: halve to keep the book's numbers readable
    for s, d in zip(t.seats, daggers):
        s.virtual_daggers = 0
        s.daggers = [f"d1#{s.id}-{k}" for k in range(d)]
    g.final("test")
    return t.winners


def test_SB_9_victory_decided_once_at_the_end() -> None:
    assert final((5, 9, 1, 1), (0, 0, 0, 0)) == ["clan2"]


def test_SB_9_1_scottish_victory_most_gold_then_fewest_daggers() -> None:
    assert final((9, 9, 1, 1), (2, 1, 0, 0)) == ["clan2"]


def test_SB_9_2_scottish_defeat_fewest_daggers_then_most_gold() -> None:
    assert final((9, 2, 5, 1), (3, 0, 0, 0), lost=True) == ["clan3"]


def test_SB_9_3_five_daggers_book_examples() -> None:
    # William 1, Margaret 2, Robert 6, John 11: John is a traitor and cannot win with the most gold
    assert final((1, 1, 1, 50), (1, 2, 6, 11)) == ["clan1"]
    # William 0, Margaret 1, Robert 8, John 9: nobody is a traitor
    assert final((1, 1, 1, 50), (0, 1, 8, 9)) == ["clan4"]


def test_SB_9_3_five_daggers_applies_only_when_scotland_won() -> None:
    assert final((1, 1, 1, 50), (1, 2, 6, 11), lost=True) == ["clan1"]


def test_SB_9_ties_left_are_shared_or_none_by_option() -> None:
    assert final((5, 5, 1, 1), (1, 1, 0, 0)) == ["clan1", "clan2"]
    assert final((5, 5, 1, 1), (1, 1, 0, 0), final_tie="none") == []


def test_SB_13_bagpipe_deck_reshuffles_its_discards_then_runs_dry() -> None:
    t = new(4)
    g = Game(t, COMPS, rng())
    s = t.seat("clan1")
    t.bagpipe_discard = list(t.bagpipe_deck)
    t.bagpipe_deck = []
    g.draw_bagpipe(s, loot=False)
    assert len(s.hand) == 2 and any("shuffled into a new deck" in x for x in texts(t))
    for other in t.seats:
        other.hand += t.bagpipe_deck
        t.bagpipe_deck = []
    t.bagpipe_discard = []
    before = len(s.hand)
    g.draw_bagpipe(s, loot=False)
    assert len(s.hand) == before and any("every card is in a hand" in x for x in texts(t))


def test_SB_13_dagger_deck_exhausted_gives_virtual_two_dagger_cards() -> None:
    t = new(4)
    g = Game(t, COMPS, rng())
    t.dagger_discard, t.dagger_deck = t.dagger_deck[:3], t.dagger_deck[3:]
    t.seat("clan2").daggers, t.dagger_deck = t.dagger_deck, []
    g.draw_dagger(t.seat("clan1"))
    assert len(t.seat("clan1").daggers) == 1 and len(t.dagger_deck) == 2
    t.seat("clan2").daggers += t.dagger_deck
    t.dagger_deck = []
    g.draw_dagger(t.seat("clan3"))
    assert t.seat("clan3").virtual_daggers == 1 and g.dagger_total(t.seat("clan3")) == 2
    assert report(t, COMPS, "clan1")["view"]["seats"][2]["virtual_daggers"] == 1


def test_SB_9_a_tie_without_winner_is_declared_in_the_result() -> None:
    t = new(4, final_tie="none")
    for s in t.seats:
        s.gold = 5
    Game(t, COMPS, rng()).final("test")
    assert t.winners == [] and "declared tie" in t.end_reason
    assert report(t, COMPS, "clan1")["result"]["winner"] == "tie"
