"""Where a block may retreat or regroup from a battle (5.5, 5.6, 4.7).

One function answers both questions, because 5.6 says every rule of 5.5 applies to regroups
except Border Control. Border Limits are counted by the caller per window (one combat round,
the regroup, the mandatory retreat after round 3) and passed in as ``used``.
"""

from __future__ import annotations

from pbem.hammer.rules.blocks import other_side, spec
from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.state import Battle, GameState

NORSE_TYPE = "norse"


def crossing_key(side: str, border: str) -> str:
    """The key of ``used``: one count per side and border, as movement counts them (4.3)."""
    return f"{side}|{border}"


def retreat_areas(state: GameState, block: str, area: str, used: dict[str, int],
                  battle: Battle | None = None, border_control: bool = True) -> list[str]:
    """The areas ``block`` (in ``area``) may retreat to now, alphabetically.

    - adjacent Friendly or Neutral areas only, never Contested or Enemy (5.5);
    - no more than the border's limit (green 6, red 2) per side in the window ``used`` counts (5.5);
    - Border Control: not through a border the enemy used to enter the battle; when both sides
      used it, only Player 2 may (5.5) — skipped for regroups (5.6);
    - no retreat across the Anglo-Scottish border into the other side's country (5.5,
      docs/rules-notes.md);
    - the Norse only by sea, to a Friendly coastal area, never England (4.7).
    """
    side = state.blocks[block].owner
    if spec(block).type == NORSE_TYPE:
        if not board().area(area).coastal:
            return []
        return [a for a in board().coastal_areas()
                if a != area and a != ENGLAND and state.control(a) == side]
    enemy = other_side(side)
    player2 = other_side(state.current.player1) if state.current.player1 else ""
    out: list[str] = []
    for near in board().neighbours(area):
        if state.control(near) not in (side, "neutral"):
            continue
        border = board().border(area, near)
        assert border is not None
        if used.get(crossing_key(side, border.key), 0) >= border.limit:
            continue
        if border.anglo_scottish and not _may_cross_home_border(side, area):
            continue
        if border_control and battle is not None:
            enemy_used = border.key in battle.entered.get(enemy, [])
            own_used = border.key in battle.entered.get(side, [])
            if enemy_used and not (own_used and side == player2):
                continue
        out.append(near)
    return out


def _may_cross_home_border(side: str, area: str) -> bool:
    """English blocks may not retreat into Scotland, nor Scottish blocks into England (5.5): read
    as "not out of your own country into the other one" (docs/rules-notes.md)."""
    if side == "england":
        return area != ENGLAND
    return area == ENGLAND
