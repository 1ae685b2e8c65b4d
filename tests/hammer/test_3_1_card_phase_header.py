"""3.1: in the Card Phase the turn's Player 1 is decided by the cards about to be played, so the
report's header never shows the last turn's Player 1 (nor its cards as this turn's)."""

from __future__ import annotations

from fakes import bare_state, put

from pbem.hammer.show.render import render_text
from pbem.hammer.show.views import view


def _after_a_turn(phase: str) -> str:
    s = bare_state(year=1297)
    s.turn, s.phase = 1, phase
    put(s, "scotland", "Fife", "Wallace")
    put(s, "england", "Lothian", "Edward")
    s.current.cards = {"england": "move2-3", "scotland": "move1-4"}
    s.current.player1 = "england"
    return render_text(view(s, "scotland"))


def test_3_1_card_phase_header_names_no_player1_of_last_turn() -> None:
    text = _after_a_turn("card")
    assert "Player 1: decided by this turn's cards" in text
    assert "Player 1: england" not in text
    assert "cards this turn: none yet (last turn: england: move2-3 (Move 2); scotland: move1-4 (Move 1))" in text


def test_3_1_after_the_cards_the_header_names_this_turns_player1() -> None:
    text = _after_a_turn("move")
    assert "Player 1: england" in text
    assert "cards this turn: england: move2-3 (Move 2); scotland: move1-4 (Move 1)" in text
