"""[SB-10] two players, [SB-11] Stay Home! (5-6), [SB-12.1]-[SB-12.4] variants and three players."""

from __future__ import annotations

import pytest
from bp_support import COMPS, go, new, order, rng, texts, until

from pbem.bagpipes.components import dagger_value
from pbem.bagpipes.engine import Game
from pbem.bagpipes.model import CardPlay, Options, Phase
from pbem.core.errors import IllegalOrder, InvalidOrder


# ---------------------------------------------------------------- [SB-10]
def test_SB_10_two_players_dagger_hands_and_removed_cards() -> None:
    t = new(2)
    for s in t.seats:
        assert sorted(dagger_value(c) for c in s.dagger_hand) == [1, 1, 2, 2, 2, 3, 3]
    assert t.dagger_deck == []
    used = t.revealed + t.round_deck
    assert not any(2 in COMPS.round_card(c).excluded_players for c in used)
    assert {"sample-arms-7", "sample-arms-8"} <= set(t.round_out)


def test_SB_10_two_players_fields_get_three_troops_each_invasion() -> None:
    t = new(2)
    assert t.fields == 3 and any("3 troops join Scotland's Fields" in x for x in texts(t))


def test_SB_10_two_players_badge_not_passed_in_phase_three_both_choose() -> None:
    t = until(new(2), "choice")
    assert t.badge == "clan1" and not any(e.event == "badge" for e in t.log)
    order(t, "clan1", loyalty="england", dagger=t.seat("clan1").dagger_hand[0])   # the holder chooses too (default)
    t = until(new(2, two_player_badge_forces_scotland=True), "choice")
    with pytest.raises(IllegalOrder):
        order(t, "clan1", loyalty="england")


def test_SB_10_two_players_giveaway_moves_all_but_one_camp_troop_to_the_fields() -> None:
    t = until(new(2), "choice")
    t.seat("clan2").camp, t.fields = 5, 3
    t.round_deck[0:0] = []
    t2 = go(t, {"clan1": {"loyalty": "scotland", "giveaway": "give"}, "clan2": {"loyalty": "england"}})
    give = [e for e in t2.log if e.event == "giveaway"][0]
    assert give.data == {"giver": "clan1", "moved": 4, "to": "clan2"}
    battle = [e for e in t2.log if e.event == "battle"][0]
    assert battle.data["england"] == 1 + COMPS.round_card(t.revealed[-1]).english_strength + t.english_mod
    assert t2.badge == "clan2"


def test_SB_10_two_players_dagger_routing() -> None:
    t = until(new(2), "choice")
    d1 = [c for c in t.seat("clan1").dagger_hand if c.startswith("d3")][0]
    d2 = [c for c in t.seat("clan2").dagger_hand if c.startswith("d1")][0]
    t.seat("clan1").camp = t.seat("clan2").camp = 2
    t2 = go(t, {"clan1": {"loyalty": "scotland", "dagger": d1}, "clan2": {"loyalty": "england", "dagger": d2}})
    assert t2.seat("clan2").daggers == [d1]                # England takes the opponent's card face up
    assert t2.seat("clan2").dagger_discard == [d2]         # Scotland sends it to its chooser's pile
    assert d1 not in t2.seat("clan1").dagger_hand and len(t2.seat("clan1").dagger_hand) == 6


def test_SB_10_two_players_five_daggers_checked_at_each_round_start() -> None:
    t = until(new(2), "plan")
    t.seat("clan2").daggers = ["d3#x-1", "d3#x-2"]
    t.seat("clan1").daggers = []
    t.phase = Phase.INVASION
    g = Game(t, COMPS, rng())
    g.advance()
    assert t.phase == Phase.OVER and t.winners == ["clan1"] and "Five Daggers" in t.end_reason


def test_SB_10_two_players_nine_rounds_refused() -> None:
    with pytest.raises(InvalidOrder, match="rounds = 9 with 2 players"):
        new(2, rounds=9)


# ---------------------------------------------------------------- [SB-11]
def test_SB_11_stay_home_needed_with_six_players_optional_with_five() -> None:
    with pytest.raises(InvalidOrder, match="6 players need the Stay Home"):
        Game.setup(Options(players=6), COMPS, rng())
    with pytest.raises(InvalidOrder, match="for 5 and 6 players"):
        new(4, stay_home=True)
    assert new(5, stay_home=True).stay_home == "clan5" and new(5).stay_home == ""


def test_SB_11_stay_home_pass_three_replenishments_camp_discarded_out_of_battle() -> None:
    t = new(6)                                   # badge clan1, Stay Home! clan6
    plans = {s: {"program": [{"turn": {"replenish": "raise_militia", "relocate": "all"}}]} for s in t.ids}
    plans["clan1"]["badge"] = {"prefer": ["clan2"]}
    plans["clan6"]["stay_home"] = {"prefer": ["clan2", "clan1", "clan3"]}
    plans["clan3"]["if_sent_home"] = ["hire_mercenaries", "hire_mercenaries", "collect_taxes"]
    t2 = go(t, plans)
    assert t2.badge == "clan2" and t2.at_home == "clan1"          # clan2 holds the badge: not eligible
    home = t2.seat("clan1")
    assert home.camp == 0 and home.gold == 3 + 3                   # three Collect Taxes by default
    with pytest.raises(IllegalOrder, match=r"you lay no choice token this round: you stay home \[SB-11\]"):
        order(t2, "clan1", loyalty="england")
    assert t2.pending.owes["clan1"] == "choice"                    # still answers (no leak), with no token


def test_SB_11_stay_home_not_to_the_previous_giver() -> None:
    t = new(6)
    plans = {"clan1": {"badge": {"prefer": ["clan2"]}}, "clan6": {"stay_home": {"prefer": ["clan3"]}}}
    t = go(t, plans)
    assert t.stay_home == "clan3" and t.stay_home_prev_giver == "clan6"
    t = until(go(t), "plan")
    with pytest.raises(IllegalOrder, match="may not go to clan6: clan6 gave it to you last round and may not get it "
                                           r"straight back \[SB-11\]"):
        go(t, {"clan3": {"stay_home": {"prefer": ["clan6", "clan4", "clan5"]}}})
    t = go(t, {"clan2": {"badge": {"prefer": ["clan4"]}}, "clan3": {"stay_home": {"prefer": ["clan4", "clan5"]}}})
    assert t.at_home == "clan5"          # clan4 now holds the badge: skipped


def test_SB_11_stay_home_player_is_immune_to_cards() -> None:
    t = new(6)
    t = go(t, {"clan6": {"stay_home": {"prefer": ["clan3"]}}})
    g = Game(t, COMPS, rng())
    t.phase = Phase.TOKENS
    t.seat("clan4").hand.append("sample-ambush#1")
    from pbem.bagpipes.engine import Illegal
    with pytest.raises(Illegal, match="stays home"):
        g.play_card("clan4", CardPlay(card="sample-ambush", targets=["clan3"]), "tokens")
    g.raise_militia()
    assert t.seat("clan3").camp == 0


# ---------------------------------------------------------------- [SB-12]
def test_SB_12_1_three_players_two_cards_clockwise_badge_fields_bonus() -> None:
    t = new(3)
    assert all(len(s.hand) == 2 for s in t.seats)
    assert "sample-arms-5" in t.round_out                     # the English Arms card about the badge
    assert t.fields == 1
    t = until(t, "choice")
    assert t.badge == "clan2"                                 # next clockwise, whatever the policy
    order(t, "clan2", loyalty="england")                      # the holder is not forced to Scotland


def test_SB_12_1_three_players_badge_bagpipe_card_is_redrawn() -> None:
    t = new(3)
    g = Game(t, COMPS, rng())
    t.bagpipe_deck.insert(0, "sample-honour#1")
    for s in t.seats:
        if "sample-honour#1" in s.hand:
            s.hand.remove("sample-honour#1")
    t.bagpipe_deck = list(dict.fromkeys(t.bagpipe_deck))
    g.draw_bagpipe(t.seat("clan1"), loot=False)
    assert "sample-honour#1" in t.bagpipe_discard and "sample-honour#1" not in t.seat("clan1").hand
    assert len(t.seat("clan1").hand) == 3


def test_SB_12_1_three_players_fields_bonus_option_at_battle() -> None:
    t = new(3, three_player_fields_bonus_phase="battle")
    assert t.fields == 0


def test_SB_12_2_scottish_set_three_cards_each() -> None:
    assert all(len(s.hand) == 3 for s in new(4, scottish_set=True).seats)
    assert all(len(s.hand) == 3 for s in new(3, scottish_set=True).seats)


def test_SB_12_3_nine_rounds_eight_grey_cards_five_defeats() -> None:
    t = new(6, rounds=9)
    deck = t.revealed + t.round_deck
    assert len(deck) == 9 and sum(COMPS.round_card(c).back == "grey" for c in deck) == 8
    from pbem.bagpipes.engine import defeats_to_lose
    assert defeats_to_lose(t.options) == 5
    with pytest.raises(InvalidOrder):
        new(3, rounds=9)
    from bp_support import play_out_scotland_winning
    t = play_out_scotland_winning(new(6, rounds=9))
    assert t.round == 9 and COMPS.round_card(t.revealed[-1]).back == "red"


def test_SB_12_4_precise_daggers_stacking() -> None:
    t = new(4, precise_daggers=True)
    values = [dagger_value(c) for c in t.dagger_deck]
    assert sorted(values[:5]) == [1, 2, 2, 3, 3] and sorted(values[5:10]) == [1, 2, 2, 3, 3]
    assert sorted(t.dagger_deck) == sorted(COMPS.dagger_cards())


# ---------------------------------------------------------------- [SB-12]
def test_SB_12_variants_are_manifest_options_off_by_default() -> None:
    """The book's variants [SB-12.1]-[SB-12.4] are chosen at open: none is on unless the manifest says so."""
    plain = Options()
    assert (plain.rounds, plain.scottish_set, plain.precise_daggers) == (7, False, False)
    t = new(4)
    assert all(len(s.hand) == 1 for s in t.seats) and t.options.rounds == 7
    chosen = new(4, scottish_set=True, precise_daggers=True, rounds=9).options
    assert (chosen.rounds, chosen.scottish_set, chosen.precise_daggers) == (9, True, True)
