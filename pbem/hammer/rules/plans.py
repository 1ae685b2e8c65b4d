"""Standing battle plans (docs/plans.md): order data that answers the battle questions.

A side sends ``[plans]`` with its card or moves; the referee fights its battles from them
without another round trip (brief 7). Every key is optional; what a plan does not say takes
the documented default, and a kind listed in ``ask`` pauses for the player (``NeedDecision``).
Winter questions are answered by the winter plan (``winter.plan_decider``); ``decider``
combines both when given both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.hammer.rules.battle import retreat_lost_default
from pbem.hammer.rules.blocks import blocks, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.decisions import Decider, NeedDecision, Question
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.state import GameState
from pbem.hammer.rules.suggest import did_you_mean
from pbem.hammer.rules.winter import plan_decider

BATTLE_KINDS = ("battle_action", "hit", "retreat", "regroup", "raid_loss", "battle_next", "pillage_hit",
                "retreat_lost", "fire_next")
ALL = "all"
TOP_KEYS = ("ask", "hits", "raid_loss", "retreat_lost", "fire_order", "battle", "areas")
BATTLE_KEYS = ("retreat_from_round", "retreat_if_outnumbered", "retreat_below_percent",
               "retreat_if_steps_lost", "retreat_to", "regroup", "ask")
LEADERS = ("Edward", "King", "Wallace")  # losing them loses the game or much (6.1, 9.1): hit last


@dataclass(frozen=True)
class BattlePlan:
    """When a side's blocks in one battle retreat of their own accord, where to, where to regroup."""

    retreat_from_round: int = 0        # 0: never retreat voluntarily
    if_outnumbered: bool = False       # own steps in the line < enemy steps in the line
    below_percent: int = 0             # own steps * 100 < enemy steps * this
    if_steps_lost: int = 0             # own steps lost in this battle >= this
    retreat_to: tuple[str, ...] = ()   # preference; then the first legal area by name
    regroup: tuple[str, ...] = ("stay",)
    ask: bool = False                  # ask the player every question of this battle

    @property
    def conditional(self) -> bool:
        return self.if_outnumbered or self.below_percent > 0 or self.if_steps_lost > 0


@dataclass(frozen=True)
class Plans:
    side: str
    ask: tuple[str, ...] = ()
    hits: tuple[str, ...] = ()
    raid_loss: tuple[str, ...] = ()
    retreat_lost: tuple[str, ...] = ()  # left behind first when a border limit stops a forced retreat (5.5)
    fire_order: tuple[str, ...] = ()    # within a letter, these fire first, in this order, where it matters (5.31)
    battle: BattlePlan = field(default_factory=BattlePlan)
    areas: dict[str, BattlePlan] = field(default_factory=dict)

    def for_area(self, area: str) -> BattlePlan:
        return self.areas.get(area, self.battle)


# --- parsing and validation ----------------------------------------------------------------------

def _bad(path: str, why: str) -> InvalidOrder:
    return InvalidOrder(f"{path}: {why}")


def _int(raw: dict[str, Any], key: str, path: str, lo: int, hi: int) -> int:
    value = raw.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not (lo <= value <= hi or value == 0):
        raise _bad(f"{path}.{key}", f"a whole number {lo}-{hi}, not {value!r}")
    return value


def _names(raw: Any, path: str, known: Any, what: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise _bad(path, f"a list of {what}, not {raw!r}")
    for v in raw:
        if v not in known:
            raise _bad(path, f"{v!r} is not {what}{did_you_mean(v, known)}")
    return tuple(raw)


def _side_blocks(side: str) -> list[str]:
    return [n for n, s in blocks().items() if side in s.sides]


def _battle_plan(raw: Any, path: str, base: BattlePlan) -> BattlePlan:
    if not isinstance(raw, dict):
        raise _bad(path, f"a table of {', '.join(BATTLE_KEYS)}, not {raw!r}")
    for key in sorted(raw):
        if key not in BATTLE_KEYS:
            raise _bad(f"{path}.{key}", f"unknown key; use {', '.join(BATTLE_KEYS)}")
    areas = board().area_names()
    out = base
    if "retreat_from_round" in raw:
        out = _replace(out, retreat_from_round=_int(raw, "retreat_from_round", path, 1, 3))
    if "retreat_if_outnumbered" in raw:
        if not isinstance(raw["retreat_if_outnumbered"], bool):
            raise _bad(f"{path}.retreat_if_outnumbered", f"true or false, not {raw['retreat_if_outnumbered']!r}")
        out = _replace(out, if_outnumbered=raw["retreat_if_outnumbered"])
    if "retreat_below_percent" in raw:
        out = _replace(out, below_percent=_int(raw, "retreat_below_percent", path, 1, 1000))
    if "retreat_if_steps_lost" in raw:
        out = _replace(out, if_steps_lost=_int(raw, "retreat_if_steps_lost", path, 1, 40))
    if "retreat_to" in raw:
        out = _replace(out, retreat_to=_names(raw["retreat_to"], f"{path}.retreat_to", areas, "an area"))
    if "regroup" in raw:
        value = [raw["regroup"]] if isinstance(raw["regroup"], str) else raw["regroup"]
        out = _replace(out, regroup=_names(value, f"{path}.regroup", ("stay", *areas), "stay or an area"))
    if "ask" in raw:
        if not isinstance(raw["ask"], bool):
            raise _bad(f"{path}.ask", f"true or false, not {raw['ask']!r}")
        out = _replace(out, ask=raw["ask"])
    return out


def _replace(plan: BattlePlan, **changes: Any) -> BattlePlan:
    from dataclasses import replace
    return replace(plan, **changes)


def parse_plans(side: str, raw: Any, handles: tuple[str, ...] = ()) -> Plans:
    """A side's ``[plans]`` table checked field by field; the error names the field (docs/plans.md). ``handles``:
    with no referee, the handles a plan may name besides the side's blocks (docs/hammer-peer.md)."""
    if side not in ("england", "scotland"):
        raise InvalidOrder(f"plans: unknown side {side!r}")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise _bad("plans", f"a table, not {raw!r}")
    for key in sorted(raw):
        if key not in TOP_KEYS:
            raise _bad(f"plans.{key}", f"unknown key; use {', '.join(TOP_KEYS)}")
    ask_raw = raw.get("ask", [])
    if ask_raw is True:
        ask_raw = [ALL]
    ask = _names(ask_raw, "plans.ask", (ALL, *BATTLE_KINDS), f"{ALL} or a question kind ({', '.join(BATTLE_KINDS)})")
    own = [*_side_blocks(side), *handles]
    hits = _names(raw.get("hits", []), "plans.hits", own, f"a {side} block")
    raid = _names(raw.get("raid_loss", []), "plans.raid_loss", own, f"a {side} block")
    if raid and side != "england":
        raise _bad("plans.raid_loss", "only England loses blocks to border raids (5.9)")
    lost = _names(raw.get("retreat_lost", []), "plans.retreat_lost", own, f"a {side} block")
    fire_order = _names(raw.get("fire_order", []), "plans.fire_order", own, f"a {side} block")
    battle = _battle_plan(raw.get("battle", {}), "plans.battle", BattlePlan())
    areas_raw = raw.get("areas", {})
    if not isinstance(areas_raw, dict):
        raise _bad("plans.areas", f"a table of areas, not {areas_raw!r}")
    areas: dict[str, BattlePlan] = {}
    for area in sorted(areas_raw):
        if area not in board().areas:
            raise _bad(f"plans.areas.{area}", f"unknown area (1.1){did_you_mean(area, board().areas)}")
        areas[area] = _battle_plan(areas_raw[area], f"plans.areas.{area}", battle)
    return Plans(side=side, ask=ask, hits=hits, raid_loss=raid, retreat_lost=lost, fire_order=fire_order,
                 battle=battle, areas=areas)


# --- the situation a retreat condition looks at ------------------------------------------------------

@dataclass(frozen=True)
class Situation:
    own_steps: int
    enemy_steps: int
    steps_lost: int


SITUATION_KEYS = ("own_steps", "enemy_steps", "steps_lost")


def situation(question: Question) -> Situation:
    """Steps in the battle line per side and steps lost so far in this battle, as the engine
    puts them in every ``battle_action`` question's context (battle.situation)."""
    ctx = question.context
    missing = [k for k in SITUATION_KEYS if k not in ctx]
    if missing:
        raise InvalidOrder(f"{question.side}'s {question.kind} question in {ctx.get('area', '?')} lacks "
                           f"{', '.join(missing)}: a retreat condition cannot be judged ({question.rule})")
    return Situation(int(ctx["own_steps"]), int(ctx["enemy_steps"]), int(ctx["steps_lost"]))


def wants_retreat(plan: BattlePlan, round_: int, where: Situation | None) -> bool:
    """Whether the plan retreats now: from its round, when any of its conditions holds (or
    unconditionally from ``retreat_from_round`` when it has no condition)."""
    start = plan.retreat_from_round or (1 if plan.conditional else 0)
    if not start or round_ < start:
        return False
    if not plan.conditional:
        return True
    if where is None:
        raise ValueError("a plan with a retreat condition needs the battle's numbers")
    return ((plan.if_outnumbered and where.own_steps < where.enemy_steps)
            or (plan.below_percent > 0 and where.own_steps * 100 < where.enemy_steps * plan.below_percent)
            or (plan.if_steps_lost > 0 and where.steps_lost >= plan.if_steps_lost))


# --- the decider ------------------------------------------------------------------------------------------

def _hit_default_key(name: str) -> tuple[int, str, int, str]:
    """Default tie-break (5.41): leaders last, then the worst fighter first (C before A, low fire first)."""
    s = spec(name)
    return (1 if name in LEADERS else 0, chr(ord("Z") - ord(s.letter)), s.fire, name)


def _first_listed(preference: tuple[str, ...], options: tuple[str, ...]) -> str | None:
    for p in preference:
        if p in options:
            return p
    return None


class PlanDecider:
    """Answers battle questions from a side's plans; the documented defaults otherwise.

    ``state``, when given, is the live state being adjudicated: it lets the border-raid default
    pick the weakest block. Retreat conditions read the question's context only.
    """

    def __init__(self, plans: Plans, state: GameState | None = None, winter: Decider | None = None,
                 quiet: frozenset[str] = frozenset()) -> None:
        self.plans = plans
        self.state = state
        self.winter = winter
        self.quiet = quiet  # battles this side was already asked in: "ask me" is spent there (once per battle)

    def decide(self, question: Question) -> str:
        if question.kind.startswith("winter") and self.winter is not None:
            return self.winter.decide(question)
        if question.side != self.plans.side:
            raise InvalidOrder(f"{self.plans.side}'s plans were asked {question.side}'s question {question.kind}")
        area = str(question.context.get("area", ""))
        plan = self.plans.for_area(area)
        if area not in self.quiet and (ALL in self.plans.ask or question.kind in self.plans.ask or (plan.ask and area)):
            raise NeedDecision(question)
        handler = getattr(self, f"_{question.kind}", None)
        answer = handler(question, plan) if handler is not None else question.options[0]
        return answer

    # one method per question kind -------------------------------------------------------------------
    def _battle_action(self, q: Question, plan: BattlePlan) -> str:
        retreats = tuple(o for o in q.options if o.startswith("retreat:"))
        if retreats:
            where = situation(q) if plan.conditional else None
            if wants_retreat(plan, int(q.context.get("round", 1)), where):
                to = _first_listed(tuple(f"retreat:{a}" for a in plan.retreat_to), retreats)
                return to or sorted(retreats)[0]
        return "fire" if "fire" in q.options else "pass"

    def _retreat(self, q: Question, plan: BattlePlan) -> str:
        return _first_listed(plan.retreat_to, q.options) or sorted(q.options)[0]

    def _regroup(self, q: Question, plan: BattlePlan) -> str:
        return _first_listed(plan.regroup, q.options) or ("stay" if "stay" in q.options else q.options[0])

    def _hit(self, q: Question, plan: BattlePlan) -> str:
        return _first_listed(self.plans.hits, q.options) or sorted(q.options, key=_hit_default_key)[0]

    _pillage_hit = _hit

    def _retreat_lost(self, q: Question, plan: BattlePlan) -> str:
        return _first_listed(self.plans.retreat_lost, q.options) or retreat_lost_default(q)

    def _fire_next(self, q: Question, plan: BattlePlan) -> str:
        return _first_listed(self.plans.fire_order, q.options) or q.options[0]

    def _raid_loss(self, q: Question, plan: BattlePlan) -> str:
        listed = _first_listed(self.plans.raid_loss, q.options)
        if listed:
            return listed
        state = self.state
        if state is not None:
            return sorted(q.options, key=lambda n: (state.blocks[n].strength, n))[0]
        return sorted(q.options)[0]


def decider(side: str, data: dict[str, Any] | None = None, state: GameState | None = None,
            quiet: frozenset[str] = frozenset()) -> PlanDecider:
    """The decider a side's standing orders stand for: ``data["plans"]`` (battle plans) and,
    when present, ``data["winter"]`` (winter plans, winter.py). Raises ``InvalidOrder`` naming
    the field when a plan is malformed."""
    data = data or {}
    winter = None
    if "winter" in data:
        winter = plan_decider(side, dict(data["winter"] or {}))
    return PlanDecider(parse_plans(side, data.get("plans", {})), state, winter, quiet)


__all__ = ["BattlePlan", "Plans", "PlanDecider", "Situation", "decider", "parse_plans", "situation",
           "wants_retreat", "BATTLE_KINDS", "SITUATION_KEYS"]
