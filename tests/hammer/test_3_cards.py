"""3.0-3.12 and 4.1: the deal, simultaneous play, reveal, initiative and the end of the year."""

from __future__ import annotations

from collections import Counter

import pytest
from fakes import owed

from pbem.core.drbg import Drbg
from pbem.hammer.rules.cardphase import end_year, play_cards, player1_for, start_year, year_over
from pbem.hammer.rules.cards import card, deck
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import Battle, GameState, Options


def game(england: list[str], scotland: list[str]) -> GameState:
    state = setup("braveheart", Options(), Drbg(b"cards-test-key-0" * 2))
    state.hands = {"england": list(england), "scotland": list(scotland)}
    return state


def test_3_0_deck_is_twenty_moves_and_five_events() -> None:
    cards = deck().values()
    assert Counter(c.value for c in cards if not c.is_event) == {3: 3, 2: 10, 1: 7}
    assert sorted(c.id for c in cards if c.is_event) == ["herald", "pillage", "sea_move", "truce", "victuals"]


def test_3_0_each_year_deals_five_cards_to_each_side_from_a_full_shuffle() -> None:
    state = game([], [])
    state.turn = 5  # last year's count
    start_year(state, Drbg(b"another-key-0123" * 2))
    assert len(state.hands["england"]) == 5 and len(state.hands["scotland"]) == 5
    dealt = state.hands["england"] + state.hands["scotland"] + state.deck
    assert sorted(dealt) == sorted(deck())
    assert state.turn == 0 and state.played == {"england": [], "scotland": []}


def test_3_0_the_deal_depends_only_on_the_stream() -> None:
    a, b = game([], []), game([], [])
    start_year(a, Drbg(b"same-key-same-key-same" * 2))
    start_year(b, Drbg(b"same-key-same-key-same" * 2))
    assert a.hands == b.hands and a.deck == b.deck


def test_3_1_both_cards_are_revealed_recorded_and_leave_the_hands() -> None:
    state = game(["move3-1", "move1-1"], ["move2-1", "herald"])
    reveal = play_cards(state, {"england": "move1-1", "scotland": "move2-1"})
    assert reveal.cards == {"england": "move1-1", "scotland": "move2-1"}
    assert state.current.cards == {"england": "move1-1", "scotland": "move2-1"}
    assert state.played == {"england": ["move1-1"], "scotland": ["move2-1"]}
    assert state.hands == {"england": ["move3-1"], "scotland": ["herald"]}
    assert state.turn == 1


def test_3_1_a_card_not_in_hand_is_illegal() -> None:
    state = game(["move3-1"], ["move2-1"])
    with pytest.raises(IllegalOrder, match=r"not in scotland's hand.*\(3\.1\)") as exc:
        play_cards(state, {"england": "move3-1", "scotland": "move3-2"})
    assert exc.value.rule == "3.1"
    assert state.hands == {"england": ["move3-1"], "scotland": ["move2-1"]} and state.turn == 0


def test_3_1_both_sides_must_play() -> None:
    state = game(["move3-1"], ["move2-1"])
    with pytest.raises(InvalidOrder, match="both england and scotland"):
        play_cards(state, {"england": "move3-1"})
    with pytest.raises(InvalidOrder, match="no such card"):
        play_cards(state, {"england": "move3-1", "scotland": "move9-1"})


def test_3_1_higher_card_is_player_1() -> None:
    assert player1_for({"england": "move1-1", "scotland": "move2-1"}) == "scotland"
    assert player1_for({"england": "move3-1", "scotland": "move2-1"}) == "england"


def test_4_1_england_wins_ties() -> None:
    assert player1_for({"england": "move2-1", "scotland": "move2-2"}) == "england"
    assert player1_for({"england": "move1-1", "scotland": "move1-2"}) == "england"


def test_3_11_move_cards_allow_their_value_in_group_moves() -> None:
    assert [card(f"move{v}-1").value for v in (1, 2, 3)] == [1, 2, 3]


def test_3_12_the_player_of_an_event_is_player_1_even_against_a_move_3() -> None:
    state = game(["move3-1", "move1-1"], ["pillage", "move1-2"])
    reveal = play_cards(state, {"england": "move3-1", "scotland": "pillage"})
    assert reveal.player1 == "scotland" and state.current.player1 == "scotland"
    assert reveal.events == ("scotland",) and not reveal.year_ends
    assert not year_over(state)


def test_3_12_two_events_are_both_resolved_england_first_and_the_year_ends() -> None:
    state = game(["victuals", "move3-1"], ["herald", "move2-1"])
    reveal = play_cards(state, {"england": "victuals", "scotland": "herald"})
    assert reveal.events == ("england", "scotland")
    assert reveal.player1 == "england"
    assert reveal.year_ends and year_over(state)


def test_3_12_a_truce_binds_only_once_used_so_a_passed_truce_leaves_attacks_open() -> None:
    """Revealing Truce sets nothing: events.py sets it when used; passing it must not (Card Play sidebar)."""
    from pbem.hammer.rules import engine
    from pbem.hammer.rules.decisions import FirstOption

    rng = Drbg(b"truce-pass-key-0" * 2)
    for params, truce in (({"pass": True}, ""), ({}, "scotland")):
        state = game(["move2-1", "move1-1"], ["truce", "move1-2"])
        play_cards(state, {"england": "move2-1", "scotland": "truce"})
        assert state.current.truce == ""
        state.phase = "event"
        engine.submit_events(state, "scotland", params, rng, FirstOption())
        assert state.current.truce == truce, params


def test_3_1_a_new_game_turn_starts_a_fresh_turn_record() -> None:
    state = game(["move2-1", "move1-1"], ["move2-2", "move1-2"])
    play_cards(state, {"england": "move2-1", "scotland": "move2-2"})
    state.current.moved = ["Wallace"]
    state.current.battles = {"Fife": Battle(area="Fife", attacker="england")}
    state.current.moves_done = ["england", "scotland"]
    play_cards(state, {"england": "move1-1", "scotland": "move1-2"})
    assert state.current.moved == [] and state.current.battles == {} and state.current.moves_done == []
    assert state.turn == 2


def test_4_3_border_limits_are_per_move_phase_a_new_game_turn_resets_the_counts() -> None:
    state = game(["move2-1", "move1-1"], ["move2-2", "move1-2"])
    play_cards(state, {"england": "move2-1", "scotland": "move2-2"})
    state.current.crossings = {"england|Angus-Buchan": 6}
    play_cards(state, {"england": "move1-1", "scotland": "move1-2"})
    assert state.current.crossings == {} and state.current.cards == {"england": "move1-1", "scotland": "move1-2"}


def test_3_0_a_year_has_at_most_five_game_turns() -> None:
    state = game([], [])
    start_year(state, Drbg(b"five-turns-key-0" * 2))
    for turn in range(1, 6):
        assert not year_over(state)
        plays = {s: sorted(state.hands[s], key=lambda c: card(c).is_event)[0] for s in ("england", "scotland")}
        play_cards(state, plays)
        if all(card(c).is_event for c in plays.values()):
            break
        assert state.turn == turn
    assert year_over(state)
    state.hands = {"england": ["move1-1"], "scotland": ["move1-2"]}  # even with cards somehow left
    state.turn = 5
    with pytest.raises(IllegalOrder, match=r"\(3\.0\)"):
        play_cards(state, {"england": "move1-1", "scotland": "move1-2"})


def test_3_0_leftover_cards_are_discarded_at_year_end() -> None:
    state = game(["move3-1", "move1-1"], ["move2-1", "herald"])
    play_cards(state, {"england": "move3-1", "scotland": "herald"})
    discarded = end_year(state)
    assert discarded == {"england": ["move1-1"], "scotland": ["move2-1"]}
    assert state.hands == {"england": [], "scotland": []}
    start_year(state, Drbg(b"next-year-key-01" * 2))
    assert len(state.hands["england"]) == 5 and "move1-1" not in state.played["england"]


def test_3_0_the_year_ends_after_the_fifth_game_turn_whatever_is_in_hand() -> None:
    state = game(["move1-1"], ["move1-2"])
    state.turn = 4
    assert not year_over(state)
    state.turn = 5
    assert year_over(state)


def test_3_12_event_cards_are_resolved_before_any_move() -> None:
    """After the reveal the game waits for the Event; moves are refused until it is resolved."""
    from pbem.hammer.rules import engine
    from pbem.hammer.rules.decisions import FirstOption

    rng = Drbg(b"events-first-key" * 2)
    state = game(["move3-1", "move1-1"], ["victuals", "move1-2"])
    engine.submit_cards(state, {"england": "move3-1", "scotland": "victuals"}, rng, FirstOption())
    assert engine.next_step(state) == "event" and owed(state) == {"scotland": "event"}
    with pytest.raises(IllegalOrder):
        engine.submit_moves(state, "england", {"moves": []}, rng, FirstOption())
    engine.submit_events(state, "scotland", {"pass": True}, rng, FirstOption())
    assert engine.next_step(state) == "move" and owed(state) == {"england": "moves"}
