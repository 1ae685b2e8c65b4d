"""The ``moves`` order: Player 1's or Player 2's Move Phase (4.0-4.7), with pins and Main Attacks
(orders.py parses them, movement.py rules on them). Its move section is also the card order's
``[if_player1]``, so the dry run and the reach comments are shared from here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.play.order_kinds.base import Ask, Report, Sections, check_plans
from pbem.hammer.play.order_kinds.bot_choices import bot_plans, choose_moves
from pbem.hammer.rules.board import BORDER_COST, BORDER_MARK, board, reach_crosses_border, reach_text
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.engine import StepCall
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.movement import check_moves, legal_group_moves
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.suggest import did_you_mean
from pbem.hammer.rules.vocab import OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState

RULE_BATTLE_ORDER = "5.1"
SECTION_KEYS = ("battle_order",)  # beside the moves in a draft's section: Player 1's battle order (5.1)
BATTLE_ORDER_LINE = '# battle_order = ["AREA"]   # battles to fight first, in order: areas with a battle (5.1)'
MOVE_LINES = ['# moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]',
              '# or, a path of its own for each part of a group: { from = "AREA", parts = [ { blocks = ["BLOCK"], '
              'path = ["AREA", "AREA"] } ] }',
              "# main attack: where you attack one area from more than one origin or border, the group that",
              "# fights first (5.32): its origin and the area it entered from (\"sea\" for the Norse):",
              '# main_attack = { AREA = { from = "AREA", via = "AREA" } }']


class MovesOrders:
    """``[moves]``: the group moves, pins and battle order of this side's Move Phase."""

    kind: OrderKind = "moves"
    sections: tuple[str, ...] = ("moves", "plans")
    bot_cuts_moves = True

    def parse(self, sections: Sections, source: str) -> Sections:
        return sections  # the moves' shape is orders.parse_moves's, checked with their rules

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        check_moves_section(game, ask.side, draft.sections.get("moves", {}))  # a dry run: movement rules raise
        check_plans(draft)

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        return check_moves_section(game, ask.side, draft.sections.get("moves", {}))

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"card": game.current.cards.get(ask.side, ""), "moves": legal_group_moves(game, ask.side)}

    def default(self, game: GameState, ask: Ask) -> Sections:
        return {"moves": {"moves": []}}

    def template(self, report: Report) -> list[str]:
        options: dict[str, Any] = report.get("options", {})
        player1 = report.get("view", {}).get("player1") == report.get("side")  # only Player 1 orders battles (5.1)
        lines = [f"# your card: {options.get('card', '')}; at most its value in group moves (4.2)",
                 "[moves]", "moves = []", *MOVE_LINES, *([BATTLE_ORDER_LINE] if player1 else []),
                 "# pins: where you are attacked, name the blocks that stay pinned (4.6);",
                 "# without pins, the blocks that do not move are pinned.",
                 '# pins = { AREA = ["BLOCK"] }']
        return lines + reach_comments(options.get("moves", {})) + [""]

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        options = report.get("options", {})
        value = card_of(options["card"]).value if options.get("card") else 0
        sections: Sections = {"moves": {"moves": choose_moves(options.get("moves", {}), value, bot, rng, report)}}
        sections["plans"] = bot_plans(bot, rng)
        return sections

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall:
        """One side's Move Phase; as Player 1 its battle order is kept for the Battle Phase (5.1)."""
        ((side, d),) = orders.items()
        section = d.sections.get("moves", {})
        st.pending_of(side).battle_order = list(section.get("battle_order", []))
        return StepCall("submit_moves", [side, section])


def check_moves_section(game: GameState, side: str, section: dict[str, Any], name: str = "moves") -> list[str]:
    """Check a ``[moves]`` or ``[if_player1]`` section (``name``, which refusals name) against
    ``game``: the moves as the engine makes them (``check_moves``, a dry run: ``game`` is not
    changed), then the battle order on the board they leave. Returns the notes for the player
    (``check_battle_order``)."""
    after = check_moves(game, side, parse_moves(section, name, also=SECTION_KEYS))
    return check_battle_order(after, side, section.get("battle_order", []), name)


def check_battle_order(after: GameState, side: str, order: Any, name: str) -> list[str]:
    """Player 1 chooses the order in which battles are fought (5.1): ``battle_order`` lists areas
    with a battle, each once, fought first in that order. Checked on the board ``after`` the
    side's moves: an area with no battle there and none of the side's blocks (so Player 2, who
    moves next, cannot attack it there either) is refused, as is any battle order from Player 2.
    An area where no battle stands yet but the side has blocks Player 2 may attack is legal; it
    is returned as a note for the player's check (docs/rules-notes.md, 5.1)."""
    where = f"{name}.battle_order"
    if not isinstance(order, list) or not all(isinstance(a, str) for a in order):
        raise InvalidOrder(f"{where}: give a list of area names, like battle_order = [\"AREA\"] (5.1), not {order!r}")
    for area in order:
        if area not in board().areas:
            raise InvalidOrder(f"{where}: {area!r} is not an area of the map (1.1){did_you_mean(area, board().areas)}")
        if order.count(area) > 1:
            raise InvalidOrder(f"{where}: {area} is listed twice")
    if order and after.current.player1 != side:
        raise IllegalOrder(f"{where}: only Player 1 chooses the order of battles, and {side} is Player 2 "
                           f"this turn (5.1)", rule=RULE_BATTLE_ORDER)
    notes = []
    for area in order:
        if area in after.current.battles:
            continue
        if not after.blocks_in(area, side):
            raise IllegalOrder(f"{where}: no battle can be fought in {area} this turn: none stands there after "
                               f"these moves, and with no block of yours there Player 2 cannot start one (5.1)",
                               rule=RULE_BATTLE_ORDER)
        notes.append(f"{where}: no battle stands in {area} after these moves; it is fought there only if "
                     f"Player 2 attacks {area} (5.1)")
    return notes


def reach_comments(legal: dict[str, dict[str, list[str]]]) -> list[str]:
    """The legal moves from the report, one comment line per block that can move."""
    out = []
    for origin, reach in sorted(legal.items()):
        for block, areas in sorted(reach.items()):
            if areas:
                out.append(f"#   {block} in {origin} can reach: {reach_text(origin, areas)}")
    note = [f"# {BORDER_MARK}: {BORDER_COST}"] if reach_crosses_border(legal) else []
    return ["# what can move (4.0-4.3):"] + out + note if out else []


__all__ = ["BATTLE_ORDER_LINE", "MOVE_LINES", "MovesOrders", "check_battle_order", "check_moves_section",
           "reach_comments"]
