"""What every order kind shares: the ``Ask`` it answers, the ``OrderKindRules`` it offers, and the
few helpers more than one kind uses (the battle plans section, TOML hint lines)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pbem.hammer.rules.plans import parse_plans
from pbem.hammer.rules.vocab import OrderKind, Side

if TYPE_CHECKING:  # drafts asks the registry, so the registry names the draft's type only
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.engine import StepCall
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState

Sections = dict[str, Any]  # an order's sections by name (``card``, ``moves``, ``plans`` ...), as plain data
Report = dict[str, Any]  # one side's opened report (``HammerRuleset.report``)


@dataclass(frozen=True)
class Ask:
    """What one side owes at one step, as the referee's secret state says (``order_kinds.check.ask_of``) or as
    the side's own report shows it (``known.state_from_report``). ``question``/``questions``: the
    open question(s) of a ``decide`` step, in the data form the report lists them."""

    side: Side
    kind: OrderKind
    step: int
    question: dict[str, Any] | None = None
    questions: tuple[dict[str, Any], ...] = ()  # a battle's questions asked together (docs/plans.md)


class OrderKindRules(Protocol):
    """Everything one kind of order knows, in one place (docs/playing.md "Orders")."""

    kind: OrderKind
    sections: tuple[str, ...]  # the sections an order of this kind may carry, its own first
    bot_cuts_moves: bool  # its bot writes group moves, cut down until the player's check accepts them

    def parse(self, sections: Sections, source: str) -> Sections:
        """The sections, their shape checked (``InvalidOrder``); the rules are ``validate``'s."""
        ...

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        """Refuse what the rules forbid in ``game`` (``IllegalOrder``, citing the rule). ``game`` is a
        copy private to this check: dry runs may change it."""
        ...

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        """What ``pbem orders check`` tells the player of a draft ``validate`` accepted that may
        not do what the player means (a battle order naming an area with no battle yet, 5.1); the
        referee does not use them. ``game`` is a fresh copy, as for ``validate``."""
        ...

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        """The legal choices the report lists, for templates and bots."""
        ...

    def default(self, game: GameState, ask: Ask) -> Sections:
        """The order given for a side that sends none by the deadline (docs/playing.md)."""
        ...

    def template(self, report: Report) -> list[str]:
        """The draft lines of this kind's own sections, the options as comments."""
        ...

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        """The sections ``bot`` writes from the report alone, its choices drawn from ``rng``."""
        ...

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall | None:
        """The engine call the owing sides' orders of this kind start, once what they keep for later
        is in ``st``'s pending orders (the sections sent ahead are kept already); None when the
        turn's driver (``engine.drive``) submits them from there."""
        ...


def check_plans(draft: Draft) -> None:
    """Standing battle plans ride with card, event, moves and decide orders (docs/plans.md)."""
    if "plans" in draft.sections:
        parse_plans(draft.side, draft.sections["plans"])


def toml_line(key: str, value: Any) -> str:
    """``key = value`` as TOML writes it (``pass = true``, ``steps = ["Wallace"]``), for hints that
    stay valid TOML when uncommented."""
    return f"{_bare_or_quoted(key)} = {_inline(value)}"


def _bare_or_quoted(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key, ensure_ascii=False)


def _inline(value: Any) -> str:
    """A TOML value on one line (JSON's strings, numbers and booleans are TOML's too)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_bare_or_quoted(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


__all__ = ["Ask", "OrderKindRules", "Report", "Sections", "check_plans", "toml_line"]
