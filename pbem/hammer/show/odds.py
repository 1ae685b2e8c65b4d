"""Exact battle odds (docs/battles.md "Odds"): the whole outcome distribution of one battle.

Not a re-implementation of the battle rules and not sampling: the engine's own battle stages
(battle.py) and the sides' own deciders (plans.py, or the documented defaults) are run from a
snapshot, and every die roll is a branch point. A volley of ``n`` dice at rating ``r`` has
``n + 1`` outcomes (``k`` hits with the binomial weight), a Celtic Unity roll two (stays 4/6,
to the pool 2/6). The engine is fed one representative roll per outcome (1 for a hit, 6 for a
miss), which changes nothing it does but the log's die faces.

States are merged when they are equal (dynamic programming): a snapshot is taken just before a
block's volley, when the battle is resumable (the same property a paused battle relies on), and
snapshots are processed in battle order (round, combat turn), each with its total probability.
Probabilities are exact ``Fraction`` values; only printing rounds them.
"""

from __future__ import annotations

import copy
import functools
import heapq
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb
from typing import Any

from pbem.core.drbg import Drbg
from pbem.hammer.rules import plans as plans_mod
from pbem.hammer.rules.battle import STAGES, _begin, _rating, fight
from pbem.hammer.rules.battle_state import Fight, stage_named
from pbem.hammer.rules.blocks import SIDES, other_side, spec
from pbem.hammer.rules.blocks import blocks as block_specs
from pbem.hammer.rules.decisions import BySide, Decider, NeedDecision, Question, checked
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import LogEntry
from pbem.hammer.rules.state import OFF_MAP, PLACES, Battle, BlockState, GameState, Turn

HIT, MISS = 1, 6            # representative faces: 1 hits at any rating, 6 misses at any (fire <= 4)
CELTIC_STAYS = 4            # of 6 faces (5.2): 1-4 stays, 5-6 goes to the Draw Pool
DICE_PER_BLOCK = 3 * 4 + 1  # at most: three volleys of four dice and one Celtic Unity roll


# --- the result ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockOdds:
    """One block's fate, as exact probabilities summing to 1, and its expected steps at the end."""

    block: str
    side: str                 # its owner when the battle begins
    strength: int             # its steps when the battle begins
    holds: Fraction           # still with its side, and did not retreat (it may have regrouped)
    retreated: Fraction       # retreated (by choice, or after round 3) and survived
    captured: Fraction        # a noble taken by the enemy (5.7)
    eliminated: Fraction      # to the Draw Pool or dead (5.8, 6.1)
    expected_steps: Fraction  # steps still with its own side at the end (0 when lost)

    @property
    def survives(self) -> Fraction:
        return self.holds + self.retreated


@dataclass(frozen=True)
class Policy:
    """What one side was assumed to do in the battle (docs/battles.md "Odds", "The policies"): its
    standing plan for this area as the odds followed it, or the referee's defaults."""

    side: str
    source: str                              # "plans", "defaults", or "caller" (a decider given in code)
    retreat: str                             # when its blocks retreat of their own accord, in words
    settings: tuple[tuple[str, Any], ...]    # the plan keys that differ from the defaults (docs/plans.md)

    def text(self) -> str:
        if self.source == "caller":
            return f"{self.side} follows the caller's decider"
        if self.source == "defaults":
            return f"{self.side} follows the referee's defaults (docs/battles.md): {self.retreat}"
        keys = "; ".join(f"{k} = {_plain(v)}" for k, v in self.settings)
        return f"{self.side} follows its standing plans: {keys} ({self.retreat})"

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "retreat": self.retreat,
                "plans": {k: list(v) if isinstance(v, tuple) else v for k, v in self.settings}}


def _plain(v: Any) -> str:
    return ", ".join(v) if isinstance(v, tuple) else str(v).lower() if isinstance(v, bool) else str(v)


@dataclass(frozen=True)
class BattleOdds:
    """The outcome distribution of the battle in ``area``.

    ``attacker`` is the side that attacked when the battle began, even if battlefield control
    changed in round 2 (5.32 note). The three outcomes exclude each other and sum to 1; a forced
    retreat after round 3 (5.3) is filed under the side that stayed, by the side that had to go."""

    area: str
    attacker: str
    defender: str
    attacker_wins: Fraction       # the attacker alone holds the area at the end, the game going on
    defender_holds: Fraction      # the defender holds it (the attacker gone, destroyed or retreated)
    game_over: Fraction           # Edward II or the King fell (9.1): no side holds, the game ends
    blocks: tuple[BlockOdds, ...]
    forced_out: dict[str, Fraction] = field(default_factory=dict)  # side: it had to retreat after round 3
    expected_lost: dict[str, Fraction] = field(default_factory=dict)  # steps each side loses
    states: int = 0               # distinct battle states merged (a measure of the work)
    policies: tuple[Policy, ...] = ()  # what each side was assumed to do, attacker first

    def outcomes(self) -> tuple[Fraction, Fraction, Fraction]:
        return self.attacker_wins, self.defender_holds, self.game_over

    def to_dict(self) -> dict[str, Any]:
        """Plain data with every probability and expectation an exact fraction "numerator/denominator"
        (schemas/odds.schema.json)."""
        return {"area": self.area, "attacker": self.attacker, "defender": self.defender,
                "attacker_wins": exact(self.attacker_wins), "defender_holds": exact(self.defender_holds),
                "game_ends": exact(self.game_over),
                "forced_out": {s: exact(self.forced_out.get(s, Fraction(0))) for s in (self.attacker, self.defender)},
                "expected_lost": {s: exact(v) for s, v in sorted(self.expected_lost.items())},
                "policies": {p.side: p.to_dict() for p in self.policies},
                "states": self.states,
                "blocks": [{"block": b.block, "side": b.side, "strength": b.strength, "holds": exact(b.holds),
                            "retreated": exact(b.retreated), "captured": exact(b.captured),
                            "eliminated": exact(b.eliminated), "expected_steps": exact(b.expected_steps)}
                           for b in self.blocks]}


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def exact(p: Fraction) -> str:
    """A probability or an expectation as data: "numerator/denominator", lowest terms, always with
    the slash (JSON numbers cannot carry the 6**n denominators exactly)."""
    return f"{p.numerator}/{p.denominator}"


def policy_of(decider: Decider, side: str, area: str) -> Policy:
    """What ``decider`` makes ``side`` do in the battle in ``area``, from its plans (docs/plans.md)."""
    d = decider.by_side.get(side) if isinstance(decider, BySide) else None
    if not isinstance(d, plans_mod.PlanDecider):
        return Policy(side, "caller", "", ())
    p, bp = d.plans, d.plans.for_area(area)
    base = plans_mod.BattlePlan()
    settings: list[tuple[str, Any]] = []
    for key, value, default in (("retreat_from_round", bp.retreat_from_round, base.retreat_from_round),
                                ("retreat_if_outnumbered", bp.if_outnumbered, base.if_outnumbered),
                                ("retreat_below_percent", bp.below_percent, base.below_percent),
                                ("retreat_if_steps_lost", bp.if_steps_lost, base.if_steps_lost),
                                ("retreat_to", bp.retreat_to, base.retreat_to),
                                ("regroup", bp.regroup, base.regroup),
                                ("hits", p.hits, ()), ("retreat_lost", p.retreat_lost, ())):
        if value != default:
            settings.append((key, value))
    start = bp.retreat_from_round or (1 if bp.conditional else 0)  # as plans.wants_retreat reads it
    if not start:
        retreat = "never retreats by choice"
    else:
        ifs = [w for w, on in (("outnumbered", bp.if_outnumbered),
                               (f"below {bp.below_percent}% of the enemy's steps", bp.below_percent),
                               (f"after losing {bp.if_steps_lost} steps", bp.if_steps_lost)) if on]
        retreat = f"retreats from round {start}" + (" when " + " or ".join(ifs) if ifs else "")
    return Policy(side, "plans" if settings else "defaults", retreat, tuple(settings))


# --- deciders ----------------------------------------------------------------------------------------

def _no_ask(p: plans_mod.Plans) -> plans_mod.Plans:
    """A plan that pauses for the player cannot be followed by a computation: its ``ask`` is
    dropped, so those questions take the plan's own answer or the default (docs/battles.md)."""
    return replace(p, ask=(), battle=replace(p.battle, ask=False),
                   areas={a: replace(bp, ask=False) for a, bp in p.areas.items()})


def plan_deciders(state: GameState, standing: dict[str, dict[str, Any]] | None = None) -> Decider:
    """The referee's battle deciders: each side's ``{"plans": ...}`` (plans.py), the defaults
    where silent, without pauses."""
    standing = standing or {}
    by = {s: plans_mod.PlanDecider(_no_ask(plans_mod.parse_plans(s, (standing.get(s) or {}).get("plans", {}))),
                                   state) for s in SIDES}
    return BySide(**by)


# --- snapshots ---------------------------------------------------------------------------------------

class _Fire(Exception):
    """The engine asked for the first die of a volley: the battle is resumable here."""

    def __init__(self, dice: int, rating: int) -> None:
        self.dice, self.rating = dice, rating


class TooLarge(Exception):
    """The battle has more states than the caller's budget (``max_states``)."""


class _Celtic(Exception):
    """The engine asked for a Celtic Unity die (mid-stage: replayed from the last snapshot)."""


class _BranchDice:
    """Dice from a script; past its end, stops the engine and says what kind of roll is due."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.script: list[int] = []
        self.pos = 0

    def d6_at(self) -> tuple[int, int]:
        if self.pos < len(self.script):
            self.pos += 1
            return self.script[self.pos - 1], self.pos - 1
        f = self.state.current.fight
        if f is not None and f.stage == "turns":
            block = f.order[f.index]
            raise _Fire(self.state.blocks[block].strength, _rating(self.state, f, block))
        raise _Celtic()


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def _forced(log: list[LogEntry]) -> str:
    """The side that had to retreat after round 3 (5.3), or lost a block for want of a retreat
    (5.5): the attacker then, which is the defender of round 1 after a change of battlefield
    control (5.32 note); "" when none."""
    return next((e.actor or "" for e in log
                 if (e.what == "retreat" and bool(e.facts.get("forced"))) or e.what == "no_retreat"), "")


def _retreats(log: list[LogEntry]) -> set[str]:
    return {str(e.facts["block"]) for e in log if e.what == "retreat"}


@dataclass
class _Snap:
    blocks: tuple[tuple[str, str, str, int], ...]
    fight: Fight | None  # the battle to resume, without its log; None for a final situation of the fast path
    edward: str
    winner: str
    win_reason: str
    retreated: frozenset[str]
    victor: str = ""      # who holds the area once the battle is over (5.6)
    forced: str = ""      # the side that had to retreat after round 3: see ``_forced``

    def resumed(self) -> Fight:
        assert self.fight is not None, "a final situation of the fast path is not resumed"
        return self.fight

    def key(self) -> tuple[Any, ...]:
        """What decides the rest of the battle and its summary. Left out: the log and ``revealed``
        (they only change what the log shows), ``pending`` and ``queue`` (empty before a volley)."""
        f = self.resumed()
        return (self.blocks, f.round, f.stage, f.index, f.attacker, tuple(f.line),
                tuple(f.reserves), tuple(f.captured), tuple(f.order), _freeze(f.used),
                _freeze(f.lost), f.winner, self.forced, self.edward, self.winner, self.retreated)


class _Runner:
    """Runs the engine's battle stages on one working state, restoring snapshots between runs."""

    def __init__(self, state: GameState, area: str, decider: Decider) -> None:
        self.state, self.area, self.decider = state, area, decider
        self.rng = _BranchDice(state)
        if state.current.fight is not None and state.current.fight.area != area:
            raise IllegalOrder(f"battle in {area}: the battle in {state.current.fight.area} "
                               f"is not finished (5.1)", rule="5.1")
        if state.current.fight is None:
            state.current.fight = _begin(state, area)
        f = state.current.fight
        self.tracked = tuple(sorted(set(f.line) | set(f.reserves) | set(f.captured)))
        self.battle_record = state.current.battles.get(area)

    def snap(self, retreated: frozenset[str]) -> _Snap:
        s = self.state
        f = s.current.fight
        assert f is not None
        return _Snap(tuple((n, s.blocks[n].owner, s.blocks[n].location, s.blocks[n].strength) for n in self.tracked),
                     f.copy(log=False), s.edward, s.winner, s.win_reason, retreated, victor=f.winner)

    def restore(self, snap: _Snap) -> None:
        s = self.state
        for n, owner, loc, strength in snap.blocks:
            s.blocks[n] = BlockState(owner, loc, strength)
        s.current.fight = snap.resumed().copy(log=False)
        s.edward, s.winner, s.win_reason = snap.edward, snap.winner, snap.win_reason
        if self.battle_record is not None:
            s.current.battles[self.area] = self.battle_record

    def run(self, snap: _Snap, script: list[int]) -> list[tuple[int, int, Any]]:
        """Resume ``snap`` with ``script``'s dice; returns (weight, dice, result) triples, the
        probability being weight / 6**dice, where a result is a ``(_Snap, dice, rating)`` before
        the next volley or a terminal ``_Snap``."""
        self.restore(snap)
        self.rng.script, self.rng.pos = script, 0
        f = self.state.current.fight
        assert f is not None
        try:
            while f.stage != "done":
                STAGES[f.stage](self.state, f, self.rng, self.decider)
        except _Fire as fire:  # the working battle is dropped by the next restore: kept as it is, not copied
            retreated = self._retreated(snap, f)
            self.state.current.fight = None
            f.log = []
            s = self.state
            return [(1, 0, (_Snap(tuple((n, s.blocks[n].owner, s.blocks[n].location, s.blocks[n].strength)
                                        for n in self.tracked), f, s.edward, s.winner, s.win_reason, retreated),
                            fire.dice, fire.rating))]
        except _Celtic:
            stays = self.run(snap, [*script, HIT])
            goes = self.run(snap, [*script, MISS])
            return ([(w * CELTIC_STAYS, d + 1, r) for w, d, r in stays]
                    + [(w * (6 - CELTIC_STAYS), d + 1, r) for w, d, r in goes])
        except NeedDecision as need:  # pragma: no cover - deciders here never pause
            raise IllegalOrder(f"odds: a decider paused on {need.question.kind}") from None
        done = self.snap(self._retreated(snap, f))
        done.forced = _forced(f.log)
        return [(1, 0, done)]

    @staticmethod
    def _retreated(before: _Snap, f: Fight) -> frozenset[str]:
        new = _retreats(f.log)
        return before.retreated | new if new else before.retreated


@functools.lru_cache(maxsize=None)
def _volley(dice: int, rating: int) -> tuple[tuple[int, int], ...]:
    """(weight, k) for k = 0..dice hits, P(k) = weight / 6**dice, each die hitting on rating or
    less (5.4)."""
    return tuple((comb(dice, k) * rating ** k * (6 - rating) ** (dice - k), k) for k in range(dice + 1))


# --- the public entry point ----------------------------------------------------------------------------

def battle_odds(state: GameState, area: str, decider: Decider | None = None,
                max_states: int = 0, general: bool = False) -> BattleOdds:
    """The exact outcome distribution of the battle in ``area`` as the engine would fight it with
    ``decider`` (default: the referee's defaults). ``state`` is not changed. With ``max_states``,
    ``TooLarge`` is raised once more battle states than that are met (by the general path).

    Two paths give the same exact distribution (tests/hammer/test_odds.py compares them): the
    general one runs the engine's battle stages between volleys; the fast one (``_Fast``, taken
    when no Celtic Unity die and no voluntary retreat can occur, unless ``general``) plays the
    combat rounds on compact states and hands each final situation to the engine's own stages."""
    work = state.copy()
    # Only blocks on the map can matter to a battle (control of the areas around it, 5.5); the
    # rest are dropped from the working copy so each engine step scans fewer blocks.
    work.blocks = {n: b for n, b in work.blocks.items() if b.location not in PLACES}
    decider = decider if decider is not None else plan_deciders(work)
    if isinstance(decider, BySide):  # deciders that look at the live game must see the working copy
        for d in decider.by_side.values():
            if isinstance(d, plans_mod.PlanDecider) and d.state is not None:
                d.state = work
    if (not general and _fast_applies(work, area, decider) and area in work.current.battles
            and work.control(area) == "contested"):
        fast = _Fast(work, area, decider)
        finals_f, seen, scale = fast.odds(max_states)
        start = {n: (state.blocks[n].owner, state.blocks[n].strength) for n in fast.names}
        return _with_policies(_summarise(area, fast.record.attacker, start, finals_f, seen, scale), decider)
    runner = _Runner(work, area, decider)
    f0 = work.current.fight
    assert f0 is not None
    attacker = f0.original_attacker
    start = {n: (work.blocks[n].owner, work.blocks[n].strength) for n in runner.tracked}
    first = runner.snap(frozenset())
    # Masses are exact: an integer over 6**total, total bounding every die the battle can roll.
    total = DICE_PER_BLOCK * len(runner.tracked)
    heap: list[tuple[int, int, int]] = []
    nodes: dict[Any, tuple[_Snap, int, int]] = {}
    mass: dict[Any, int] = {}
    finals: dict[Any, tuple[_Snap, int]] = {}
    counter = 0

    def add(p: int, result: Any) -> None:
        nonlocal counter
        if isinstance(result, tuple):
            snap, dice, rating = result
            key = snap.key()
            if key not in nodes:
                if max_states and len(nodes) >= max_states:
                    raise TooLarge(f"battle in {area}: more than {max_states} states")
                nodes[key] = (snap, dice, rating)
                mass[key] = 0
                counter += 1
                heapq.heappush(heap, (snap.resumed().round, snap.resumed().index, counter))
                order[counter] = key
            mass[key] += p
        else:
            key = result.key() + (result.forced,)
            old = finals.get(key)
            finals[key] = (result, (old[1] if old else 0) + p)

    order: dict[int, Any] = {}
    for w, depth, r in runner.run(first, []):
        add(6 ** (total - depth) * w, r)
    while heap:
        _, _, c = heapq.heappop(heap)
        key = order.pop(c)
        snap, dice, rating = nodes[key]
        m = mass.pop(key)
        for wk, k in _volley(dice, rating):
            if wk == 0:
                continue
            for w, depth, r in runner.run(snap, [HIT] * k + [MISS] * (dice - k)):
                p, rest = divmod(m * wk * w, 6 ** (dice + depth))
                assert rest == 0, "the dice bound of the battle was exceeded"
                add(p, r)
    runner.restore(first)
    scale = 6 ** total
    return _with_policies(_summarise(area, attacker, start,
                                     {k: (s, Fraction(p, scale)) for k, (s, p) in finals.items()}, len(nodes)),
                          decider)


def _with_policies(odds: BattleOdds, decider: Decider) -> BattleOdds:
    return replace(odds, policies=tuple(policy_of(decider, s, odds.area) for s in (odds.attacker, odds.defender)))


def _summarise(area: str, attacker: str, start: dict[str, tuple[str, int]],
               finals: dict[Any, tuple[_Snap, Any]], states: int, scale: int = 1) -> BattleOdds:
    """Outcome, block fates and expected steps from the final situations and their masses
    (``Fraction`` probabilities, or integers over ``scale``)."""
    defender = other_side(attacker)
    zero: Any = 0
    win = {s: zero for s in SIDES}
    forced = {s: zero for s in SIDES}
    over = zero
    fate = {n: {"holds": zero, "retreated": zero, "captured": zero, "eliminated": zero, "steps": zero}
            for n in start}
    lost = {s: zero for s in SIDES}
    for snap, p in finals.values():
        if snap.winner:  # the game ended (9.1): one class, whoever fell and however
            over += p
        elif snap.victor:
            win[snap.victor] += p
            if snap.forced:
                forced[snap.forced] += p
        for n, owner, loc, strength in snap.blocks:
            side, steps = start[n]
            if loc in PLACES:
                what, left = "eliminated", 0
            elif owner != side:
                what, left = "captured", 0
            else:
                what, left = ("retreated" if n in snap.retreated else "holds"), strength
            fate[n][what] += p
            fate[n]["steps"] += p * left
            lost[side] += p * (steps - left)
    def q(x: Any) -> Fraction:
        return Fraction(x) / scale

    win = {s: q(v) for s, v in win.items()}
    over = q(over)
    forced_out = {s: q(v) for s, v in forced.items()}
    lost = {s: q(v) for s, v in lost.items()}
    blocks = tuple(BlockOdds(n, start[n][0], start[n][1], q(v["holds"]), q(v["retreated"]), q(v["captured"]),
                             q(v["eliminated"]), q(v["steps"]))
                   for n, v in sorted(fate.items(), key=lambda kv: (start[kv[0]][0] != attacker, kv[0])))
    return BattleOdds(area=area, attacker=attacker, defender=defender, attacker_wins=win[attacker],
                      defender_holds=win[defender], game_over=over, blocks=blocks, forced_out=forced_out,
                      expected_lost=lost, states=states)


def format_odds(odds: BattleOdds) -> str:
    """The odds as text, percentages rounded to one decimal (``--json`` gives them exactly)."""
    a, d = odds.attacker, odds.defender

    def forced(side: str, how: str) -> str:
        p = odds.forced_out.get(side, Fraction(0))
        return f" (of which {side}{how} retreats after round 3: {pct(p)})" if p else ""

    lines = [f"battle in {odds.area}: {a} attacks, {d} defends",
             *(f"  {p.text()}" for p in odds.policies),
             f"  {a} wins: {pct(odds.attacker_wins)}" + forced(d, ", attacking after the change of battlefield "
                                                                    "control (5.32 note),"),
             f"  {d} holds: {pct(odds.defender_holds)}" + forced(a, "")]
    if odds.game_over:
        lines.append(f"  the game ends in this battle, Edward II or the King killed (9.1): {pct(odds.game_over)}")
    lines.append("  expected steps lost: " + ", ".join(f"{s} {float(odds.expected_lost[s]):.2f}"
                                                      for s in (odds.attacker, odds.defender)))
    lines.append("  block (side, steps): holds / retreats / captured / eliminated; expected steps")
    for b in odds.blocks:
        lines.append(f"  {b.block} ({b.side}, {b.strength}): {pct(b.holds)} / {pct(b.retreated)} / "
                     f"{pct(b.captured)} / {pct(b.eliminated)}; {float(b.expected_steps):.2f}")
    return "\n".join(lines) + "\n"


# --- the fast path: the combat rounds on compact states, the end by the engine ------------------------

LINE, RESERVE, CAPTURED, GONE = 1, 2, 3, 0


def _fast_applies(state: GameState, area: str, decider: Decider) -> bool:
    """The compact rounds reproduce the engine only where no die or choice they leave out can
    occur: no Celtic Unity roll, no voluntary retreat in either side's plan for this battle, no
    battle already begun, no decider but the sides' plans (which the compact rounds still ask)."""
    if state.current.fight is not None or state.winner or not isinstance(decider, BySide):
        return False
    if any(spec(n).celtic for n in state.blocks_in(area)):
        return False
    for d in decider.by_side.values():
        if not isinstance(d, plans_mod.PlanDecider):
            return False
        plan = d.plans.for_area(area)
        if plan.retreat_from_round or plan.conditional:
            return False
    return True


class _Fast:
    """Rounds 1-3 of one battle on tuples (strength, owner, group per block), the engine's own
    rules functions asked for fire ratings and hit choices; the end of the battle (forced
    retreat, 5.3-5.6) is run by the engine's own stages on each distinct final situation."""

    def __init__(self, state: GameState, area: str, decider: Decider) -> None:
        self.state, self.area, self.decider = state, area, decider
        self.record = state.current.battles[area]
        here = state.blocks_in(area)
        reserves = set(self.record.attacker_reserves) | set(self.record.defender_reserves)
        self.names = tuple(here)
        self.spec = [spec(n) for n in here]
        self.sort_key = [(sp.letter, n) for sp, n in zip(self.spec, here)]
        self.start = (tuple(state.blocks[n].strength for n in here), tuple(state.blocks[n].owner for n in here),
                      tuple(RESERVE if n in reserves else LINE for n in here))
        self.schiltroms = state.options.schiltroms
        self.hit_answers: dict[tuple[str, tuple[str, ...]], str] = {}
        self.ratings: dict[tuple[Any, ...], int] = {}
        self.ends: dict[Any, Any] = {}
        self.volleys: dict[Any, tuple[Any, ...]] = {}

    # the engine's functions, on the working state made to match a compact one ----------------------
    def _place(self, strengths: tuple[int, ...], owners: tuple[str, ...], groups: tuple[int, ...]) -> None:
        s = self.state
        for i, n in enumerate(self.names):
            s.blocks[n] = BlockState(owners[i], self.area if groups[i] != GONE else "pool", strengths[i])

    def rating(self, i: int, owners: tuple[str, ...], groups: tuple[int, ...], strengths: tuple[int, ...],
               defender: str) -> int:
        # _rating reads the block, its owner, the defender and, with schiltroms only, the line
        key = (i, owners[i], defender, (groups, owners) if self.schiltroms else ())
        r = self.ratings.get(key)
        if r is None:
            line = tuple(j for j in range(len(groups)) if groups[j] == LINE)
            self._place(strengths, owners, groups)
            f = Fight(area=self.area, attacker=other_side(defender), defender=defender, original_attacker="",
                      line=[self.names[j] for j in line])
            r = self.ratings[key] = _rating(self.state, f, self.names[i])
        return r

    def hit_choice(self, side: str, tied: tuple[str, ...], left: int, by: str, round_: int) -> str:
        key = (side, tied)
        answer = self.hit_answers.get(key)
        if answer is None:
            answer = self.hit_answers[key] = checked(self.decider, Question(
                side=side, kind="hit", options=tied, rule="5.41",
                context={"area": self.area, "round": round_, "by": by, "hits_left": left}))
        return answer

    # the compact rounds --------------------------------------------------------------------------------
    @staticmethod
    def both(owners: tuple[str, ...], groups: tuple[int, ...]) -> bool:
        """Both sides still have a block in the battle (line, reserve or captured) (5.6)."""
        sides = {o for g, o in zip(groups, owners) if g != GONE}
        return len(sides) == 2

    def enter_round(self, r: int, st: tuple[int, ...], ow: tuple[str, ...], gr: tuple[int, ...],
                    attacker: str, edward: str) -> Any:
        """Round ``r`` begins (5.32, 5.7): reserves and captured nobles join the line; battlefield
        control may change; the combat order is fixed."""
        if r > 1:
            defender = other_side(attacker)
            if r == 2 and not any(g == LINE and o == defender for g, o in zip(gr, ow)):
                attacker = defender
            gr = tuple(LINE if g in ((RESERVE, CAPTURED) if r == 2 else (CAPTURED,)) else g for g in gr)
        if not self.both(ow, gr):
            return ("end", r, "end", st, ow, gr, attacker, edward, "")
        defender = other_side(attacker)
        order = tuple(sorted((i for i, g in enumerate(gr) if g == LINE),
                             key=lambda i: (self.spec[i].letter, ow[i] != defender, self.names[i])))
        return self.advance(r, 0, order, st, ow, gr, attacker, edward)

    def advance(self, r: int, idx: int, order: tuple[int, ...], st: tuple[int, ...], ow: tuple[str, ...],
                gr: tuple[int, ...], attacker: str, edward: str) -> Any:
        while idx < len(order) and gr[order[idx]] != LINE:
            idx += 1
        if idx == len(order):
            if r < 3:
                return self.enter_round(r + 1, st, ow, gr, attacker, edward)
            return ("end", r, "round_end", st, ow, gr, attacker, edward, "")
        return (r, idx, order, st, ow, gr, attacker, edward)

    def volley(self, node: Any, hits: int) -> Any:
        """``node``'s block fires and ``hits`` of its dice hit (5.4, 5.41, 5.7, 5.8, 6.1, 9.1)."""
        r, idx, order, st0, ow0, gr0, attacker, edward = node
        key = (st0, ow0, gr0, ow0[order[idx]], hits, edward)
        done = self.volleys.get(key)
        if done is None:
            done = self.volleys[key] = self.hits(node, hits)
        t_st, t_ow, t_gr, edward, winner, both = done
        if winner or not both:
            return ("end", r, "end", t_st, t_ow, t_gr, attacker, edward, winner)
        return self.advance(r, idx + 1, order, t_st, t_ow, t_gr, attacker, edward)

    def hits(self, node: Any, hits: int) -> tuple[Any, ...]:
        """The blocks after ``hits`` hits on the firing block's enemies in the line (5.41)."""
        r, idx, order, st0, ow0, gr0, attacker, edward = node
        i = order[idx]
        enemy = other_side(ow0[i])
        targets = [j for j in range(len(gr0)) if gr0[j] == LINE and ow0[j] == enemy]
        st, ow, gr = list(st0), list(ow0), list(gr0)
        winner = ""
        for left in range(hits, 0, -1):
            if winner:
                break
            alive = [j for j in targets if ow[j] == enemy and gr[j] != GONE and st[j] > 0]
            if not alive:
                break
            top = max(st[j] for j in alive)
            tied = [j for j in alive if st[j] == top]
            j = tied[0]
            if len(tied) > 1:
                pick = self.hit_choice(enemy, tuple(self.names[t] for t in tied), left, self.names[i], r)
                j = self.names.index(pick)
            st[j] -= 1
            if st[j] == 0:
                name = self.names[j]
                if self.spec[j].is_noble and name != "Moray":
                    ow[j], st[j], gr[j] = other_side(ow[j]), 1, CAPTURED
                else:
                    gr[j] = GONE
                    if name == "Edward":
                        if edward == "II":
                            winner = "scotland"
                        edward = "II"
                    elif name == "King":
                        winner = "england"
        t_ow, t_gr = tuple(ow), tuple(gr)
        return tuple(st), t_ow, t_gr, edward, winner, self.both(t_ow, t_gr)

    def fire_of(self, node: Any) -> tuple[int, int]:
        """Dice and rating of the node's volley; (0, 0) for a pass (no enemy block in the line)."""
        r, idx, order, st, ow, gr, attacker, edward = node
        i = order[idx]
        if not any(g == LINE and o != ow[i] for g, o in zip(gr, ow)):
            return 0, 0
        return st[i], self.rating(i, ow, gr, st, other_side(attacker))

    def finish(self, end: Any) -> _Snap:
        """The engine's own end of the battle (forced retreat, 5.3, 5.5; victor, 5.6) from a final
        compact situation; no die is rolled there. Only the attacker's blocks move or fall in the
        forced retreat, and where they may go does not depend on the defender's blocks, so one
        engine run serves every final situation with the same attacker's blocks."""
        _, r, stage, st, ow, gr, attacker, edward, winner = end
        mine = tuple(i for i in range(len(gr)) if gr[i] != GONE and ow[i] == attacker)
        key = (attacker, tuple((i, st[i]) for i in mine), edward, winner)
        cached = self.ends.get(key)
        if cached is None:
            cached = self.ends[key] = self._finish(end, mine)
        moved, fwinner, forced, s_edward, s_winner, s_reason, retreated = cached
        blocks = tuple(moved[i] if i in moved else
                       (n, ow[i], self.area if gr[i] != GONE else "pool", st[i] if gr[i] != GONE else 0)
                       for i, n in enumerate(self.names))
        return _Snap(blocks, None, s_edward, s_winner, s_reason, retreated, victor=fwinner, forced=forced)

    def _finish(self, end: Any, mine: tuple[int, ...]) -> tuple[Any, ...]:
        _, r, stage, st, ow, gr, attacker, edward, winner = end
        self._place(st, ow, gr)
        s = self.state
        s.edward, s.winner, s.win_reason = edward, winner, ("" if not winner else "9.1")
        names = self.names
        f = Fight(area=self.area, attacker=attacker, defender=other_side(attacker),
                  original_attacker=self.record.attacker, round=r, stage=stage_named(stage),
                  line=[names[i] for i, g in enumerate(gr) if g == LINE],
                  reserves=[names[i] for i, g in enumerate(gr) if g == RESERVE],
                  captured=[names[i] for i, g in enumerate(gr) if g == CAPTURED],
                  lost={side: 0 for side in SIDES})
        s.current.fight = f
        rng = _BranchDice(s)
        while f.stage != "done":
            STAGES[f.stage](s, f, rng, self.decider)
        moved = {i: (names[i], s.blocks[names[i]].owner, s.blocks[names[i]].location, s.blocks[names[i]].strength)
                 for i in mine}
        out = (moved, f.winner, _forced(f.log), s.edward, s.winner, s.win_reason, frozenset(_retreats(f.log)))
        s.current.fight = None
        return out

    def odds(self, max_states: int = 0) -> tuple[dict[Any, tuple[_Snap, int]], int, int]:
        total = DICE_PER_BLOCK * len(self.names)
        st, ow, gr = self.start
        first = self.enter_round(1, st, ow, gr, self.record.attacker, self.state.edward)
        # Nodes wait in buckets by (round, combat turn): every step goes forward, so a bucket is
        # complete when its turn comes.
        buckets: dict[tuple[int, int], dict[Any, int]] = {}
        finals: dict[Any, int] = {}
        seen = 0

        def add(node: Any, m: int) -> None:
            if node[0] == "end":
                finals[node] = finals.get(node, 0) + m
                return
            bucket = buckets.setdefault((node[0], node[1]), {})
            bucket[node] = bucket.get(node, 0) + m

        add(first, 6 ** total)
        pow6 = [6 ** d for d in range(DICE_PER_BLOCK)]
        for turn in sorted({(r, i) for r in range(1, 4) for i in range(len(self.names) + 1)}):
            bucket = buckets.pop(turn, None)
            if not bucket:
                continue
            seen += len(bucket)
            if max_states and seen > max_states:
                raise TooLarge(f"battle in {self.area}: more than {max_states} states")
            for node, m in bucket.items():
                dice, rating = self.fire_of(node)
                if dice == 0:
                    add(self.advance(node[0], node[1] + 1, *node[2:]), m)
                    continue
                for wk, k in _volley(dice, rating):
                    if wk:
                        p, rest = divmod(m * wk, pow6[dice])
                        assert rest == 0, "the dice bound of the battle was exceeded"
                        add(self.volley(node, k), p)
        assert not buckets
        out: dict[Any, tuple[_Snap, int]] = {}
        for end, m in finals.items():
            snap = self.finish(end) if end[2] == "round_end" else self.over(end)
            key = (snap.blocks, snap.victor, snap.forced, snap.edward, snap.winner, snap.retreated)
            old = out.get(key)
            out[key] = (snap, (old[1] if old else 0) + m)
        return out, seen, 6 ** total

    def over(self, end: Any) -> _Snap:
        """A battle ended before the forced retreat: one side is gone, or the game is (5.6, 9.1).
        The victor's regroup (5.6) moves blocks but changes no block's fate, so it is not run."""
        _, r, stage, st, ow, gr, attacker, edward, winner = end
        sides = {o for g, o in zip(gr, ow) if g != GONE}
        victor = "" if winner or len(sides) != 1 else sides.pop()
        return _Snap(tuple((n, ow[i], self.area if gr[i] != GONE else "pool", st[i] if gr[i] != GONE else 0)
                           for i, n in enumerate(self.names)),
                     None, edward, winner, "", frozenset(), victor=victor)

# --- the check: the engine itself, fighting with real dice ---------------------------------------------

def simulate(state: GameState, area: str, decider: Decider, battles: int, seed: bytes) -> BattleOdds:
    """The frequencies of ``battles`` battles fought by the engine (``battle.fight``, dice from
    the stream keyed by ``seed``), summarised as ``battle_odds`` summarises its distribution: what
    the exact odds are checked against (bench/battle_odds.py, tests)."""

    work = state.copy()
    work.blocks = {n: b for n, b in work.blocks.items() if b.location not in PLACES}
    if isinstance(decider, BySide):
        for d in decider.by_side.values():
            if isinstance(d, plans_mod.PlanDecider) and d.state is not None:
                d.state = work
    record = work.current.battles.get(area)
    tracked = tuple(work.blocks_in(area))
    start = {n: (work.blocks[n].owner, work.blocks[n].strength) for n in tracked}
    base = [(n, work.blocks[n].owner, work.blocks[n].location, work.blocks[n].strength) for n in tracked]
    edward, winner = work.edward, work.winner
    attacker = record.attacker if record is not None else ""
    rng = Drbg(seed)
    counts: dict[Any, tuple[_Snap, int]] = {}
    for _ in range(battles):
        for n, owner, loc, strength in base:
            work.blocks[n] = BlockState(owner, loc, strength)
        work.current.fight = None
        if record is not None:
            work.current.battles[area] = record
        work.edward, work.winner, work.win_reason = edward, winner, ""
        log = fight(work, area, rng, decider)
        end = next((e for e in log if e.what == "battle_end"), None)
        forced = _forced(log)
        blocks = tuple((n, work.blocks[n].owner, work.blocks[n].location, work.blocks[n].strength) for n in tracked)
        snap = _Snap(blocks, None, work.edward, work.winner, "", frozenset(_retreats(log)),
                     victor=str(end.facts.get("winner", "")) if end is not None else "", forced=forced)
        key = (snap.blocks, snap.victor, forced, snap.winner, snap.retreated)
        old = counts.get(key)
        counts[key] = (snap, (old[1] if old else 0) + 1)
    return _summarise(area, attacker or str(log[0].facts["attacker"]), start,
                      {k: (sn, Fraction(c, battles)) for k, (sn, c) in counts.items()}, len(counts))


# --- a side's own estimate, from its view only -----------------------------------------------------------

VIEW_BUDGET = 10_000  # battle states a report's estimate may take (about a tenth of a second)
LEADER_BLOCKS = ("Edward", "King", "Wallace")


@dataclass(frozen=True)
class Sight:
    """All ``view_odds`` reads of a view for the battle in one area, and nothing else: the
    estimate is a function of it alone, so it is also the key of the estimates kept."""

    area: str
    side: str
    enemy: str
    attacker: str
    count: int                                  # the enemy's blocks in the battle
    own: tuple[tuple[str, str, int], ...]       # the side's blocks: name, area, strength (view order)
    gone: tuple[str, ...]                       # the side's own, dead and off-map blocks, sorted
    control: tuple[tuple[str, str], ...]        # area -> holder, sorted
    scenario: str
    year: int
    turn: int
    edward: str
    king: str
    player1: str


def sight_of(view: dict[str, Any], area: str) -> Sight | None:
    """What ``view`` shows of the battle pending in ``area``; None when none is pending there."""
    battle = next((b for b in view.get("battles", []) if b.get("area") == area), None)
    if battle is None:
        return None
    side, enemy = str(view["side"]), str(view["enemy"])
    own = {str(b["block"]): (str(b["area"]), int(b["strength"])) for b in view.get("blocks", [])}
    known_gone = set(own)
    for place in ("dead", "off_map"):
        for names in (view.get(place) or {}).values():
            known_gone |= set(names)
    return Sight(area=area, side=side, enemy=enemy, attacker=str(battle["attacker"]),
                 count=int(battle["blocks"].get(enemy, 0)),
                 own=tuple((n, where, strength) for n, (where, strength) in own.items()),
                 gone=tuple(sorted(known_gone)),
                 control=tuple(sorted((str(a), str(h)) for a, h in (view.get("control") or {}).items())),
                 scenario=str(view["scenario"]), year=int(view["year"]), turn=int(view.get("turn", 0)),
                 edward=str(view.get("edward", "I")), king=str(view.get("king", "")),
                 player1=str(view.get("player1", "")))


def view_odds(view: dict[str, Any], area: str, max_states: int = VIEW_BUDGET) -> BattleOdds | None:
    """The odds of the pending battle in ``area`` as ``view``'s side can reckon them: a function
    of the view alone (docs/battles.md "Odds from a report"), so it can be shown in a report.

    Own blocks are exact (names, areas, strengths). The enemy's face-down blocks there are taken
    as its ordinary blocks: of the enemy blocks the view does not place elsewhere (not its own,
    not dead, not off the map) and that are not leaders nor Welsh or Irish, sorted by combat rating (letter, then
    fire, then steps, then name), the middle ``n`` ones, at full strength. Every block fights
    from round 1 (reserves not told apart), no border control, the default plans; areas the
    enemy holds get one stand-in enemy block each, so retreats see the control the view shows.
    None when the battle takes more than ``max_states`` states (too costly for a report)."""
    sight = sight_of(view, area)
    return None if sight is None else sight_odds(sight, max_states)


def sight_odds(sight: Sight, max_states: int = VIEW_BUDGET) -> BattleOdds | None:
    """``view_odds`` from what the view shows of the battle (``sight_of``)."""
    area, side, enemy = sight.area, sight.side, sight.enemy
    known_gone = set(sight.gone)
    possible = [n for n, sp in block_specs().items() if enemy in sp.sides and n not in known_gone
                and n not in LEADER_BLOCKS and not sp.celtic]
    rating = lambda n: (spec(n).letter, -spec(n).fire, spec(n).steps, n)  # noqa: E731
    plain = sorted((n for n in possible if not spec(n).is_noble), key=rating)
    candidates = plain + sorted((n for n in possible if spec(n).is_noble), key=rating)
    count = sight.count
    if count == 0 or count > len(candidates):
        return None
    first = max(0, (len(plain) - count) // 2)
    fighting = candidates[first:first + count]
    spare = [n for n in candidates if n not in fighting]
    state = GameState(scenario=sight.scenario, year=sight.year, turn=sight.turn,
                      phase="battle", edward=sight.edward, king=sight.king)
    for name, sp in block_specs().items():
        state.blocks[name] = BlockState(sp.sides[0], OFF_MAP, 0)
    for name, where, strength in sight.own:
        state.blocks[name] = BlockState(side, where, strength)
    for name in fighting:
        state.blocks[name] = BlockState(enemy, area, spec(name).steps)
    for a, holder in sight.control:
        if a != area and holder in (enemy, "contested") and spare:
            name = spare.pop(0)
            state.blocks[name] = BlockState(enemy, a, 1)
    state.current = Turn(player1=sight.player1)
    state.current.battles[area] = Battle(area=area, attacker=sight.attacker, main=state.blocks_in(area, sight.attacker))
    try:
        return battle_odds(state, area, plan_deciders(state), max_states=max_states)
    except TooLarge:
        return None


_ESTIMATES: dict[Sight, dict[str, Any]] = {}
ESTIMATES_KEPT = 256  # the latest battles' estimates kept: reports of one step, its pauses and redraws share them


def estimates(view: dict[str, Any], areas: list[str]) -> dict[str, dict[str, Any]]:
    """The report's ``odds`` field: for each pending battle, the side's estimate (``view_odds``)
    as plain data, ``{}`` when it is too large to reckon in a report. ``view_odds`` is a function
    of what the view shows of the battle (``Sight``), so the answer for the same sight is reused:
    by the text, the HTML and the board of one report, and by every report that shows the
    battle alike (each pause of one step, a redraw of what the side may not see)."""
    out: dict[str, dict[str, Any]] = {}
    for area in areas:
        sight = sight_of(view, area)
        if sight is None:
            out[area] = {}
            continue
        if sight not in _ESTIMATES:
            if len(_ESTIMATES) >= ESTIMATES_KEPT:
                _ESTIMATES.pop(next(iter(_ESTIMATES)), None)
            _ESTIMATES[sight] = _estimate(sight)
        out[area] = copy.deepcopy(_ESTIMATES[sight])
    return out


def _estimate(sight: Sight) -> dict[str, Any]:
    odds = sight_odds(sight)
    return {} if odds is None else {
        "attacker": odds.attacker, "defender": odds.defender, "attacker_wins": pct(odds.attacker_wins),
        "defender_holds": pct(odds.defender_holds),
        "expected_lost": {s: f"{float(v):.1f}" for s, v in sorted(odds.expected_lost.items())}}


def estimate_line(area: str, odds: dict[str, Any]) -> str:
    """One report line for a pending battle's estimate (docs/battles.md "Odds from a report")."""
    if not odds:
        return "    odds: too many blocks to reckon here; pbem odds computes a position's exact odds"
    a, d = odds["attacker"], odds["defender"]
    return (f"    odds from what you see: {a} wins {odds['attacker_wins']}, {d} holds {odds['defender_holds']}; "
            f"steps lost {a} {odds['expected_lost'][a]}, {d} {odds['expected_lost'][d]}")


__all__ = ["BattleOdds", "BlockOdds", "Policy", "battle_odds", "exact", "format_odds", "policy_of",
           "plan_deciders", "pct", "simulate", "view_odds", "Sight", "sight_of", "sight_odds", "estimates",
           "estimate_line", "TooLarge"]
