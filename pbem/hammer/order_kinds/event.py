"""The ``event`` order: the parameters of the Event card a side played (3.12, events.py), when they
did not ride with the card. The listing and hints are shared with the card order's ``[event]``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.cards import card as card_of
from pbem.hammer.events import legal_events, validate_event
from pbem.hammer.order_kinds.base import Ask, Report, Sections, check_plans, toml_line
from pbem.hammer.plaindata import plain
from pbem.hammer.vocab import OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.drafts import Draft
    from pbem.hammer.engine import StepCall
    from pbem.hammer.state import GameState
    from pbem.hammer.stepstate import StepState


class EventOrders:
    """``[event]``: the parameters of this side's Event, checked against the board as it is now."""

    kind: OrderKind = "event"
    sections: tuple[str, ...] = ("event", "if_player1", "plans")

    def parse(self, sections: Sections, source: str) -> Sections:
        return sections  # an Event's parameters are checked with its rules (events.validate_event)

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        validate_event(game, ask.side, game.current.cards.get(ask.side, ""), draft.sections.get("event", {}))
        check_plans(draft)

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"event": game.current.cards.get(ask.side, ""), "event_params": plain(legal_events(game, ask.side))}

    def default(self, game: GameState, ask: Ask) -> Sections:
        return {"event": {}}  # the event's own defaults (events.py)

    def template(self, report: Report) -> list[str]:
        options: dict[str, Any] = report.get("options", {})
        card_id = str(options.get("event", ""))
        lines = ["[event]", f"# event: {card_id}; {empty_event_note(card_id)} (docs/orders.md Events)",
                 "# the legal choices; uncomment the lines of one:"]
        return lines + event_choice_lines(options.get("event_params", [])) + [""]

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        return {"event": event_params(report.get("options", {}), rng)}

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall | None:
        return None  # kept as sent ahead: the driver submits it when the turn comes to it


def empty_event_note(card_id: str) -> str:
    """What an empty ``[event]`` table does with this card (3.12)."""
    try:
        c = card_of(card_id)
    except Exception:  # noqa: BLE001 - an unknown card: the generic sentence
        return "an empty table passes, except a Truce, which takes effect"
    if c.event == "truce":
        return "Truce takes no parameters: an empty table (or none at all) plays it"
    return f"an empty table passes: the {c.name} is not used"


def event_choice_lines(choices: list[dict[str, Any]]) -> list[str]:
    """Each legal parameter set as commented TOML lines: "either:", then "or:" before each other one."""
    out: list[str] = []
    for params in choices:
        if not params:
            out.append("#   (no parameters)")
            continue
        out.append("#   or:" if out else "#   either:")
        out += [f"# {toml_line(k, v)}" for k, v in sorted(params.items())]
    return out


def event_params(options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
    """A bot's Event parameters: one of the legal parameter sets the report lists, at random; none: {}."""
    choices = options.get("event_params", [])
    if not choices:
        return {}
    return dict(choices[rng.randbelow(len(choices))])


__all__ = ["EventOrders", "empty_event_note", "event_choice_lines", "event_params"]
