"""Standing battle plans with no referee (docs/plans.md, docs/hammer-peer.md §3, protocol §13.12).

A side's ``plans`` table rides in its card or moves order, sealed: its client commits the order with the
plan replaced by a fresh handle (``hidden.SIDE.plan-YEAR-TURN-PHASE``), whose opening stays in its own folder.
The plan stands until the side seals another. When a battle (or a Pillage's hits) asks that side a question,
the engine reads the plan through ``Facts``: a reveal question to its owner, answered in the same ``open`` as
the side's blocks when its client can see that far; from then on the plan is public. It may name the side's
hidden blocks by handle. It cannot ask (no decide step with no referee), and a side with no plan gets the
engine's defaults (``DefaultBattleDecider``). Sealed with the order, it cannot change once the other side has
seen anything: an opening of another plan does not open the handle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.hammer.rules.battle import DefaultBattleDecider
from pbem.hammer.rules.decisions import Question
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import PREFIX
from pbem.hammer.rules.plans import PlanDecider, Plans, parse_plans

KEY = "plans"
RULE = "5.4: a battle follows its owner's standing plan (docs/plans.md)"
MARK = "plan-"


def label(side: str, game: Mapping[str, Any]) -> str:
    """The label of the plan ``side`` seals with its order in this phase (one order a phase each, so new)."""
    return f"{PREFIX}{side}.{MARK}{game['year']}-{game['turn']}-{game['phase']}"


def is_plan(label_: str) -> bool:
    parts = label_.split(".")
    return len(parts) == 3 and label_.startswith(PREFIX) and parts[2].startswith(MARK)


def parse(side: str, table: Any, handles: tuple[str, ...]) -> Plans:
    """A plan as docs/plans.md has it, its blocks named or by handle (``handles``), and no ``ask``."""
    plans = parse_plans(side, table, handles)
    if plans.ask or plans.battle.ask or any(p.ask for p in plans.areas.values()):
        raise InvalidOrder("plans.ask: with no referee a plan cannot ask, there is no decide step "
                           "(docs/hammer-peer.md)")
    return plans


class PeerDecider:
    """Each question to a side answered by its standing plan, read through ``facts`` (a reveal question while
    the plan is still sealed); the engine's defaults for a side with none."""

    def __init__(self, current: Mapping[str, str], facts: Any, handles: tuple[str, ...]) -> None:
        self.current, self.facts, self.handles = dict(current), facts, handles

    def decide(self, question: Question) -> str:
        sealed = self.current.get(question.side)
        if not sealed:
            return DefaultBattleDecider().decide(question)
        table = self.facts.get(sealed, RULE)
        return PlanDecider(parse(question.side, table, self.handles)).decide(question)
