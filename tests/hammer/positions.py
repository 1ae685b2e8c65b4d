"""Position builders for Move Phase tests: a bare board, cards played, Player 1 chosen."""

from __future__ import annotations

from typing import Any

from fakes import bare_state, put

from pbem.hammer.rules.orders import MoveOrder, parse_moves
from pbem.hammer.rules.state import GameState

CARD = {0: "herald", 1: "move1-1", 2: "move2-1", 3: "move3-1"}
OTHER_CARD = {0: "pillage", 1: "move1-2", 2: "move2-2", 3: "move3-2"}


def turn(player1: str = "england", england: int = 3, scotland: int = 3, truce: str = "",
         **placed: Any) -> GameState:
    """A bare board in a Move Phase: the cards' values (0 = an Event) and who is Player 1."""
    state = bare_state()
    state.phase = "move"
    state.turn = 1
    cards = {"england": CARD[england], "scotland": OTHER_CARD[scotland]}
    if truce:
        cards[truce] = "truce"
    state.current.cards = cards
    state.current.player1 = player1
    state.current.truce = truce
    return state


def place(state: GameState, side: str, area: str, *names: str, strength: int | None = None) -> GameState:
    put(state, side, area, *names, strength=strength)
    return state


def moves(*groups: dict[str, Any], main_attack: dict[str, Any] | None = None,
          pins: dict[str, list[str]] | None = None) -> MoveOrder:
    """A MoveOrder from the documented plain-data form (docs/orders.md)."""
    data: dict[str, Any] = {"moves": list(groups)}
    if main_attack:
        data["main_attack"] = main_attack
    if pins:
        data["pins"] = pins
    return parse_moves(data)


def go(origin: str, *parts: tuple[list[str], list[str]]) -> dict[str, Any]:
    """One group move: ``go("Buchan", (["Comyn"], ["Angus", "Fife"]), ...)``."""
    return {"from": origin, "parts": [{"blocks": list(b), "path": list(p)} for b, p in parts]}
