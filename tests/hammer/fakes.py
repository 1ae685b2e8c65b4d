"""Shared test fakes: a random stream with scripted dice, so a test knows every roll."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pbem.hammer.rules.state import GameState

T = TypeVar("T")


class ScriptedDice:
    """Dice from a list, in order; ``randbelow`` gives 0 and ``shuffled`` keeps the order.

    Running out of dice is a test error (AssertionError), never a silent default.
    """

    def __init__(self, dice: Iterable[int] = (), below: Iterable[int] = ()) -> None:
        self.dice = list(dice)
        self.below = list(below)
        self.position = 0

    def d6(self) -> int:
        assert self.dice, "the test ran out of scripted dice"
        self.position += 1
        return self.dice.pop(0)

    def d6_at(self) -> tuple[int, int]:
        value = self.d6()
        return value, self.position - 1

    def randbelow(self, n: int) -> int:
        self.position += 1
        value = self.below.pop(0) if self.below else 0
        assert 0 <= value < n, f"scripted randbelow {value} is not below {n}"
        return value

    def word(self) -> int:
        self.position += 1
        return 0

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return list(items)


def bare_state(scenario: str = "braveheart", year: int = 1297, **placed: object) -> GameState:
    """An empty board for rules tests: every block in its side's Draw Pool, nobles out of play
    (``dead``), the King and the French Knights off the map; then place blocks with ``put``."""
    from pbem.hammer.rules.blocks import blocks
    from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, BlockState, GameState

    state = GameState(scenario=scenario, year=year)
    for name, s in blocks().items():
        if s.is_noble:
            state.blocks[name] = BlockState(s.sides[-1], DEAD, 0)
        elif name in ("King", "French Knights"):
            state.blocks[name] = BlockState("scotland", OFF_MAP, 0)
        else:
            state.blocks[name] = BlockState(s.sides[0], POOL, 0)
    state.hands = {"england": [], "scotland": []}
    return state


def put(state: GameState, side: str, area: str, *names: str, strength: int | None = None) -> None:
    """Place blocks of ``side`` in ``area`` at ``strength`` (full strength when not given)."""
    from pbem.hammer.rules.blocks import spec
    from pbem.hammer.rules.state import BlockState

    for name in names:
        state.blocks[name] = BlockState(side, area, strength if strength is not None else spec(name).steps)


def battle_at(state: GameState, area: str, attacker: str, main: Iterable[str] = (),
              attacker_reserves: Iterable[str] = (), defender_reserves: Iterable[str] = (),
              entered: dict[str, list[str]] | None = None) -> None:
    """Record a battle in ``area`` as movement would leave it (5.32, 5.33), for battle tests."""
    from pbem.hammer.rules.state import Battle

    state.current.battles[area] = Battle(area=area, attacker=attacker, main=sorted(main),
                                         attacker_reserves=sorted(attacker_reserves),
                                         defender_reserves=sorted(defender_reserves),
                                         entered=dict(entered or {}))


class Recorder:
    """A decider for tests: ``rule(question)`` answers or returns None for the fallback (the
    battle defaults); every question asked is kept in ``asked``."""

    def __init__(self, rule: object = None, fallback: object = None) -> None:
        from pbem.hammer.rules.battle import DefaultBattleDecider

        self.rule = rule
        self.fallback = fallback or DefaultBattleDecider()
        self.asked: list = []

    def decide(self, question):  # type: ignore[no-untyped-def]
        self.asked.append(question)
        answer = self.rule(question) if callable(self.rule) else None
        return answer if answer is not None else self.fallback.decide(question)  # type: ignore[attr-defined]


def game_positions(scenario: str, seed: int, phase: str) -> list[GameState]:
    """Copies of a random bot game's state each time it waits in ``phase`` (e.g. "winter", "card"):
    mid-game positions for property tests of the options listings."""
    from pbem.hammer.play.bots import random_game
    from pbem.hammer.rules.engine import next_step

    found: list[GameState] = []

    def keep(state: GameState, step: str) -> None:
        if next_step(state) == phase:
            found.append(state.copy())

    random_game(scenario, seed, after_step=keep)
    return found


class NoOrders:
    """An order source (engine.OrderSource) with no orders at all: the driver says who owes what."""

    def cards(self, state: GameState) -> None:
        return None

    def event(self, state: GameState, side: str) -> None:
        return None

    def moves(self, state: GameState, side: str) -> None:
        return None

    def battle_order(self, state: GameState, side: str) -> list[str]:
        return []

    def winter(self, state: GameState) -> bool:
        return False


def owed(state: GameState) -> dict[str, str]:
    """The sides the game waits for and the order kind each owes, as the one driver says with no
    orders given (engine.next_call); {} where a step runs without anybody's orders."""
    from pbem.hammer.rules.engine import Waiting, next_call

    step = next_call(state, NoOrders())
    return dict(step.owes) if isinstance(step, Waiting) else {}
