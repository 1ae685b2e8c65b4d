"""The board in the browser as the seam sees it (docs/board.md): typed records, no game named.

A ruleset's player side may offer a board (its optional ``board()`` method, like ``player()`` on
the ruleset): the view model a page draws (``BoardView``) and what a click means (``BoardAction``,
applied to a draft). As with lichess's chessground, the page never decides legality: the board
rules say which destinations a selection may reach, computed by the same check the referee runs,
and the page only draws them and sends the click back. Each record has a JSON schema in
``schemas/board-view.schema.json`` and ``schemas/board-action.schema.json``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from pbem.core.errors import FormatError
from pbem.core.ruleset import Draft

ACTION_TYPES = ("move", "choose", "remove")  # what a click may ask the board rules to do to the draft


@dataclass(frozen=True)
class Piece:
    """A piece of the side's own the player may select (a block): its id on the map (``data-block``)."""

    id: str
    area: str
    label: str


@dataclass(frozen=True)
class Choice:
    """One thing to click that is not a move on the map: a card, an answer, an event's parameters."""

    id: str
    label: str
    group: str
    chosen: bool = False


@dataclass(frozen=True)
class Panel:
    """A titled block of lines beside the map (the side panel, since your last report, the odds, the log)."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Check:
    """The player's check of the draft as it stands: the referee's validation on the side's own report."""

    ok: bool
    message: str = ""
    rule: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoardView:
    """Everything the page draws: one object, as chessground's config is (docs/board.md)."""

    title: str
    asks: str
    svg: str
    pieces: tuple[Piece, ...]
    choices: tuple[Choice, ...]
    orders: tuple[str, ...]  # the orders so far, one sentence each (``remove`` takes an index into them)
    panels: tuple[Panel, ...]
    draft: str
    check: Check = field(default_factory=lambda: Check(True))
    can_undo: bool = False
    can_redo: bool = False
    sealed: str = ""  # what the last Seal said
    can_submit: bool = False  # Submit sends the sealed file, by git or by mail (docs/board.md "Submit")
    submit_to: str = ""  # where Submit sends it, in words ("" when there is no Submit)
    submitted: str = ""  # what the last Submit said
    arrows: tuple[tuple[str, str], ...] = ()  # (from, to) areas of the draft's moves, drawn on the map

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BoardAction:
    """A click: ``move`` pieces to ``target``; ``choose`` the choice ``choice``; ``remove`` order ``index``."""

    type: str
    pieces: tuple[str, ...] = ()
    target: str = ""
    choice: str = ""
    index: int = -1


def action_from_json(data: Any) -> BoardAction:
    """A ``BoardAction`` from the page's JSON, its shape checked (schemas/board-action.schema.json)."""
    if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
        raise FormatError(f"a board action is an object whose type is one of {', '.join(ACTION_TYPES)}.")
    allowed = {"type": str, "pieces": list, "target": str, "choice": str, "index": int}
    for key, value in data.items():
        kind = allowed.get(key)
        if kind is None or not isinstance(value, kind) or isinstance(value, bool):
            raise FormatError(f"a board action's field {key!r} is unknown or of the wrong kind.")
    pieces = data.get("pieces", [])
    if not all(isinstance(p, str) for p in pieces):
        raise FormatError("a board action's pieces are names (strings).")
    return BoardAction(type=data["type"], pieces=tuple(pieces), target=data.get("target", ""),
                       choice=data.get("choice", ""), index=data.get("index", -1))


@runtime_checkable
class BoardRules(Protocol):
    """A game's board: what the page shows of a report and a draft, and what a click does to the draft.

    Every method reads only the side's own opened report (and its earlier ones, for the game's story)."""

    def start(self, report: dict[str, Any]) -> Draft:
        """The draft the board starts from: the deadline's default, as ``orders new`` writes it."""

    def view(self, report: dict[str, Any], draft: Draft, earlier: list[dict[str, Any]]) -> BoardView:
        """The board for ``draft`` (its ``check`` left to the caller, who runs the player's check)."""

    def dests(self, report: dict[str, Any], draft: Draft, pieces: tuple[str, ...]) -> tuple[str, ...]:
        """Where ``pieces`` (one area's) may move next, after the draft's moves: each one the check accepts."""

    def act(self, report: dict[str, Any], draft: Draft, action: BoardAction) -> Draft:
        """The draft with the action applied (a new draft; the check judges it afterwards)."""


def board_of(player: Any) -> BoardRules:
    """The player side's board (its optional ``board()`` method), refused in one sentence when absent."""
    make = getattr(player, "board", None)
    if make is None:
        raise FormatError("this game has no board in the browser in this build; use pbem report open and "
                          "pbem orders (docs/board.md).")
    rules: BoardRules = make()
    return rules


__all__ = ["ACTION_TYPES", "BoardAction", "BoardRules", "BoardView", "Check", "Choice", "Panel", "Piece",
           "action_from_json", "board_of"]
