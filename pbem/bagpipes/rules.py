"""Swords and Bagpipes' rules as the protocol drives them (docs/protocol.md §10): seats ``clan1``..``clanN``
and ``referee``; the options, the set-up, the views and reports, one adjudication.

The seats depend on the player count chosen at open (``for_options``). The extra ``referee`` side owes
only the ``ruling`` orders of ``manual`` cards. The ruleset (pbem.bagpipes.ruleset) is these rules plus
the seam's player side and no-referee side; the player side, the bots' games and the demos use these
rules alone, so the dependency runs one way: rules, then the player's tools, then the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

from pbem.bagpipes import views
from pbem.bagpipes.components import Components, load_components
from pbem.bagpipes.engine import Game, check, default_order, seat_ids
from pbem.bagpipes.model import (
    REFEREE,
    Options,
    Order,
    Phase,
    Table,
    copy_record,
    from_data,
    order_data,
    parse_order,
    to_data,
)
from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError, InvalidOrder
from pbem.core.ruleset import StepResult

SCENARIO = "standard"


def parse_options(options: Mapping[str, Any]) -> Options:
    """Manifest options -> typed Options (unknown names refused)."""
    try:
        parsed: Options = from_data(Options, dict(options), "options")
    except FormatError as exc:
        raise InvalidOrder(str(exc)) from None
    return parsed


class BagpipesRules:
    """The game's rules as the protocol drives them (setup, owes, views, adjudicate); state is
    ``Table.to_data()``. Without the seam's ``player()`` and ``peer()``, which ``ruleset`` adds: the
    player side and the demos run these rules without importing the player side back."""

    id = "bagpipes"
    version = "2"
    takes_components = True  # the card faces come from a component file (protocol §10.3)

    def __init__(self, players: int = 4, components: Components | Path | None = None) -> None:
        self.players = players
        self.components = components if isinstance(components, Components) else load_components(components)
        self.sides: tuple[str, ...] = seat_ids(players) + (REFEREE,)

    @classmethod
    def for_options(cls, options: Mapping[str, Any], components: Components | Path | None = None) -> Self:
        """The instance for a game's manifest options (protocol §10.1), refused when the component file
        it is given (the game folder's, else the shipped sample) is not the one the manifest names (§10.3)."""
        rules = cls(int(options.get("players", 4)), components)
        want = options.get("components_sha256")
        if isinstance(want, str) and want and want != rules.components.sha256:
            given = "the component file given" if components is not None else "the shipped sample (invented cards)"
            raise FormatError(f"game.toml records components_sha256 = {want}, but {given} has SHA-256 "
                              f"{rules.components.sha256} (protocol §10.3).",
                              hint="the game's component file is components.toml in the game folder; get it from "
                                   "the referee")
        return rules

    def options(self, **chosen: Any) -> dict[str, Any]:
        """Manifest options for this instance: the player count and the component file's hash recorded."""
        data: dict[str, Any] = to_data(parse_options({"players": self.players, "stay_home": self.players == 6,
                                                      "components_sha256": self.components.sha256, **chosen}))
        return data

    # -- protocol ---------------------------------------------------------------------------------
    def scenarios(self) -> tuple[str, ...]:
        return (SCENARIO,)

    def _table(self, state: Mapping[str, Any]) -> Table:
        return Table.from_data(dict(state))

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        if scenario != SCENARIO:
            raise InvalidOrder(f"unknown scenario {scenario!r}; Swords and Bagpipes has {SCENARIO!r}.")
        opts = parse_options(options)
        if opts.players != self.players:
            raise InvalidOrder(f"players = {opts.players}, but this ruleset instance seats {self.players} "
                               "(build it with BagpipesRuleset.for_options).")
        return Game.setup(opts, self.components, rng).to_data()

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        return dict(state["pending"]["owes"])

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        return views.result(self._table(state))

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        t = self._table(state)
        items: dict[str, Any] = {"round_deck": t.round_deck, "round_out": t.round_out,
                                 "bagpipe_deck": t.bagpipe_deck, "dagger_deck": t.dagger_deck}
        for s in t.seats:
            items[f"hand.{s.id}"] = sorted(s.hand)
            items[f"daggers.{s.id}"] = sorted(s.daggers)
            if t.options.players == 2:
                items[f"dagger_hand.{s.id}"] = sorted(s.dagger_hand)
            if s.id in t.sides and not t.sides_revealed:
                items[f"choice.{s.id}"] = t.sides[s.id].value
        return items

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        return views.public(self._table(state), self.components)

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        return views.view(self._table(state), self.components, side)

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        return views.report(self._table(state), self.components, side, game_id, step)

    def log_order(self, state: dict[str, Any]) -> dict[str, list[int]]:
        """Side -> the step-log position of each line of its report (the reveal bundle's ``lines``,
        docs/draws.md "Line numbers"): a report numbers only the lines its seat sees."""
        t = self._table(state)
        return {side: views.seen_lines(t, side) for side in self.sides}

    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        t = self._table(state)
        kind = t.pending.owes.get(side, "")
        if not kind:
            raise InvalidOrder(f"{side} owes no order now.")
        return order_data(default_order(t, side, kind))

    def validate(self, state: dict[str, Any], side: str, body: Any) -> None:
        """The protocol's check: refuse an order ``side`` may not give now."""
        self.accepted(state, side, body)

    def accepted(self, state: dict[str, Any], side: str, body: Any) -> Order:
        """The order, parsed and checked against the table as it stands."""
        order = parse_order(body, f"order from {side}")
        check(self._table(state), self.components, side, order)
        return order

    def adjudicate(self, state: dict[str, Any], orders: dict[str, Any], rng: Drbg, game_id: str = "") -> StepResult:
        t = self._table(state)
        if t.phase == Phase.OVER:
            raise InvalidOrder("the game is over.")
        typed: dict[str, Order] = {}
        for side in sorted(t.pending.owes):
            if side not in orders:
                raise InvalidOrder(f"{side} owes an order this step.")
            typed[side] = self.accepted(state, side, orders[side])
        new = step(t, self.components, typed, rng)
        data = new.to_data()
        reports = {s: views.report(new, self.components, s, game_id, new.step) for s in self.sides}
        return StepResult(data, views.public(new, self.components), reports, [to_data(e) for e in new.log])


def step(t: Table, comps: Components, orders: dict[str, Order], rng: Drbg) -> Table:
    """One adjudication on a copy of the table: clear last step's log and talk, take the orders, run on."""
    work = copy_record(t)
    work.step += 1
    work.log, work.mail = [], []
    Game(work, comps, rng).take(orders)
    return work
