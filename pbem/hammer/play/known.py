"""What a side can know, as a game the referee's validation can run on (docs/orders.md "Checking").

``pbem orders check`` must give the referee's verdict wherever that verdict depends only on
what the player may see, so it runs the referee's own code path (``order_kinds.check``, which
``HammerRuleset.validate`` runs) on a game rebuilt from the player's report: its own blocks, hand
and pool as they are, the public board (enemy block counts per area, control, cards played, the
dead, the blocks off the map, battles with the borders used to enter them, the calendar and the crowns), and the enemy's
hidden facts filled in neutrally: which enemy block stands where within the public counts
(nobles first, since which nobles are enemy ones follows from the public record), every enemy
block at full strength, the enemy hand empty, the deck empty.

The validation reads none of those neutral fillings (a property test holds check and referee
to the same verdict and rule over random games and mutated drafts), so the player hears about
every refusal it could foresee; docs/orders.md lists the few it cannot.
"""

from __future__ import annotations

from typing import Any

from pbem.hammer.rules.blocks import SIDES, blocks, other_side, spec
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, Battle, BlockState, GameState, Turn
from pbem.hammer.rules.vocab import phase_named

MORAY = "Moray"  # the one noble who may stand in a Draw Pool (7.1): placed there first when in doubt


def game_from_view(view: dict[str, Any]) -> GameState:
    """A ``GameState`` that agrees with ``view`` (``views.view``) in everything the view shows."""
    side = str(view["side"])
    enemy = other_side(side)
    g = GameState(scenario=str(view["scenario"]), year=int(view["year"]), turn=int(view["turn"]),
                  phase=phase_named(str(view["phase"])), edward=str(view["edward"]), king=str(view["king"]),
                  winner=str(view.get("winner", "")), win_reason=str(view.get("win_reason", "")),
                  edward_wintered=int(view.get("edward_wintered", 0)))
    g.hands = {side: list(view["hand"]), enemy: []}
    g.played = {s: list(view["played"].get(s, [])) for s in SIDES}
    placed: dict[str, BlockState] = {}
    for b in view["blocks"]:
        placed[str(b["block"])] = BlockState(side, str(b["area"]), int(b["strength"]))
    for name in view["pool"]:
        placed[str(name)] = BlockState(side, POOL, 0)
    for where, place in (("dead", DEAD), ("off_map", OFF_MAP)):
        for s in SIDES:
            for name in view[where].get(s, []):
                placed[str(name)] = BlockState(s, place, 0)
    _place_enemy(g, placed, view, enemy)
    g.blocks = {n: placed[n] for n in blocks() if n in placed}
    g.current = _turn(view, side)
    return g


def _place_enemy(g: GameState, placed: dict[str, BlockState], view: dict[str, Any], enemy: str) -> None:
    """The enemy's blocks neither seen nor public, stood in the public counts: nobles on the map
    first (as many as the public noble count), then the rest in name order; the others in its pool."""
    unknown = [n for n in blocks() if n not in placed]
    nobles = sorted((n for n in unknown if spec(n).is_noble), key=lambda n: (n == MORAY, n))
    others = [n for n in unknown if not spec(n).is_noble]
    on_map = int(view["nobles"].get(enemy, 0))
    order = nobles[:on_map] + others + nobles[on_map:]
    slots = [area for area, c in sorted(view["counts"].items()) for _ in range(int(c.get(enemy, 0)))]
    for i, name in enumerate(order):
        if i < len(slots):
            placed[name] = BlockState(enemy, slots[i], spec(name).steps)
        else:
            placed[name] = BlockState(enemy, POOL, 0)


def _turn(view: dict[str, Any], side: str) -> Turn:
    """The Game Turn as far as it shows: cards, Player 1, the Truce, battles, who has moved."""
    cards = {str(s): str(c) for s, c in view.get("cards", {}).items()}
    p1 = str(view.get("player1", ""))
    battles = {}
    for b in view.get("battles", []):
        battles[str(b["area"])] = Battle(area=str(b["area"]), attacker=str(b["attacker"]),
                                         entered={str(s): list(k) for s, k in b.get("entered", {}).items()})
    # Player 2 moves after Player 1 has made its Move Phase, unless Player 1 played an Event (4.1, 3.12).
    done = [p1] if p1 and p1 != side and cards.get(p1) and not card(cards[p1]).is_event else []
    return Turn(cards=cards, player1=p1, truce=str(view.get("truce", "")), battles=battles, moves_done=done)


def state_from_report(report: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's secret state (``HammerRuleset``) as far as ``report``'s side can know it."""
    g = game_from_view(report["view"])
    question = report.get("options", {}).get("question")
    out = {"game": g.to_dict(), "owes": dict(report.get("owes", {})), "pending": {s: {} for s in SIDES},
           "resume": None, "question": question, "paused": None, "step": int(report["step"])}
    if report.get("options", {}).get("questions"):  # a battle's questions asked together
        out["questions"] = report["options"]["questions"]
    return out


__all__ = ["game_from_view", "state_from_report"]

