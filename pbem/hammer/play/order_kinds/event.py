"""The ``event`` order: the parameters of the Event card a side played (3.12, events.py), when they
did not ride with the card. The listing and hints are shared with the card order's ``[event]``."""

from __future__ import annotations

import json
import math
from itertools import combinations
from typing import TYPE_CHECKING, Any

from pbem.hammer.play.order_kinds.base import Ask, Report, Sections, check_plans, toml_line
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.events import KEYS, legal_events, validate_event
from pbem.hammer.rules.plaindata import plain
from pbem.hammer.rules.vocab import OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.engine import StepCall
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState


class EventOrders:
    """``[event]``: the parameters of this side's Event, checked against the board as it is now."""

    kind: OrderKind = "event"
    sections: tuple[str, ...] = ("event", "if_player1", "plans")
    bot_cuts_moves = False

    def parse(self, sections: Sections, source: str) -> Sections:
        return sections  # an Event's parameters are checked with its rules (events.validate_event)

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        validate_event(game, ask.side, game.current.cards.get(ask.side, ""), draft.sections.get("event", {}))
        check_plans(draft)

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        return []

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"event": game.current.cards.get(ask.side, ""), "event_params": plain(legal_events(game, ask.side))}

    def default(self, game: GameState, ask: Ask) -> Sections:
        return {"event": {}}  # the event's own defaults (events.py)

    def template(self, report: Report) -> list[str]:
        options: dict[str, Any] = report.get("options", {})
        card_id = str(options.get("event", ""))
        lines = ["[event]", f"# event: {card_id}; {empty_event_note(card_id)} (docs/orders.md Events)",
                 "# the legal choices; uncomment the lines of one:"]
        event = card_of(card_id).event if card_id in deck() else None
        return lines + event_choice_lines(options.get("event_params", []), event or "") + [""]

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


OTHERS_NOTE = "#   (a line ending in '# or ...' may take any of the values it lists instead)"


def event_choice_lines(choices: list[dict[str, Any]], event: str = "") -> list[str]:
    """Each legal parameter set as commented TOML lines: "either:", then "or:" before each other one.

    The sets with the same keys and, for an event of several parameters, the same first one
    (``events.KEYS``: a Sea Move's or a Pillage's ``from``), whose other values all combine legally
    (a Sea Move's blocks with its destinations, a Herald's nobles, the coronations) are listed
    once: the first values, each line's comment naming the others its key may take, so that every
    line stays TOML once uncommented. Any other set is listed whole."""
    keys = KEYS.get(event, ())
    anchor = keys[0] if len(keys) > 1 else ""
    out: list[str] = []
    for group in _by_anchor(choices, anchor):
        if not group[0]:
            out.append("#   (no parameters)")
            continue
        out.append("#   or:" if out else "#   either:")
        compact = _compact(group, anchor)
        if compact is None:
            out += [line for params in group[:1] for line in _params_lines(params, anchor)]
            for params in group[1:]:
                out += ["#   or:", *_params_lines(params, anchor)]
        else:
            out += compact
    return [OTHERS_NOTE, *out] if any("   # or" in line for line in out) else out


def _params_lines(params: dict[str, Any], anchor: str) -> list[str]:
    return [f"# {toml_line(k, params[k])}" for k in _keys(params, anchor)]


def _keys(params: dict[str, Any], anchor: str) -> list[str]:
    """The anchor first (where the choice starts from), then the other keys by name."""
    return sorted(params, key=lambda k: (k != anchor, k))


def _by_anchor(choices: list[dict[str, Any]], anchor: str) -> list[list[dict[str, Any]]]:
    """The choices with the same keys and the same ``anchor`` value together, in listed order."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for params in choices:
        key = (tuple(sorted(params)), _canon(params.get(anchor)))
        groups.setdefault(key, []).append(params)
    return list(groups.values())


def _compact(group: list[dict[str, Any]], anchor: str) -> list[str] | None:
    """One entry for the whole group, when it is every combination of its keys' values and each
    key's values can be said on one line; else None."""
    if len(group) < 2:
        return None
    keys = _keys(group[0], anchor)
    values = {k: _distinct([p[k] for p in group]) for k in keys}
    if len({_canon(p) for p in group}) != len(group) or math.prod(len(v) for v in values.values()) != len(group):
        return None
    lines = []
    for k in keys:
        note = _others(values[k])
        if note is None:
            return None
        lines.append(f"# {toml_line(k, values[k][0])}" + (f"   # {note}" if note else ""))
    return lines


def _others(values: list[Any]) -> str | None:
    """The comment naming the values a key may take besides its first: "or: Buchan, Dunbar" for
    names, "or any 1 or 2 of: Angus, Mar" for lists that are every such choice of those names."""
    if len(values) == 1:
        return ""
    if all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
        return f"or: {', '.join(map(str, values[1:]))}"
    if not all(isinstance(v, list) and v and len(set(v)) == len(v) for v in values):
        return None
    names = _distinct([n for v in values for n in v])
    lo, hi = min(map(len, values)), max(map(len, values))
    every = {frozenset(c) for size in range(lo, hi + 1) for c in combinations(names, size)}
    if {frozenset(v) for v in values} != every or len(every) != len(values):
        return None
    sizes = f"{lo}" if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
    return f"or any {sizes} of: {', '.join(names)}"


def _distinct(values: list[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for v in values:
        seen.setdefault(_canon(v), v)
    return list(seen.values())


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def event_params(options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
    """A bot's Event parameters: one of the legal parameter sets the report lists, at random; none: {}."""
    choices = options.get("event_params", [])
    if not choices:
        return {}
    return dict(choices[rng.randbelow(len(choices))])


__all__ = ["EventOrders", "empty_event_note", "event_choice_lines", "event_params"]
