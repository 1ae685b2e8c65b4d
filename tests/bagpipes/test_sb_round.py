"""[SB-0]..[SB-5.7]: set-up, game length, and each phase of the round."""

from __future__ import annotations

import pytest
from bp_support import COMPS, go, new, play_out_scotland_winning, stack_round_deck, texts, until

from pbem.bagpipes.engine import Game
from pbem.bagpipes.model import Side
from pbem.bagpipes.play import play_engine_game
from pbem.core.errors import IllegalOrder


def at_choice(players: int = 4, **opts: object) -> object:
    t = new(players, **opts)
    return until(t, "choice")


def test_SB_0_front_matter_clans_are_seats_named_by_position() -> None:
    t = new(5)
    assert t.ids == ["clan1", "clan2", "clan3", "clan4", "clan5"]


def test_SB_1_object_gold_wins_only_when_scotland_wins_the_war() -> None:
    t = new(4)
    for s, gold in zip(t.seats, (9, 5, 5, 5)):
        s.gold = gold
    t.seats[1].daggers = ["d1#1"]
    g = Game(t, COMPS, None)  # type: ignore[arg-type]
    g.final("test")
    assert t.winners == ["clan1"]
    t = new(4)
    t.defeats = 4
    for s, gold in zip(t.seats, (9, 5, 6, 4)):
        s.gold = gold
    t.seats[0].daggers = ["d1#1"]
    Game(t, COMPS, None).final("test")  # type: ignore[arg-type]
    assert t.winners == ["clan3"]   # Scotland lost: the richest has a dagger; fewest daggers, then most gold


def test_SB_3_setup_three_troops_three_gold_one_card_and_the_badge() -> None:
    t = new(4)
    for s in t.seats:
        assert (s.gold, s.castle, s.camp, len(s.hand)) == (3 + 0, 3, 0, 1)
    assert t.badge == "clan1" and t.badge_prev_giver == ""
    deck = t.revealed + t.round_deck
    assert len(deck) == 7 and COMPS.round_card(deck[-1]).back == "red"
    assert all(COMPS.round_card(c).back == "grey" for c in deck[:-1])
    assert len(t.round_out) == 3            # 2 grey and 1 red stay unseen in the box
    assert sorted(t.dagger_deck) == sorted(COMPS.dagger_cards())
    assert t.defeats == 0 and t.fields == 0


def test_SB_3_setup_start_player_is_drawn_when_not_named() -> None:
    starts = {Game.setup(__import__("pbem.bagpipes.model", fromlist=["Options"]).Options(players=4),
                         COMPS, __import__("bp_support").rng(str(i))).badge for i in range(12)}
    assert len(starts) > 1


def test_SB_4_game_length_seven_rounds_red_card_last() -> None:
    t = play_out_scotland_winning(new(4, seed="len"))
    assert t.round == 7 and len(t.revealed) == 7 and t.defeats == 0
    assert COMPS.round_card(t.revealed[-1]).back == "red"
    assert "last English Arms card" in t.end_reason


def test_SB_5_seven_phases_in_order() -> None:
    t = new(4)
    events: list[str] = [e.event for e in t.log]
    t = go(t)
    events += [e.event for e in t.log]
    t = go(t)
    events += [e.event for e in t.log]
    wanted = ["invasion", "turn", "badge", "choice", "reveal", "battle", "end", "invasion"]
    pos = [events.index(w) if w != "invasion" else -1 for w in wanted[:-1]]
    assert events.index("invasion") < events.index("turn") < events.index("badge") < events.index("choice") \
        < events.index("reveal") < events.index("battle") < events.index("end")
    assert pos and events.count("invasion") == 2


def test_SB_5_1_invasion_reveals_the_top_card_and_its_round_effect() -> None:
    t = new(4)
    stack_round_deck(t, "sample-arms-3")     # invented: English army +2 this round
    t = until(go(t), "plan")
    assert t.revealed[-1] == "sample-arms-3" and any("Siege Train" in x for x in texts(t))
    assert Game(t, COMPS, None).english_strength() == 10   # type: ignore[arg-type]  # guards see the +2 already
    t = until(t, "choice")
    assert t.english_mod == 2                  # in force for the battle: it ran once phase 3 was over


def test_SB_5_2_replenishment_actions() -> None:
    t = new(4)
    hire = {"program": [{"turn": {"replenish": "hire_mercenaries", "relocate": 0}}]}
    militia = {"program": [{"turn": {"replenish": "raise_militia", "relocate": 0}}]}
    assemble = {"program": [{"turn": {"replenish": "assemble_troops", "relocate": "all"}}]}
    t2 = go(t, {"clan1": hire, "clan2": militia, "clan3": assemble})
    c1, c2, c3, c4 = t2.seats
    assert (c1.gold, c1.castle) == (2, 7)
    assert [s.camp for s in t2.seats] == [1, 1, 6, 1] and t2.fields == 1   # militia in every camp, +Fields
    assert (c3.castle, c3.camp) == (0, 6)
    assert (c4.gold, c4.castle) == (4, 3)                                  # the default: Collect Taxes


def test_SB_5_2_hire_needs_gold_so_the_next_alternative_is_used() -> None:
    t = new(4)
    t.seats[0].gold = 0
    plan = {"program": [{"turn": {"replenish": "hire_mercenaries"}}, {"turn": {"replenish": "assemble_troops"}}]}
    t2 = go(t, {"clan1": plan})
    assert (t2.seats[0].gold, t2.seats[0].castle) == (0, 5)


def test_SB_5_2_relocation_and_axe_cards_in_the_order_chosen() -> None:
    t = new(4)
    t.seats[0].hand = ["sample-levy#1"]
    t.bagpipe_deck.remove("sample-levy#1") if "sample-levy#1" in t.bagpipe_deck else None
    for s in t.seats[1:]:
        if "sample-levy#1" in s.hand:
            s.hand.remove("sample-levy#1")
    plan = {"program": [{"turn": {"replenish": "hire_mercenaries", "relocate": "all",
                                  "cards": [{"card": "sample-levy", "n": 2}],
                                  "order": ["replenish", "relocate", "cards"]}}]}
    t2 = go(t, {"clan1": plan})
    assert (t2.seats[0].castle, t2.seats[0].camp) == (0, 7 + 2)


def test_SB_5_2_a_seat_that_asks_is_asked_alone_and_the_turn_is_public() -> None:
    t = new(4)
    t2 = go(t, {"clan2": {"program": [{"ask": True}]}})
    assert t2.pending.owes == {"clan2": "turn"}
    assert t2.seats[0].gold == 4 and t2.seats[1].gold == 3     # clan1 has acted, clan2 waits
    t3 = go(t2, {"clan2": {"turn": {"replenish": "assemble_troops", "relocate": 5}}})
    assert (t3.seats[1].castle, t3.seats[1].camp) == (0, 5)


def test_SB_5_3_badge_goes_to_the_chosen_player_who_must_defend_scotland() -> None:
    t = new(4)
    t = go(t, {"clan1": {"badge": {"prefer": ["clan3"]}}})
    assert t.badge == "clan3" and t.badge_prev_giver == "clan1"
    t = go(t, {"clan3": {}})
    reveal = [e for e in t.log if e.event == "reveal"][0]
    assert reveal.data["sides"]["clan3"] == Side.SCOTLAND.value


def test_SB_5_3_badge_cannot_be_handed_straight_back() -> None:
    t = new(4)
    t = go(t, {"clan1": {"badge": {"prefer": ["clan3"]}}})
    t = until(go(t), "plan")
    with pytest.raises(IllegalOrder, match=r"badge.prefer: the Badge of Honour may not go to clan1: clan1 gave it to "
                                           r"you last round and may not get it straight back \[SB-5.3\]"):
        go(t, {"clan3": {"badge": {"prefer": ["clan1", "clan2"]}}})
    t = go(t, {"clan3": {"badge": {"ask": True}}})
    assert t.pending.context["candidates"] == ["clan4", "clan2"]
    with pytest.raises(IllegalOrder, match="may not go to clan1: clan1 gave it to you last round"):
        go(t, {"clan3": {"to": "clan1"}})
    t = go(t, {"clan3": {"to": "clan2"}})
    assert t.badge == "clan2" and t.badge_prev_giver == "clan3"


def test_SB_5_3_asked_badge_holder_gets_the_legal_candidates() -> None:
    t = go(new(4), {"clan1": {"badge": {"ask": True}}})
    assert t.pending.owes == {"clan1": "badge"} and t.pending.context["candidates"] == ["clan2", "clan3", "clan4"]
    t = go(t, {"clan1": {"to": "clan4"}})
    assert t.badge == "clan4"


def test_SB_5_4_badge_holder_lays_no_token_others_choose_secretly() -> None:
    t = at_choice()
    import pytest
    from bp_support import order

    from pbem.core.errors import IllegalOrder
    with pytest.raises(IllegalOrder, match="Badge of Honour"):
        order(t, t.badge, loyalty="england")
    with pytest.raises(IllegalOrder, match="loyalty"):
        order(t, "clan1", loyalty=None)
    assert t.pending.owes == {s: "choice" for s in t.ids}   # everyone answers; nobody is skipped


def test_SB_5_5_battle_sums_and_tie_goes_to_scotland() -> None:
    t = at_choice()
    t.revealed[-1] = "sample-arms-1"                   # invented strength 7
    for s, camp in zip(t.seats, (2, 3, 4, 1)):
        s.camp = camp
    t.fields = 1
    stack_round_deck(t, "sample-arms-7")
    # badge is clan2 (Scotland): Scots 3 + clan1 2 + Fields 1 = 6 ; England clan3 4 + clan4 1 + 7 = 12
    t2 = go(t, {"clan1": {"loyalty": "scotland"}, "clan3": {"loyalty": "england"}, "clan4": {"loyalty": "england"}})
    battle = [e for e in t2.log if e.event == "battle"][0]
    assert battle.data["scots"] == 6 and battle.data["england"] == 12 and t2.defeats == 1
    t = at_choice()
    t.revealed[-1] = "sample-arms-1"
    for s, camp in zip(t.seats, (2, 3, 0, 2)):
        s.camp = camp
    t2 = go(t, {"clan1": {"loyalty": "scotland"}, "clan3": {"loyalty": "scotland"}, "clan4": {"loyalty": "scotland"}})
    battle = [e for e in t2.log if e.event == "battle"][0]
    assert battle.data["scots"] == 7 == battle.data["england"] and battle.data["scotland_won"] and t2.defeats == 0


def _awards(camps: tuple[int, ...], sides: dict[str, str], card: str = "sample-arms-1", **opts: object) -> object:
    t = at_choice(**opts)
    t.revealed[-1] = card
    stack_round_deck(t, "sample-arms-7")
    for s, camp in zip(t.seats, camps):
        s.camp = camp
    return t, go(t, {k: {"loyalty": v} for k, v in sides.items()})


def test_SB_5_6_scotland_wins_awards_gold_card_and_crown_split() -> None:
    t, t2 = _awards((10, 1, 1, 1), {"clan1": "scotland", "clan3": "england", "clan4": "england"})
    gold = [s.gold for s in t.seats]
    assert t2.scotland_won is None or True
    assert [s.gold - g for s, g in zip(t2.seats, gold)] == [2, 2, 3, 3]      # bonnet 2; crown 6 split in 2
    assert [len(s.hand) - len(o.hand) for s, o in zip(t2.seats, t.seats)] == [1, 1, 0, 0]
    assert [len(s.daggers) for s in t2.seats] == [0, 0, 1, 1]


def test_SB_5_6_england_wins_scots_get_pierced_bonnet_gold_and_a_castle_troop() -> None:
    t, t2 = _awards((1, 1, 9, 1), {"clan1": "scotland", "clan3": "england", "clan4": "england"})
    assert [s.gold - o.gold for s, o in zip(t2.seats, t.seats)] == [1, 1, 3, 3]
    assert [s.castle - o.castle for s, o in zip(t2.seats, t.seats)] == [1, 1, 0, 0]
    assert t2.defeats == 1


def test_SB_5_6_crown_without_three_lances_pays_each_in_full() -> None:
    t, t2 = _awards((9, 9, 1, 1), {"clan1": "scotland", "clan3": "england", "clan4": "england"}, "sample-arms-2")
    assert [s.gold - o.gold for s, o in zip(t2.seats, t.seats)][2:] == [3, 3]


def test_SB_5_6_deserters_get_nothing_and_are_not_in_the_split() -> None:
    t, t2 = _awards((10, 1, 1, 0), {"clan1": "scotland", "clan3": "england", "clan4": "england"})
    assert [s.gold - o.gold for s, o in zip(t2.seats, t.seats)] == [2, 2, 6, 0]
    assert [len(s.daggers) for s in t2.seats] == [0, 0, 1, 0]
    assert any("Deserters (empty camp): clan4" in x for x in texts(t2))


def test_SB_5_6_deserter_options_dagger_and_divisor() -> None:
    t, t2 = _awards((10, 1, 1, 0), {"clan1": "scotland", "clan3": "england", "clan4": "england"},
                    deserters_take_dagger=True, deserters_count_in_split=True)
    assert [s.gold - o.gold for s, o in zip(t2.seats, t.seats)] == [2, 2, 3, 0]
    assert [len(s.daggers) for s in t2.seats] == [0, 0, 1, 1]


def test_SB_5_7_end_discards_camps_and_fields_and_badge_holder_starts() -> None:
    t = at_choice()
    for s in t.seats:
        s.camp = 3
    t.fields = 2
    t2 = go(t, {"clan1": {"loyalty": "scotland"}, "clan3": {"loyalty": "scotland"}, "clan4": {"loyalty": "scotland"}})
    while "plan" not in t2.pending.owes.values():
        t2 = go(t2)
    assert all(s.camp == 0 for s in t2.seats) and t2.fields == 0
    t3 = go(t2)
    turns = [e.data["seat"] for e in t3.log if e.event == "turn"]
    assert turns[0] == t2.badge == "clan2"


def test_SB_5_7_bot_games_play_through() -> None:
    s = play_engine_game(4, b"round", "simple")
    assert s.winners and not s.problems
