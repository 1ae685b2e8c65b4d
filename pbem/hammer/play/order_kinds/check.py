"""The referee's check of one order (protocol §6): the side, step and kind the state owes, then the
order kind's own ``validate``. The ruleset's ``validate`` runs it on the secret state and the
player's check (``drafts.check_draft``) on the game as the side's report shows it (``known.py``):
one code path, one verdict, with no import of the ruleset from the player's side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.play.order_kinds import ORDER_KINDS, Ask
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.state import GameState
from pbem.hammer.rules.vocab import order_kind_named, side_named

if TYPE_CHECKING:  # drafts parses through this registry: the check names the draft's type only
    from pbem.hammer.play.drafts import Draft


def game_of(state: dict[str, Any]) -> GameState:
    """The game of a secret state, parsed afresh (a copy the caller may change)."""
    return GameState.from_dict(state["game"])


def ask_of(state: dict[str, Any], side: str) -> Ask | None:
    """What ``side`` owes now, as the order kinds read it: the one place they learn it from the
    secret state (None when it owes nothing)."""
    kind = state["owes"].get(side, "")
    if not kind:
        return None
    return Ask(side=side_named(side), kind=order_kind_named(kind), step=int(state.get("step", 0)),
               question=state.get("question") or None, questions=tuple(state.get("questions") or ()))


def accepted(state: dict[str, Any], side: str, draft: Draft) -> Draft:
    """``draft`` (an order's body, parsed), refused when this side may not give it now: wrong side, step
    or kind, or illegal content (what is illegal is the order kind's ``validate``)."""
    ask = ask_of(state, side)
    if draft.side != side:
        raise InvalidOrder(f"order from {side}: it says side {draft.side!r}")
    if ask is None:
        raise InvalidOrder(f"order from {side}: {side} owes nothing at step {state.get('step', 0)}")
    if draft.step != ask.step:
        raise InvalidOrder(f"order from {side}: it answers step {draft.step}, not step {state.get('step', 0)}")
    if draft.kind != ask.kind:
        raise InvalidOrder(f"order from {side}: it is a {draft.kind} order, but {side} owes {ask.kind}")
    # a fresh copy of the game, private to this check: the kind's dry runs may change it
    ORDER_KINDS[ask.kind].validate(game_of(state), ask, draft)
    return draft


def notes(state: dict[str, Any], side: str, draft: Draft) -> list[str]:
    """``accepted``, then what the player's check tells of the order accepted (the order kind's
    ``notes``: e.g. a battle order naming an area with no battle yet, 5.1)."""
    accepted(state, side, draft)
    ask = ask_of(state, side)
    assert ask is not None  # accepted: this side owes this kind of order
    return ORDER_KINDS[ask.kind].notes(game_of(state), ask, draft)


__all__ = ["accepted", "ask_of", "game_of", "notes"]
