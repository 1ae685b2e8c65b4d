"""The Game Turn sequence (3.0-9.1) as a state machine over ``state.phase``.

    card ─► event ─► move (Player 1, then Player 2) ─► battle ─► end_turn ─┬─► card
       (an Event needs resolving)   (no Move Phase after two Events)        └─► winter ─► card | over

Each public ``submit_*``/``run_*`` function checks it is called in its phase (``IllegalOrder``
naming the step otherwise), applies one side's or both sides' orders, then runs every step
that needs nobody's orders (``advance``) and stops where someone owes orders again.

Re-entrant: a ``NeedDecision`` raised by a decider propagates with the state resumable. Every
step records its progress in the state before moving on (``current.events_done``,
``current.moves_done``, ``current.fighting``, the battles left in ``current.battles``), so
calling the same function again with the same orders, or ``advance``, carries on where it
stopped. After a pause: the step ``next_step(state)`` names is the one to call again (with the
same orders, the decider now holding the answer); ``next_call`` says which call that is, ``advance``
where no side's orders are due.
The rules modules it calls (movement, battle, events, winter, victory) are reached through the
small seams at the end of this file; each must itself be atomic or resumable at a decision.

The steps are found by name in ``STEPS`` (a paused call is stored by that name), and one driver,
``drive``, walks the turn sequence for every caller: ``play_game`` (players answer every step) and
the ruleset's step machine (orders come from what the sides sent; it stops where a side must be
asked), each handing it the source of its orders and the way it runs a step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, Literal, NamedTuple, Protocol

from pbem.core.drbg import RandomStream
from pbem.hammer.rules import sofar
from pbem.hammer.rules.battle import battle_order, border_raid, fight
from pbem.hammer.rules.cardphase import end_year, play_cards, year_over
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.decisions import Decider, NeedDecision, Question, checked
from pbem.hammer.rules.errors import DataError, IllegalOrder, InvalidOrder
from pbem.hammer.rules.events import resolve_event
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, as_entry, entry
from pbem.hammer.rules.movement import apply_moves
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.state import GameState
from pbem.hammer.rules.victory import check_sudden_death
from pbem.hammer.rules.vocab import PHASE_NAMES, SIDE_NAMES, OrderKind, Phase, Side, named
from pbem.hammer.rules.winter import winter

PHASES: tuple[Phase, ...] = PHASE_NAMES
Log = list[LogEntry]
Rng = RandomStream  # the core's one random-stream protocol (pbem.core.drbg)


# --- where the game stands --------------------------------------------------------------------

def next_step(state: GameState) -> Phase:
    """The phase the game waits in: one of ``PHASES``."""
    if state.winner:
        return "over"
    try:
        return named(state.phase, PHASE_NAMES, "phase", "in the game state")
    except DataError as exc:  # refused as engine calls refuse what they cannot run (InvalidOrder)
        raise InvalidOrder(str(exc)) from None


def _player1(state: GameState) -> Side:
    """Player 1 of the turn (England before any card is played)."""
    return "scotland" if state.current.player1 == "scotland" else "england"


def _require(state: GameState, phase: Phase, what: str) -> None:
    now = next_step(state)
    if now != phase:
        raise IllegalOrder(f"{what}: the game is in its {now} step, not the {phase} step "
                           f"(year {state.year}, turn {state.turn})", rule="3.0")


def _events_due(state: GameState) -> list[Side]:
    """Sides whose Event this turn is not yet resolved, England first (3.12)."""
    return [s for s in SIDE_NAMES if s in state.current.cards and card(state.current.cards[s]).is_event
            and s not in state.current.events_done]


def _next_event(state: GameState) -> Side | None:
    due = _events_due(state)
    return due[0] if due else None


_TURN_ORDER: dict[Side, tuple[Side, Side]] = {"england": ("england", "scotland"), "scotland": ("scotland", "england")}


def _next_mover(state: GameState) -> Side | None:
    """Player 1 moves first, then Player 2 (4.1); the player of an Event has no Move Phase (3.12)."""
    for side in _TURN_ORDER[_player1(state)]:
        played = state.current.cards.get(side, "")
        if played and card(played).is_event:
            continue
        if side not in state.current.moves_done:
            return side
    return None


# --- the steps ----------------------------------------------------------------------------------

def submit_cards(state: GameState, plays: dict[str, str], rng: Rng, decider: Decider) -> Log:
    """Both sides' cards (3.1): reveal, initiative, then on to the Events or the Move Phase."""
    _require(state, "card", "cards")
    reveal = play_cards(state, plays)
    state.phase = "event" if reveal.events else "move"
    log: Log = [reveal.to_entry()]
    log.extend(advance(state, rng, decider))
    return log


def submit_events(state: GameState, side: Side, params: dict[str, Any], rng: Rng, decider: Decider) -> Log:
    """Resolve ``side``'s Event with its parameters; both Events go England first (3.12)."""
    _require(state, "event", f"event from {side}")
    due = _next_event(state)
    if side != due:
        raise IllegalOrder(f"event from {side}: the {due} Event is resolved first (3.12)"
                           if due else f"event from {side}: {side} played no Event this turn (3.12)",
                           rule="3.12")
    log = _atomic(state, rng, lambda work: _resolve_event(work, side, work.current.cards[side], dict(params),
                                                          rng, decider))
    state.current.events_done.append(side)
    with sofar.writing(log):
        log.extend(advance(state, rng, decider))
    return log


def submit_moves(state: GameState, side: Side, order: Any, rng: Rng, decider: Decider) -> Log:
    """One side's Move Phase (4.0): Player 1 first, then Player 2."""
    _require(state, "move", f"moves from {side}")
    due = _next_mover(state)
    if side != due:
        raise IllegalOrder(f"moves from {side}: {due} moves now (4.1)", rule="4.1")
    log = _apply_moves(state, side, order)
    if side not in state.current.moves_done:  # movement.apply_moves records it too
        state.current.moves_done.append(side)
    with sofar.writing(log):
        log.extend(advance(state, rng, decider))
    return log


def run_battles(state: GameState, requested_order: list[str], rng: Rng, decider: Decider) -> Log:
    """Fight every battle, one by one, in Player 1's order (5.1).

    ``requested_order`` lists areas Player 1 wants fought first; when it runs out with more than
    one battle left, Player 1 is asked (a ``battle_next`` question) for each next battle.
    """
    _require(state, "battle", "battle order")
    _check_battle_order(state, list(requested_order))
    log: Log = []
    with sofar.writing(log):
        while state.current.battles:
            area = state.current.fighting or _choose_battle(state, requested_order, decider)
            state.current.fighting = area
            log.extend(_fight(state, area, rng, decider))
            state.current.battles.pop(area, None)
            state.current.fighting = ""
            if state.winner:
                break
        if not state.winner:
            state.phase = "end_turn"
        log.extend(advance(state, rng, decider))
    return log


def _atomic(state: GameState, rng: Rng, step: Callable[[GameState], Log]) -> Log:
    """Run ``step`` on a copy and keep its result only if it finishes.

    On a pause (``NeedDecision``) the state and the stream's position are left as they were, so
    the step is run again whole, with the same dice, once the decider can answer: an Event's
    battle (a Herald's defector attacking, 6.21) is then fought again from its first die, and
    the decider is asked its questions again from the first.
    """
    work = state.copy()
    position = getattr(rng, "position", None)
    try:
        with sofar.working(work):  # what a question's reports show of the call (sofar.py)
            log = step(work)
    except NeedDecision:
        if position is not None:
            setattr(rng, "position", position)  # a stream that can be rewound (Drbg) is
        raise
    for f in fields(GameState):
        setattr(state, f.name, getattr(work, f.name))
    return log


def _choose_battle(state: GameState, requested: list[str], decider: Decider) -> str:
    pending = sorted(state.current.battles)
    for area in requested:
        if area in state.current.battles:
            return area
    if len(pending) == 1:
        return pending[0]
    question = Question(side=state.current.player1, kind="battle_next", options=tuple(pending),
                        context={"year": state.year, "turn": state.turn}, rule="5.1")
    return checked(decider, question)


def end_turn(state: GameState, rng: Rng, decider: Decider) -> Log:
    """Border raids (5.9), the sudden-death check (9.1), then a new turn or the Winter Turn."""
    _require(state, "end_turn", "end of turn")
    log = _border_raid(state, decider)
    _sudden_death(state)
    if state.winner:
        state.phase = "over"
        return log
    if not year_over(state):
        state.phase = "card"
        return log
    discarded = end_year(state)
    for side in SIDE_NAMES:
        if discarded[side]:
            log.append(entry("discard", side, PRIVATE, cards=list(discarded[side])))
    state.phase = "winter"
    return log


def run_winter(state: GameState, rng: Rng, decider: Decider) -> Log:
    """The Winter Turn (7.1-7.7) and the new year's deal (7.8): winter.py turns the year."""
    _require(state, "winter", "winter")
    log = _winter(state, rng, decider)
    if state.winner:  # the last year's winter ends with the count of nobles (9.0, 8.3)
        state.phase = "over"
        return log
    state.phase = "card"
    log.append(entry("new_year", None, PUBLIC, year=state.year))
    return log


def advance(state: GameState, rng: Rng, decider: Decider) -> Log:
    """Run every step that needs no new orders; stop where a side owes orders or the game is over."""
    log: Log = []
    while True:
        if state.winner:
            state.phase = "over"
            return log
        phase = state.phase
        if phase == "event" and not _events_due(state):
            # Two Events: no Move Phase (3.12); a battle an Event left behind is still fought.
            state.phase = "battle" if _two_events(state) else "move"
        elif phase == "move" and not _next_mover(state):
            state.phase = "battle"
        elif phase == "battle" and not state.current.battles:
            state.phase = "end_turn"
        elif phase == "end_turn":
            log.extend(end_turn(state, rng, decider))
        else:
            return log


def _two_events(state: GameState) -> bool:
    return len(state.current.cards) == 2 and all(card(c).is_event for c in state.current.cards.values())


# --- the step registry: a step is called, and a paused call stored, by its name ------------------

StepName = Literal["submit_cards", "submit_events", "submit_moves", "run_battles", "run_winter", "end_turn",
                   "advance"]
Step = Callable[..., Log]  # step(state, *orders, rng, decider)

STEPS: dict[StepName, Step] = {
    "submit_cards": submit_cards,
    "submit_events": submit_events,
    "submit_moves": submit_moves,
    "run_battles": run_battles,
    "run_winter": run_winter,
    "end_turn": end_turn,
    "advance": advance,
}
STEP_NAMES: tuple[StepName, ...] = tuple(STEPS)


def step_named(name: str) -> StepName:
    """``name`` as a step of ``STEPS``; a stored state naming any other is refused (DataError)."""
    return named(name, STEP_NAMES, "step", "in the stored state's paused call")


class StepCall(NamedTuple):
    """One engine step to run: its name in ``STEPS`` and the orders it takes (plain data, as stored)."""

    name: StepName
    args: Sequence[Any] = ()

    def run(self, state: GameState, rng: RandomStream, decider: Decider) -> Log:
        return STEPS[self.name](state, *self.args, rng, decider)


# --- the one driver of the turn sequence -------------------------------------------------------

class OrderSource(Protocol):
    """Where a driven game's orders come from. None from a method: not given (yet), so the step
    waits for that side (``drive`` stops and says who owes what)."""

    def cards(self, state: GameState) -> dict[str, str] | None: ...
    def event(self, state: GameState, side: Side) -> dict[str, Any] | None: ...
    def moves(self, state: GameState, side: Side) -> Any: ...
    def battle_order(self, state: GameState, side: Side) -> list[str]: ...
    def winter(self, state: GameState) -> bool: ...


class Waiting(NamedTuple):
    """Where ``drive`` stopped: the sides that owe orders and the kind each owes ({} when the game is over)."""

    owes: dict[Side, OrderKind]


def next_call(state: GameState, source: OrderSource) -> StepCall | Waiting:
    """The step the game waits for with its orders from ``source``, or who must be asked first."""
    phase = next_step(state)
    if phase == "card":
        plays = source.cards(state)
        return StepCall("submit_cards", [plays]) if plays is not None else Waiting({s: "card" for s in SIDE_NAMES})
    if phase == "event":
        side = _next_event(state)
        if side is None:
            return StepCall("advance")
        params = source.event(state, side)
        return StepCall("submit_events", [side, params]) if params is not None else Waiting({side: "event"})
    if phase == "move":
        mover = _next_mover(state)
        if mover is None:
            return StepCall("advance")
        order = source.moves(state, mover)
        return StepCall("submit_moves", [mover, order]) if order is not None else Waiting({mover: "moves"})
    if phase == "battle":
        p1 = _player1(state)
        return StepCall("run_battles", [source.battle_order(state, p1)])
    if phase == "winter":
        return StepCall("run_winter") if source.winter(state) else Waiting({s: "winter" for s in SIDE_NAMES})
    if phase == "end_turn":
        return StepCall("advance")
    return Waiting({})


Runner = Callable[[GameState, StepCall], "GameState | None"]


def drive(state: GameState, source: OrderSource, run: Runner) -> tuple[GameState, Waiting | None]:
    """Run step after step, each with its orders from ``source``, by ``run(game, step)`` (the game
    the step made, or None when it paused for a decision): the game as it then stands, and who owes
    what (None after a pause)."""
    while True:
        step = next_call(state, source)
        if isinstance(step, Waiting):
            return state, step
        made = run(state, step)
        if made is None:
            return state, None
        state = made


# --- the whole game, players answering every step --------------------------------------------------

class Player(Protocol):
    """What a side supplies to ``play_game``: its orders for each step, and answers as a decider."""

    def choose_card(self, state: GameState, side: str) -> str: ...
    def event_params(self, state: GameState, side: str) -> dict[str, Any]: ...
    def moves(self, state: GameState, side: str) -> Any: ...
    def battle_order(self, state: GameState, side: str) -> list[str]: ...
    def decide(self, question: Question) -> str: ...


class _Deciders:
    def __init__(self, players: dict[str, Player]) -> None:
        self.players = players

    def decide(self, question: Question) -> str:
        return self.players[question.side].decide(question)


class _Players:
    """``play_game``'s orders: every step's from its players; no cards once ``until_year`` is past."""

    def __init__(self, players: dict[str, Player], until_year: int) -> None:
        self.players, self.until_year = players, until_year

    def cards(self, state: GameState) -> dict[str, str] | None:
        if self.until_year and state.year > self.until_year:
            return None
        return {s: self.players[s].choose_card(state, s) for s in SIDE_NAMES}

    def event(self, state: GameState, side: Side) -> dict[str, Any]:
        return self.players[side].event_params(state, side)

    def moves(self, state: GameState, side: Side) -> Any:
        return self.players[side].moves(state, side)

    def battle_order(self, state: GameState, side: Side) -> list[str]:
        return self.players[side].battle_order(state, side)

    def winter(self, state: GameState) -> bool:
        return True


def play_game(state: GameState, players: dict[str, Player], rng_for_step: Callable[[int], RandomStream],
              max_steps: int = 100_000, after_step: Callable[[GameState, str], None] | None = None,
              until_year: int = 0) -> Log:
    """Play from ``state`` to the end: step ``k`` draws its chance from ``rng_for_step(k)``.

    Deterministic given deterministic players. ``after_step(state, step)`` is called after every
    step (tests check invariants there). ``until_year`` stops a game unfinished when a later year
    is about to begin (a Campaign still tied after 1314 plays on, 8.3).
    """
    decider = _Deciders(players)
    log: Log = []
    log.extend(advance(state, rng_for_step(0), decider))
    done = 0

    def run(game: GameState, step: StepCall) -> GameState:
        nonlocal done
        if done == max_steps:
            raise InvalidOrder(f"the game did not end within {max_steps} steps")
        done += 1
        if after_step is None:
            log.extend(step.run(game, rng_for_step(done), decider))
            return game
        phase = next_step(game)
        log.extend(step.run(game, rng_for_step(done), decider))
        after_step(game, phase)
        return game

    drive(state, _Players(players, until_year), run)
    return log


# --- single rules actions, outside the sequence (the sandbox, tests) -----------------------------

def apply_moves_order(state: GameState, side: str, order: Any) -> Log:
    """One side's moves (a parsed order or its plain-data form) with no phase check."""
    return _apply_moves(state, side, order)


def fight_battle(state: GameState, area: str, rng: Rng, decider: Decider) -> Log:
    """One battle with no phase check; the battle leaves ``current.battles`` when it is over."""
    log = _fight(state, area, rng, decider)
    state.current.battles.pop(area, None)
    return log


# --- seams into the rules modules (each imported where it is used) -------------------------------

def copied(out: Log) -> Log:
    """A rules module's (or an engine step's) log, each line copied (its facts shallowly: a line's
    values are never changed in place once written, only new facts added)."""
    lines = [as_entry(e) for e in out or []]  # a test double may still hand back the data form
    return [LogEntry(e.what, e.actor, e.visibility, dict(e.facts)) for e in lines]


def _apply_moves(state: GameState, side: str, order: Any) -> Log:
    if isinstance(order, dict):
        order = parse_moves({k: v for k, v in order.items() if k != "battle_order"})
    return copied(apply_moves(state, side, order))


def _resolve_event(state: GameState, side: str, card_id: str, params: dict[str, Any], rng: Rng,
                   decider: Decider) -> Log:
    return copied(resolve_event(state, side, card_id, params, rng, decider))


def _check_battle_order(state: GameState, requested: list[str]) -> None:
    """Only areas with a battle this turn, each once (5.1)."""
    battle_order(state, requested)


def _fight(state: GameState, area: str, rng: Rng, decider: Decider) -> Log:
    return copied(fight(state, area, rng, decider))


def _border_raid(state: GameState, decider: Decider) -> Log:
    return copied(border_raid(state, decider))


def _winter(state: GameState, rng: Rng, decider: Decider) -> Log:
    return copied(winter(state, rng, decider))


def _sudden_death(state: GameState) -> None:
    check_sudden_death(state)
