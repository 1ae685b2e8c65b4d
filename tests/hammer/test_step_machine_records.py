"""The step machine's secret state as typed records (stepstate.StepState), the engine's step
registry, and the one driver of the turn sequence (engine.drive) the ruleset and play_game share."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fakes import NoOrders
from hammer.pause_points import R, pause_points

from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.hammer.play import bots
from pbem.hammer.rules import engine
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import DataError
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import GameState, Options
from pbem.hammer.rules.stepstate import StepState


def _states() -> list[dict[str, Any]]:
    return [p.state for found in pause_points().values() for p in found]


def test_step_state_round_trips_every_state_of_real_games() -> None:
    """Every state bot games waited in, parsed and written back: the same data, key for key
    (``questions`` only where it was), and the same canonical bytes; a fork writes the same too."""
    states = _states()
    assert len(states) > 100
    for state in states:
        before = copy.deepcopy(state)
        record = StepState.from_data(state)
        assert record.to_data() == state
        assert canonical_bytes(record.to_data()) == canonical_bytes(state)
        assert canonical_bytes(record.fork().to_data()) == canonical_bytes(state)
        assert state == before  # reading a state never changes it
    # the optional parts turned up: a battle's questions asked together, a call paused and resumed
    assert any("questions" in s for s in states) and any("questions" not in s for s in states)
    assert any(s["resume"] and "ask" in s["resume"] for s in states)
    assert any(s["resume"] and "decided" in s["resume"] for s in states)
    assert any(p for s in states for p in s["pending"].values())


def test_step_state_fork_shares_nothing_a_step_changes() -> None:
    state = next(s for s in _states() if s["resume"] and "decided" in s["resume"])
    before = canonical_bytes(state)
    fork = StepState.from_data(state).fork()
    assert fork.resume is not None and fork.resume.decided is not None
    fork.resume.decided.append({"side": "england"})
    fork.resume.answers.setdefault("england", []).append("x")
    for p in fork.pending.values():
        p.plans = {"changed": True}
    fork.owes.clear()
    assert canonical_bytes(state) == before
    assert fork.game is state["game"]  # the game's data is only ever replaced, so it is shared


def test_the_engine_steps_are_found_by_their_stored_names() -> None:
    for name in ("submit_cards", "submit_events", "submit_moves", "run_battles", "run_winter"):
        assert engine.step_named(name) == name
        assert engine.STEPS[name] is getattr(engine, name)


def test_a_stored_state_naming_an_unknown_paused_call_is_refused() -> None:
    state = copy.deepcopy(next(s for s in _states() if s["resume"]))
    state["resume"]["call"] = "__import__"
    with pytest.raises(DataError, match=r"^unknown step '__import__' in the stored state's paused call; "
                                        r"the steps are submit_cards, .*, advance$"):
        R.report(state, "england", [])
    with pytest.raises(DataError, match="unknown step '__import__'"):
        R.adjudicate(state, {}, Drbg(b"k" * 32))


KIND = {"card": "card", "event": "event", "move": "moves", "winter": "winter"}


def _due(state: GameState) -> dict[str, str]:
    """Who the rules say owes orders now: both sides a card (3.1) or winter plans (7.0); the side
    whose Event is next, England first (3.12); Player 1, then Player 2, their moves (4.1), the
    player of an Event having none (3.12); nobody in a battle (Player 1's order comes with the
    moves, 5.1), at the end of a turn or when the game is over."""
    phase, cur = engine.next_step(state), state.current
    if phase in ("card", "winter"):
        return {s: KIND[phase] for s in SIDES}
    events = [s for s in SIDES if s in cur.cards and card(cur.cards[s]).is_event]
    if phase == "event":
        return {s: "event" for s in [s for s in events if s not in cur.events_done][:1]}
    if phase == "move":
        order = ["scotland", "england"] if cur.player1 == "scotland" else ["england", "scotland"]
        return {s: "moves" for s in [s for s in order if s not in events and s not in cur.moves_done][:1]}
    return {}


def test_one_driver_asks_whom_the_rules_say_owes_in_engine_games() -> None:
    """play_game walks the turn through engine.drive; at each step the driver, given no orders,
    waits for exactly the sides the rules say owe orders, or runs the next step when none does."""
    seen: set[str] = set()

    def check(state: GameState, step: str) -> None:
        phase = engine.next_step(state)
        waiting = engine.next_call(state, NoOrders())
        due = _due(state)
        if due or phase == "over":
            seen.add(phase)
            assert waiting == engine.Waiting(due)
        else:
            assert isinstance(waiting, engine.StepCall)

    for seed in range(2):
        state = setup("braveheart", Options(), bots.game_stream(f"drive|{seed}", "setup"))
        engine.play_game(state, {"england": bots.RandomPlayer(seed), "scotland": bots.RandomPlayer(seed + 7)},
                         lambda k: bots.game_stream(f"drive|{seed}", k), after_step=check)
    assert seen == {*KIND, "over"}


def test_one_driver_asks_whom_the_ruleset_says_owes_in_referee_games() -> None:
    """The ruleset's owes, at every state its games waited in (but a decide step, which is a
    paused call's question), is what the same driver says with no orders pending."""
    for state in _states():
        owes = R.owes(state)
        if not owes or "decide" in owes.values():
            continue
        waiting = engine.next_call(GameState.from_dict(state["game"]), NoOrders())
        assert isinstance(waiting, engine.Waiting) and waiting.owes == owes


def test_play_game_and_the_ruleset_both_walk_the_turn_through_engine_drive(monkeypatch: pytest.MonkeyPatch) -> None:
    callers: list[str] = []
    real = engine.drive

    def drive(state: GameState, source: Any, run: Any) -> Any:
        callers.append(type(source).__name__)
        return real(state, source, run)

    monkeypatch.setattr(engine, "drive", drive)
    bots.random_game("braveheart", 3, Options(), until_year=1297)
    state = R.setup("braveheart", {}, Drbg(b"s" * 32))
    R.adjudicate(state, {s: R.default_order(state, s) for s in R.owes(state)}, Drbg(b"t" * 32))
    assert callers == ["_Players", "_SentAhead"]


def test_the_board_adjudicate_returns_is_the_public_view_of_its_state() -> None:
    """What core writes into the ledger entry (StepResult.public) is what ``public(state)`` gives."""
    state = R.setup("the_bruce", {}, Drbg(b"b" * 32))
    for k in range(40):
        if R.is_over(state):
            break
        out = R.adjudicate(state, {s: R.default_order(state, s) for s in R.owes(state)}, Drbg(bytes([k + 1]) * 32))
        assert canonical_bytes(out.public) == canonical_bytes(R.public(out.state))
        assert canonical_bytes(out.public) == canonical_bytes(R.__class__().public(copy.deepcopy(out.state)))
        state = out.state


def test_7_0_a_winter_plan_is_spent_when_its_winter_ends_even_after_a_decision() -> None:
    """A Winter Turn that paused for a decision and then ended leaves no winter plan behind: the
    next year's Winter Turn asks both sides again (7.0) instead of replaying last year's plans."""

    resumed_winters = 0
    for kind, found in pause_points().items():
        for paused in found:
            st = StepState.from_data(paused.state)
            if st.resume is not None and st.resume.call == "run_winter":
                resumed_winters += 1
            if st.resume is None and "winter" not in set(st.owes.values()):
                left = {s: st.pending_of(s).winter for s in ("england", "scotland")}
                assert left == {"england": None, "scotland": None}, (kind, st.step, left)
    assert resumed_winters, "the corpus has no winter paused for a decision"
