"""The ``moves`` order: Player 1's or Player 2's Move Phase (4.0-4.7), with pins and Main Attacks
(orders.py parses them, movement.py rules on them). Its move section is also the card order's
``[if_player1]``, so the dry run and the reach comments are shared from here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.cards import card as card_of
from pbem.hammer.engine import StepCall
from pbem.hammer.movement import check_moves, legal_group_moves
from pbem.hammer.order_kinds.base import Ask, Report, Sections, check_plans
from pbem.hammer.order_kinds.bot_choices import bot_plans, choose_moves, keep_legal
from pbem.hammer.orders import parse_moves
from pbem.hammer.vocab import OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.drafts import Draft
    from pbem.hammer.state import GameState
    from pbem.hammer.stepstate import StepState

SECTION_KEYS = ("battle_order",)  # beside the moves in a draft's section: Player 1's battle order (5.1)
MOVE_LINES = ['# moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]']


class MovesOrders:
    """``[moves]``: the group moves, pins and battle order of this side's Move Phase."""

    kind: OrderKind = "moves"
    sections: tuple[str, ...] = ("moves", "plans")

    def parse(self, sections: Sections, source: str) -> Sections:
        return sections  # the moves' shape is orders.parse_moves's, checked with their rules

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        check_moves_section(game, ask.side, draft.sections.get("moves", {}))  # a dry run: movement rules raise
        check_plans(draft)

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"card": game.current.cards.get(ask.side, ""), "moves": legal_group_moves(game, ask.side)}

    def default(self, game: GameState, ask: Ask) -> Sections:
        return {"moves": {"moves": []}}

    def template(self, report: Report) -> list[str]:
        options: dict[str, Any] = report.get("options", {})
        lines = [f"# your card: {options.get('card', '')}; at most its value in group moves (4.2)",
                 "[moves]", "moves = []", *MOVE_LINES,
                 "# pins: where you are attacked, name the blocks that stay pinned (4.6);",
                 "# without pins, the blocks that do not move are pinned.",
                 '# pins = { AREA = ["BLOCK"] }']
        return lines + reach_comments(options.get("moves", {})) + [""]

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        options = report.get("options", {})
        value = card_of(options["card"]).value if options.get("card") else 0
        sections: Sections = {"moves": {"moves": choose_moves(options.get("moves", {}), value, bot, rng, report)}}
        sections["plans"] = bot_plans(bot, rng)
        return keep_legal(self.kind, sections, report)

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall:
        """One side's Move Phase; as Player 1 its battle order is kept for the Battle Phase (5.1)."""
        ((side, d),) = orders.items()
        section = d.sections.get("moves", {})
        st.pending_of(side).battle_order = list(section.get("battle_order", []))
        return StepCall("submit_moves", [side, section])


def check_moves_section(game: GameState, side: str, section: dict[str, Any], name: str = "moves") -> None:
    """Check the moves of a ``[moves]`` or ``[if_player1]`` section (``name``, which refusals name)
    against ``game``: the rules refuse exactly what the engine would when it makes them
    (``check_moves``); ``game`` is not changed."""
    check_moves(game, side, parse_moves(section, name, also=SECTION_KEYS))


def reach_comments(legal: dict[str, dict[str, list[str]]]) -> list[str]:
    """The legal moves from the report, one comment line per block that can move."""
    out = []
    for origin, reach in sorted(legal.items()):
        for block, areas in sorted(reach.items()):
            if areas:
                out.append(f"#   {block} in {origin} can reach: {', '.join(areas)}")
    return ["# what can move (4.0-4.3):"] + out if out else []


__all__ = ["MOVE_LINES", "MovesOrders", "check_moves_section", "reach_comments"]
