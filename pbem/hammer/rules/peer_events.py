"""Event cards with no referee (3.12; docs/hammer-peer.md §3): what an Event's order may say, and when it binds.

The Events resolve in the refereed engine's own code (events.py) on the public state keyed by handle; what
they read of a hidden block goes through ``hidden.py``, which reveals exactly what the table shows:

- Herald: the die is public; a converted noble changes sides at his current strength, so his owner opens
  which handle he stands behind (its noble index, committed at the start) and that handle (a pause, §13.10).
- Pillage: the hits are applied as in combat (5.41), so the pillaged group is revealed (5.1); the pillager's
  steps go to blocks whose strength is public (an unseen one stands at full strength, 8.0, and takes none).
- Victuals: steps go to blocks below full strength (2.11): only blocks a reveal showed, so nothing is hidden.
- Sea Move: the moved handles change area publicly and stay unseen; "not the Norse" (4.7) is checked when a
  moved block opens, or at the final audit, as a move allowance is (2.13).
- Truce: public. A coronation announced with an Event (6.21, 6.22) is not built with no referee yet.
"""

from __future__ import annotations

from typing import Any

from pbem.core.errors import PbemError
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.events import legal_events, validate_event
from pbem.hammer.rules.state import GameState

PASS: dict[str, Any] = {"pass": True}
CORONATION = "6.21, 6.22"


def check(state: GameState, side: str, card_id: str, params: Any) -> None:
    """Refuse an Event's parameters the rules forbid, as far as the facts known tell (a hidden fact's rule waits)."""
    if isinstance(params, dict) and "coronation" in params:
        raise IllegalOrder(f"card from {side}: with no referee a coronation is not built yet; play the Event "
                           f"or pass it (docs/hammer-peer.md; {CORONATION})", rule=CORONATION)
    validate_event(state, side, card_id, params)


def still_legal(state: GameState, side: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """The Event's parameters when its turn comes, or a pass when the other side's Event, resolved first (England's,
    3.12), made them illegal: with no referee nobody can be asked again without another exchange, so the Event is
    passed (docs/hammer-peer.md §3)."""
    if params is None or params == PASS or not card(state.current.cards[side]).is_event:
        return params
    try:
        validate_event(state, side, state.current.cards[side], params)
    except PbemError:
        return dict(PASS)
    return params


def uses(state: GameState, side: str, card_id: str) -> list[dict[str, Any]]:
    """The legal uses of an Event the side holds (no pass, no coronation): what a bot may play."""
    return [p for p in legal_events(state, side, card_id) if p != PASS and "coronation" not in p]
