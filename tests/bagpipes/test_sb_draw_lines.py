"""docs/draws.md, Swords and Bagpipes "During play": every draw a step makes shows on a report line
with its stream position (a seat's hidden random pick: its own labelled stream) and what it drew
from, and a verifier written from the text (the stream of
tests/e2e/test_draws_from_the_text.py) draws it again: a reshuffled bagpipe deck, a reshuffled
dagger deck, a dagger card discarded at random, a 2-player dagger card drawn at random.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pbem.bagpipes import views
from pbem.bagpipes.engine import Game
from pbem.bagpipes.model import Order, Table
from pbem.bagpipes.ruleset import BagpipesRuleset
from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from test_draws_from_the_text import Stream, draw_key  # noqa: E402  (the verifier written from the text)

KEY = b"bagpipes-draw-lines-key-0123456"


def table(players: int) -> tuple[BagpipesRuleset, Table]:
    rules = BagpipesRuleset(players)
    t = rules._table(rules.setup("standard", {"players": players}, Drbg(b"set-up-key-for-draw-lines")))
    t.step, t.log = 3, []
    return rules, t


def lines(rules: BagpipesRuleset, t: Table, seat: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = views.report(t, rules.components, seat, "g", t.step)["log"]
    return out


def test_SB_13_a_reshuffled_bagpipe_deck_is_drawn_again_from_its_line() -> None:
    rules, t = table(4)
    seat = t.seats[0]
    t.bagpipe_discard, t.bagpipe_deck = sorted(t.bagpipe_deck)[:6], []
    rng = Drbg(KEY, position=5)
    Game(t, rules.components, rng).draw_bagpipe(seat, loot=False)
    shown = lines(rules, t, seat.id)
    shuffle = next(line for line in shown if line["event"] == "reshuffle")
    assert (shuffle["stream"], shuffle["stream_at"], shuffle["deck"]) == ([3], 5, "bagpipe")
    deck = Stream(KEY, shuffle["stream_at"]).shuffled(shuffle["drawn_from"])
    assert next(line for line in shown if line["event"] == "you_draw")["card"] == deck[0]
    assert all(line["stream"] == [3] for line in shown)


def test_SB_13_a_reshuffled_dagger_deck_is_its_discards_sorted_and_shuffled() -> None:
    rules, t = table(4)
    seat = t.seats[1]
    pile = sorted(t.dagger_deck)[:5]
    t.dagger_discard, t.dagger_deck = list(reversed(pile)), []
    Game(t, rules.components, Drbg(KEY, position=9)).draw_dagger(seat)
    shown = lines(rules, t, seat.id)
    shuffle = next(line for line in shown if line["event"] == "reshuffle")
    assert "drawn_from" not in shuffle and (shuffle["deck"], shuffle["stream_at"]) == ("dagger", 9)
    assert next(line for line in shown if line["event"] == "your_dagger")["card"] == \
        Stream(KEY, 9).shuffled(pile)[0]
    assert all("drawn_from" not in line for line in lines(rules, t, t.seats[0].id))  # nobody else sees the pile


def test_SB_13_a_dagger_card_discarded_at_random_is_drawn_again_from_its_line() -> None:
    rules, t = table(4)
    seat = t.seats[2]
    seat.daggers = ["d3#1", "d1#2", "d2#4"]
    Game(t, rules.components, Drbg(KEY, position=2)).discard_dagger(seat, None)
    mine = next(line for line in lines(rules, t, seat.id) if line["event"] == "your_discard")
    assert mine["drawn_from"] == ["d1#2", "d2#4", "d3#1"] and mine["draw"] == f"your_discard:{seat.id}:0"
    assert mine["card"] == mine["drawn_from"][Stream(draw_key(KEY, mine["draw"])).randbelow(3)]
    assert all(line["event"] != "your_discard" for line in lines(rules, t, t.seats[0].id))


def test_SB_10_a_two_player_dagger_drawn_at_random_is_drawn_again_from_its_line() -> None:
    rules, t = table(2)
    game = Game(t, rules.components, Drbg(KEY, position=7))
    game.take_choices({s.id: Order(kind="choice", round=t.round) for s in t.seats})
    for seat in t.seats:
        mine = [line for line in lines(rules, t, seat.id) if line["event"] == "random_dagger"]
        assert len(mine) == 1 and mine[0]["drawn_from"] == sorted(mine[0]["drawn_from"])
        assert mine[0]["draw"] == f"random_dagger:{seat.id}:0"
        w = Stream(draw_key(KEY, mine[0]["draw"]))
        assert mine[0]["card"] == mine[0]["drawn_from"][w.randbelow(len(mine[0]["drawn_from"]))]
        assert t.chosen_daggers[seat.id] == mine[0]["card"]


def test_SB_10_a_seats_random_dagger_line_is_the_same_whether_another_seats_pick_was_random() -> None:
    """docs/draws.md "During play": a hidden random pick reads a stream of its own, so the second
    seat's line (and every later position of the step's stream) cannot tell whether the first seat
    chose its dagger card or had one drawn at random."""
    shown: list[list[dict[str, Any]]] = []
    for first_chose in (True, False):
        rules, t = table(2)
        first, second = t.seats
        rng = Drbg(KEY, position=7)
        pick = sorted(first.dagger_hand)[0] if first_chose else None
        Game(t, rules.components, rng).take_choices({first.id: Order(kind="choice", round=t.round, dagger=pick),
                                                     second.id: Order(kind="choice", round=t.round)})
        assert any(line["event"] == "random_dagger" for line in lines(rules, t, first.id)) is not first_chose
        shown.append([line for line in lines(rules, t, second.id) if line["event"] == "random_dagger"])
        shown[-1].append({"position": rng.position})
    assert len(shown[0]) == 2 and repr(shown[0]) == repr(shown[1])


# --- docs/draws.md "Line numbers": a seat's report numbers only the lines it sees ----------------------

def test_draws_line_numbers_a_two_player_seat_sees_the_same_report_lines_whether_the_other_pick_was_random() -> None:
    """The second seat's whole log, ``line`` numbers included, is byte for byte the same whether the first
    seat chose its dagger card or had one drawn at random (a hidden ``random_dagger`` line of its own)."""
    shown: list[bytes] = []
    for first_chose in (True, False):
        rules, t = table(2)
        first, second = t.seats
        pick = sorted(first.dagger_hand)[0] if first_chose else None
        choices = {first.id: Order(kind="choice", round=t.round, dagger=pick),
                   second.id: Order(kind="choice", round=t.round)}
        Game(t, rules.components, Drbg(KEY, position=7)).take_choices(choices)
        hidden = [line for line in lines(rules, t, first.id) if line["event"] == "random_dagger"]
        assert len(hidden) == (0 if first_chose else 1)
        seen = lines(rules, t, second.id)
        assert [line["line"] for line in seen] == list(range(len(seen)))
        shown.append(canonical_bytes(seen))
    assert shown[0] == shown[1]


def test_draws_line_numbers_a_seat_sees_the_same_report_lines_whatever_hidden_lines_other_seats_had() -> None:
    """Four seats: however many hidden lines the others had before (none, or three each), a seat's lines are
    numbered 0, 1, 2, ... with no gap and its log is byte for byte the same; the reveal bundle's ``lines``
    (``log_order``) still gives each line's place in the step's whole log."""
    shown: list[bytes] = []
    for hidden in (0, 3):
        rules, t = table(4)
        me = t.seats[3]
        game = Game(t, rules.components, Drbg(KEY))
        for other in t.seats[:3]:
            for k in range(hidden):
                game.log("you_draw", f"hidden {k}", visible=other.id, card=f"x#{k}")
            game.draw_bagpipe(other, loot=False)
        game.draw_bagpipe(me, loot=False)
        seen = lines(rules, t, me.id)
        assert [line["line"] for line in seen] == list(range(len(seen))) and len(seen) == 5
        shown.append(canonical_bytes(seen))
        order = rules.log_order(t.to_data())[me.id]
        assert [t.log[i].text for i in order] == [line["text"] for line in seen]
        assert order[-1] == len(t.log) - 1 and order[0] == hidden
    assert shown[0] == shown[1]
