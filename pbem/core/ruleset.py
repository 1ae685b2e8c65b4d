"""The one seam between protocol and game (design brief §8, docs/protocol.md §10).

The protocol never imports a game and never names one: an installed game announces its ruleset
as a Python entry point in the group ``pbem.rulesets`` (name -> ``"package.module:Class"``),
loaded only when a game needs it; tests add rulesets of their own with ``register``.

All states, orders, boards and reports are plain data (dict/list/str/int/bool/None) with a
canonical form (pbem.core.canonical); every random thing comes from the ``Drbg`` handed in.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError


@dataclass
class StepResult:
    """What adjudicating one step gives back (a ruleset may return any object with these fields)."""

    state: dict[str, Any]
    public: dict[str, Any]
    reports: dict[str, dict[str, Any]]
    log: list[dict[str, Any]] = field(default_factory=list)


@runtime_checkable
class Ruleset(Protocol):
    """A game as the protocol drives it. ``sides`` is the side order used for entropy (§8)."""

    id: str
    version: str
    sides: tuple[str, ...]

    def scenarios(self) -> tuple[str, ...]:
        """Scenario names ``setup`` accepts."""

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        """The first secret state."""

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        """Side -> kind of order it owes next; empty when the game is over."""

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        """The outcome so far (e.g. ``{"winner": "", "reason": ""}``)."""

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        """Each hidden item to commit to, label -> plain data (brief §6)."""

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        """The public board: what every side and observer may know."""

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """What ``side`` may see."""

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        """One side's report: its view, what happened that it may know, what it owes next."""

    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The order given for a side that missed the deadline."""

    def validate(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> Any:
        """Raise InvalidOrder / IllegalOrder / AmbiguousOrder when ``side`` may not send ``body`` now."""

    def adjudicate(self, state: dict[str, Any], orders: dict[str, dict[str, Any]], rng: Drbg,
                   game_id: str = "") -> Any:
        """One step: returns a StepResult-like object (state, public, reports, log)."""


ENTRY_POINT_GROUP = "pbem.rulesets"
_REGISTERED: dict[str, str | Callable[[], Any]] = {}


def register(name: str, target: str | Callable[[], Any]) -> None:
    """Register a ruleset by name: a ``"module:Class"`` path (imported lazily) or a factory."""
    _REGISTERED[name] = target


def _installed() -> dict[str, str]:
    """Rulesets announced by installed packages (entry point group ``pbem.rulesets``)."""
    from importlib.metadata import entry_points  # here, not at the top: it costs more than typer's start-up

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def registered() -> tuple[str, ...]:
    return tuple(sorted(set(_installed()) | set(_REGISTERED)))


def load(name: str) -> Ruleset:
    """A fresh instance of the ruleset registered under ``name`` (explicit registration wins)."""
    target = _REGISTERED.get(name) or _installed().get(name)
    if target is None:
        raise FormatError(f"unknown ruleset {name!r}; known: {', '.join(registered()) or 'none'} (protocol §10).")
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            raise FormatError(f"ruleset {name!r} ({target}) cannot be imported in this build (protocol §10).") from None
    else:
        factory = target
    return factory()  # type: ignore[no-any-return]


def outcome_parts(outcome: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]:
    """(state, public, reports) from whatever a ruleset's adjudicate returned."""
    if isinstance(outcome, Mapping):
        return outcome["state"], outcome["public"], outcome["reports"]
    if isinstance(outcome, tuple):
        return outcome[0], outcome[1], outcome[2]
    return outcome.state, outcome.public, outcome.reports
