"""The Game Turn sequence (3.0, 3.12, 4.1, 5.1, 5.9, 7.0, 9.1) driven through engine.py.

The rules modules the engine calls are replaced by recording stand-ins, so these tests check
only the order of the steps, who owes what, and re-entrancy after a pause.
"""

from __future__ import annotations

from typing import Any

import pytest
from fakes import owed

from pbem.core.drbg import Drbg
from pbem.hammer.rules import engine
from pbem.hammer.rules.decisions import FirstOption, NeedDecision, Question, Scripted
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import Battle, GameState, Options


class Stand:
    """Records every call the engine makes into the rules modules."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.battles_from_moves: dict[str, list[str]] = {}
        self.pause_fight_once: set[str] = set()
        self.winner_after_turn = ""
        monkeypatch.setattr(engine, "_apply_moves", self.apply_moves)
        monkeypatch.setattr(engine, "_fight", self.fight)
        monkeypatch.setattr(engine, "_border_raid", self.border_raid)
        monkeypatch.setattr(engine, "_winter", self.winter)
        monkeypatch.setattr(engine, "_sudden_death", self.sudden_death)
        monkeypatch.setattr(engine, "_resolve_event", self.resolve_event)

    def apply_moves(self, state: GameState, side: str, order: Any) -> list[dict[str, Any]]:
        self.calls.append(("moves", side, order))
        for area in self.battles_from_moves.get(side, []):
            state.current.battles[area] = Battle(area=area, attacker=side)
        return []

    def fight(self, state: GameState, area: str, rng: Any, decider: Any) -> list[dict[str, Any]]:
        self.calls.append(("fight", area))
        if area in self.pause_fight_once:
            self.pause_fight_once.discard(area)
            decider.decide(Question(side="scotland", kind="hit", options=("a", "b"), rule="5.42"))
        return [{"what": "battle", "area": area}]

    def border_raid(self, state: GameState, decider: Any) -> list[dict[str, Any]]:
        self.calls.append(("raid", state.turn))
        return []

    def winter(self, state: GameState, rng: Any, decider: Any) -> list[dict[str, Any]]:
        self.calls.append(("winter", state.year))
        from pbem.hammer.rules.winter import new_year
        return new_year(state, rng, decider)  # winter.py's last step turns the year (7.8)

    def sudden_death(self, state: GameState) -> None:
        self.calls.append(("sudden_death", state.turn))
        if self.winner_after_turn:
            state.winner = self.winner_after_turn

    def resolve_event(self, state: GameState, side: str, card_id: str, params: dict[str, Any], rng: Any,
                      decider: Any) -> list[dict[str, Any]]:
        self.calls.append(("event", side, card_id, params))
        return []



def fresh(hands: dict[str, list[str]] | None = None) -> GameState:
    state = setup("braveheart", Options(), Drbg(b"engine-test-key-" * 2))
    if hands:
        state.hands = {s: list(h) for s, h in hands.items()}
    return state


RNG = Drbg(b"engine-step-key-" * 2)
MOVES = {"england": ["move3-1", "move2-1", "move2-2", "move1-1", "move1-2"],
         "scotland": ["move3-2", "move2-3", "move2-4", "move1-3", "move1-4"]}


def test_3_1_the_game_starts_in_the_card_step_owed_by_both(monkeypatch: pytest.MonkeyPatch) -> None:
    Stand(monkeypatch)
    state = fresh()
    assert engine.next_step(state) == "card"
    assert owed(state) == {"england": "card", "scotland": "card"}


def test_4_1_player_1_moves_first_then_player_2(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    state = fresh(MOVES)
    engine.submit_cards(state, {"england": "move1-1", "scotland": "move3-2"}, RNG, FirstOption())
    assert engine.next_step(state) == "move" and owed(state) == {"scotland": "moves"}
    with pytest.raises(IllegalOrder, match=r"scotland moves now \(4\.1\)"):
        engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    engine.submit_moves(state, "scotland", {"moves": []}, RNG, FirstOption())
    assert owed(state) == {"england": "moves"}
    engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    assert [c[1] for c in stand.calls if c[0] == "moves"] == ["scotland", "england"]
    assert state.current.moves_done == ["scotland", "england"]
    assert engine.next_step(state) == "card" and state.turn == 1  # no battles: the turn ended


def test_3_1_a_step_out_of_turn_is_illegal_and_names_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    Stand(monkeypatch)
    state = fresh(MOVES)
    with pytest.raises(IllegalOrder, match="in its card step, not the move step"):
        engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    with pytest.raises(IllegalOrder, match="not the winter step"):
        engine.run_winter(state, RNG, FirstOption())
    engine.submit_cards(state, {"england": "move1-1", "scotland": "move1-3"}, RNG, FirstOption())
    with pytest.raises(IllegalOrder, match="in its move step, not the card step"):
        engine.submit_cards(state, {"england": "move1-2", "scotland": "move1-4"}, RNG, FirstOption())


def test_3_12_the_event_player_is_player_1_and_has_no_move_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    hands = {"england": MOVES["england"], "scotland": ["victuals"] + MOVES["scotland"][:4]}
    state = fresh(hands)
    engine.submit_cards(state, {"england": "move3-1", "scotland": "victuals"}, RNG, FirstOption())
    assert state.current.player1 == "scotland"
    assert engine.next_step(state) == "event" and owed(state) == {"scotland": "event"}
    with pytest.raises(IllegalOrder, match=r"\(3\.12\)"):
        engine.submit_events(state, "england", {}, RNG, FirstOption())
    engine.submit_events(state, "scotland", {"area": "Fife"}, RNG, FirstOption())
    assert ("event", "scotland", "victuals", {"area": "Fife"}) in stand.calls
    assert engine.next_step(state) == "move" and owed(state) == {"england": "moves"}
    engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    assert [c[1] for c in stand.calls if c[0] == "moves"] == ["england"]
    assert engine.next_step(state) == "card"


def test_3_12_two_events_england_first_then_the_year_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    hands = {"england": ["herald"] + MOVES["england"][:4], "scotland": ["pillage"] + MOVES["scotland"][:4]}
    state = fresh(hands)
    engine.submit_cards(state, {"england": "herald", "scotland": "pillage"}, RNG, FirstOption())
    assert owed(state) == {"england": "event"}
    with pytest.raises(IllegalOrder, match="england Event is resolved first"):
        engine.submit_events(state, "scotland", {}, RNG, FirstOption())
    engine.submit_events(state, "england", {}, RNG, FirstOption())
    assert owed(state) == {"scotland": "event"}
    engine.submit_events(state, "scotland", {}, RNG, FirstOption())
    assert [c[1] for c in stand.calls if c[0] == "event"] == ["england", "scotland"]
    assert not [c for c in stand.calls if c[0] == "moves"]        # no Move Phase
    assert ("raid", 1) in stand.calls and ("sudden_death", 1) in stand.calls  # still a turn's end
    assert engine.next_step(state) == "winter" and state.turn == 1
    assert state.hands == {"england": [], "scotland": []}         # leftovers discarded (3.0)


def test_3_0_after_five_game_turns_comes_winter_then_a_new_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    state = fresh(MOVES)
    for i in range(5):
        assert engine.next_step(state) == "card"
        engine.submit_cards(state, {s: MOVES[s][i] for s in MOVES}, RNG, FirstOption())
        for _ in range(2):
            (mover,) = owed(state)
            engine.submit_moves(state, mover, {"moves": []}, RNG, FirstOption())
    assert [c[1] for c in stand.calls if c[0] == "raid"] == [1, 2, 3, 4, 5]  # 5.9 every Game Turn
    assert engine.next_step(state) == "winter" and owed(state) == {"england": "winter", "scotland": "winter"}
    engine.run_winter(state, RNG, FirstOption())
    assert ("winter", 1297) in stand.calls
    assert state.year == 1298 and state.turn == 0 and engine.next_step(state) == "card"
    assert len(state.hands["england"]) == 5 and len(state.hands["scotland"]) == 5
    assert state.played == {"england": [], "scotland": []}


def test_9_1_sudden_death_at_the_end_of_a_game_turn_ends_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    stand.winner_after_turn = "england"
    state = fresh(MOVES)
    engine.submit_cards(state, {"england": "move1-1", "scotland": "move1-3"}, RNG, FirstOption())
    engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    assert engine.next_step(state) == "move"
    engine.submit_moves(state, "scotland", {"moves": []}, RNG, FirstOption())
    assert engine.next_step(state) == "over" and owed(state) == {}


def test_9_0_the_last_year_ends_with_its_winter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count is the winter's last act (winter.py); the engine never counts before it."""
    stand = Stand(monkeypatch)
    state = fresh(MOVES)
    state.year = 1305
    for i in range(5):
        engine.submit_cards(state, {s: MOVES[s][i] for s in MOVES}, RNG, FirstOption())
        for _ in range(2):
            (mover,) = owed(state)
            engine.submit_moves(state, mover, {"moves": []}, RNG, FirstOption())
    assert engine.next_step(state) == "winter" and not state.winner
    engine.run_winter(state, RNG, FirstOption())
    assert [c for c in stand.calls if c[0] == "winter"] == [("winter", 1305)]


def test_5_1_battles_are_fought_one_by_one_in_player_1s_order(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    stand.battles_from_moves = {"england": ["Fife", "Lanark", "Moray"]}
    state = fresh(MOVES)
    engine.submit_cards(state, {"england": "move3-1", "scotland": "move1-3"}, RNG, FirstOption())
    engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    engine.submit_moves(state, "scotland", {"moves": []}, RNG, FirstOption())
    assert engine.next_step(state) == "battle" and owed(state) == {}  # nobody is asked: the order is Player 1's (5.1)
    with pytest.raises(IllegalOrder, match=r"no battle in Annan this turn \(5\.1\)"):
        engine.run_battles(state, ["Annan"], RNG, FirstOption())
    asker = Scripted({"england": ["Fife"]})
    engine.run_battles(state, ["Moray"], RNG, asker)
    assert [c[1] for c in stand.calls if c[0] == "fight"] == ["Moray", "Fife", "Lanark"]
    assert [(q.kind, q.options, q.rule) for q in asker.asked] == [("battle_next", ("Fife", "Lanark"), "5.1")]
    assert state.current.battles == {} and engine.next_step(state) == "card"


def test_5_1_a_paused_battle_resumes_where_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    stand = Stand(monkeypatch)
    stand.battles_from_moves = {"england": ["Fife", "Lanark"]}
    stand.pause_fight_once = {"Lanark"}
    state = fresh(MOVES)
    engine.submit_cards(state, {"england": "move3-1", "scotland": "move1-3"}, RNG, FirstOption())
    engine.submit_moves(state, "england", {"moves": []}, RNG, FirstOption())
    engine.submit_moves(state, "scotland", {"moves": []}, RNG, FirstOption())
    with pytest.raises(NeedDecision):
        engine.run_battles(state, ["Lanark"], RNG, Scripted())
    assert state.current.fighting == "Lanark" and engine.next_step(state) == "battle"
    engine.run_battles(state, [], RNG, Scripted({"england": ["Fife"]}))  # no new question asked first
    assert [c[1] for c in stand.calls if c[0] == "fight"] == ["Lanark", "Lanark", "Fife"]
    assert engine.next_step(state) == "card"


def test_3_0_the_state_survives_serialisation_between_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    Stand(monkeypatch)
    state = fresh(MOVES)
    engine.submit_cards(state, {"england": "move2-1", "scotland": "move3-2"}, RNG, FirstOption())
    again = GameState.from_dict(state.to_dict())
    assert again.hash() == state.hash() and owed(again) == {"scotland": "moves"}


def test_3_12_two_real_events_end_the_year_and_winter_deals_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real events, winter and victory modules: Victuals and Truce, then Winter, then 1298."""
    from pbem.hammer.rules.events import legal_events
    monkeypatch.setattr(engine, "_border_raid", lambda state, decider: [])  # no Scot is in England
    state = fresh({"england": ["victuals"] + MOVES["england"][:4], "scotland": ["truce"] + MOVES["scotland"][:4]})
    log = engine.submit_cards(state, {"england": "victuals", "scotland": "truce"}, RNG, FirstOption())
    assert log[0].facts["player1"] == "england" and state.current.truce == ""  # binds once used
    params = legal_events(state, "england")[0]
    engine.submit_events(state, "england", params, RNG, FirstOption())
    engine.submit_events(state, "scotland", {}, RNG, FirstOption())
    assert state.current.truce == "scotland"
    assert engine.next_step(state) == "winter" and state.hands == {"england": [], "scotland": []}
    engine.run_winter(state, Drbg(b"winter-stream-key" * 2), FirstOption())
    assert engine.next_step(state) == "card" and state.year == 1298 and state.turn == 0
    assert [len(state.hands[s]) for s in ("england", "scotland")] == [5, 5]
    assert state.check() == []


def test_3_12_an_event_paused_at_a_decision_leaves_state_and_dice_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    Stand(monkeypatch)

    def event(state: GameState, side: str, card_id: str, params: dict[str, Any], rng: Any, decider: Any) -> list:
        state.blocks["Dunbar"].owner = side  # a Herald's conversion, say, then a die and a question
        rng.d6()
        decider.decide(Question(side="england", kind="hit", options=("a", "b"), rule="5.41"))
        return [{"what": "event", "converted": "Dunbar"}]

    monkeypatch.setattr(engine, "_resolve_event", event)
    hands = {"england": MOVES["england"], "scotland": ["herald"] + MOVES["scotland"][:4]}
    state = fresh(hands)
    engine.submit_cards(state, {"england": "move3-1", "scotland": "herald"}, RNG, FirstOption())
    before, rng = state.hash(), Drbg(b"event-pause-key!" * 2)
    with pytest.raises(NeedDecision):
        engine.submit_events(state, "scotland", {"noble": "Dunbar"}, rng, Scripted())
    assert state.hash() == before and rng.position == 0 and owed(state) == {"scotland": "event"}
    engine.submit_events(state, "scotland", {"noble": "Dunbar"}, rng, Scripted({"england": ["a"]}))
    assert state.blocks["Dunbar"].owner == "scotland" and engine.next_step(state) == "move"
