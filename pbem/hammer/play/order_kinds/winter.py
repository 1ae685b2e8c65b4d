"""The ``winter`` order: a side's winter plans (7.0-7.5, docs/orders.md "Winter"), each choice one
of those offered in the position it is written in (winter.winter_plan_options)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.play.order_kinds.base import Ask, Report, Sections
from pbem.hammer.rules.plaindata import plain
from pbem.hammer.rules.vocab import OrderKind, Side
from pbem.hammer.rules.winter import check_winter_plan, winter_plan_options

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.engine import StepCall
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState

SINGLE_CHOICES = ("moray", "king", "wallace", "edward", "edward_company")


class WinterOrders:
    """``[winter]``: nobles' homes, Moray, the King, Edward, Wallace, disbands and builds."""

    kind: OrderKind = "winter"
    sections: tuple[str, ...] = ("winter",)
    bot_cuts_moves = False

    def parse(self, sections: Sections, source: str) -> Sections:
        return sections  # the plan's shape is winter.validate_winter_plan's, checked with its rules

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        # the plan's shape (validate_winter_plan), then every choice one offered (7.0)
        check_winter_plan(game, ask.side, draft.sections.get("winter", {}))

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        return []

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"winter_plan": plain(winter_plan_options(game, ask.side))}

    def default(self, game: GameState, ask: Ask) -> Sections:
        return {"winter": {}}  # every question's documented default

    def template(self, report: Report) -> list[str]:
        lines = ["[winter]", "# winter plans (docs/orders.md Winter); an empty table takes every default:",
                 '# homes = { Bruce = "Carrick" }', '# moray = "home"', '# king = "stay"', '# edward = "winter"',
                 '# wallace = "selkirk"', '# disband = ["BLOCK"]', '# builds = { AREA = ["draw", "step:BLOCK"] }',
                 '# ask = ["winter_build"]   # be asked instead, in a decide step']
        return lines + _choice_comments(report.get("options", {}).get("winter_plan", {})) + [""]

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        return {"winter": winter_plan(report.get("options", {}).get("winter_plan", {}), bot, rng)}

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall | None:
        return None  # kept as sent ahead: the driver submits it when the turn comes to it


def winter_plan(legal: dict[str, Any], bot: str, rng: Drbg) -> dict[str, Any]:
    """The simple bot keeps the documented winter defaults; the random bot picks among the
    listed legal choices (``winter.winter_plan_options``): one value per single-choice key, a
    home for each two-home noble, and a draw or step for each area's builds."""
    if bot != "random" or not legal:
        return {}
    plan: dict[str, Any] = {}
    for key in SINGLE_CHOICES:
        choices = legal.get(key, [])
        if choices:
            plan[key] = choices[rng.randbelow(len(choices))]
    homes = {n: opts[rng.randbelow(len(opts))] for n, opts in sorted(legal.get("homes", {}).items()) if opts}
    if homes:
        plan["homes"] = homes
    builds = {a: [opts[rng.randbelow(len(opts))]] for a, opts in sorted(legal.get("builds", {}).items()) if opts}
    if builds:
        plan["builds"] = builds
    return plan


def _choice_comments(legal: dict[str, Any]) -> list[str]:
    """The winter plan's legal choices from the report, one comment line per key."""
    if not legal:
        return []
    out = ["# your choices now (nobles go home first, so a later choice may no longer apply):"]
    for key, choices in sorted(legal.items()):
        if isinstance(choices, dict):
            out += [f"#   {key}.{name}: {', '.join(map(str, opts)) or '-'}" for name, opts in sorted(choices.items())]
        else:
            out.append(f"#   {key}: {', '.join(map(str, choices)) or '-'}")
    return out


__all__ = ["SINGLE_CHOICES", "WinterOrders", "winter_plan"]
