"""Battles (5.0-5.9): one battle at a time, resumable at any decision.

The battle in progress lives in ``state.current.fight``, a ``Fight`` record (battle_state.py:
round, stage, the blocks in line, in reserve and captured, the turn order and index, hits still
to apply, retreat counts, the log so far). Every stage either finishes or stops at a decision
*before* changing anything it has not recorded, so calling ``fight`` again on the saved state,
with a decider that now answers and the random stream where it stopped, ends exactly as an
unbroken battle would.

Every line of the log is a ``LogEntry`` (log.py) that says who may see it. The log format and
the defaults are documented in docs/battles.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.drbg import Dice as Rng  # the core's random-stream protocol: a battle only rolls dice
from pbem.hammer.rules.battle_state import Fight, Hits
from pbem.hammer.rules.blocks import SIDES, other_side, spec
from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.decisions import Decider, Question, checked
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.hidden import reveal
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, Plain, Visibility, as_entry, entry, redacted
from pbem.hammer.rules.retreat import crossing_key, retreat_areas
from pbem.hammer.rules.state import DEAD, PLACES, POOL, Battle, GameState
from pbem.hammer.rules.victory import edward_dies, king_dies

Log = list[LogEntry]
ROUNDS = 3            # 5.3
CELTIC_LOSS = 5       # 5.2: 5-6 sends the block to the Draw Pool
EDWARD = "Edward"
KING = "King"
MORAY = "Moray"
HOME_FIRE = 3         # 1.4: B2 = B3 at home when defending


# --- 5.1 battle sequence ----------------------------------------------------------------------------

def battle_order(state: GameState, requested: list[str]) -> list[str]:
    """Player 1's list first (5.1), then every other battle in area-name order (the default)."""
    pending = sorted(state.current.battles)
    unknown = [a for a in requested if a not in state.current.battles]
    if unknown:
        raise IllegalOrder(f"battle order {', '.join(requested)}: no battle in {', '.join(unknown)} "
                           f"this turn (5.1)", rule="5.1")
    if len(set(requested)) != len(requested):
        raise InvalidOrder(f"battle order {', '.join(requested)}: an area is listed twice")
    return list(requested) + [a for a in pending if a not in requested]


# --- the default decider ------------------------------------------------------------------------------

class DefaultBattleDecider:
    """The defaults when no plan speaks: fire always (pass when there is nothing to fire at), hits
    to the first tied block by name, no regroup, retreat to the first legal area by name, border
    raid losses from the first non-noble block by name."""

    def decide(self, question: Question) -> str:
        opts = question.options
        if question.kind == "battle_action":
            return "fire" if "fire" in opts else "pass"
        if question.kind == "regroup":
            return "stay"
        if question.kind == "retreat_lost":
            return retreat_lost_default(question)
        return sorted(opts)[0]


LEADERS = (EDWARD, KING, "Wallace")


def retreat_lost_default(question: Question) -> str:
    """Which block a border limit leaves behind when no plan says (5.5): the least loss first —
    plain blocks before nobles (a noble left behind is captured, 5.7) before leaders (Edward, the
    King, Wallace); then the fewest steps, the weakest fighter (C before A, low fire), the name."""
    strengths = question.context.get("strengths", {})

    def key(name: str) -> tuple[int, int, str, int, str]:
        s = spec(name)
        rank = 2 if name in LEADERS else 1 if s.is_noble else 0
        return (rank, int(strengths.get(name, 0)), chr(ord("Z") - ord(s.letter)), s.fire, name)

    return sorted(question.options, key=key)[0]


# --- hits (5.41), shared with the Pillage event -------------------------------------------------------

def strongest(state: GameState, blocks: list[str]) -> list[str]:
    """The blocks that share the highest current strength, by name (5.41)."""
    alive = sorted(b for b in blocks if state.blocks[b].location not in PLACES and state.blocks[b].strength > 0)
    if not alive:
        return []
    top = max(state.blocks[b].strength for b in alive)
    return [b for b in alive if state.blocks[b].strength == top]


def disband(state: GameState, block: str) -> Log:
    """Outside a battle (Pillage, Border Raids, attrition) an eliminated block goes to its Draw Pool,
    black cross or not (5.8)."""
    b = state.blocks[block]
    b.location, b.strength = POOL, 0
    return [entry("eliminated", b.owner, PRIVATE, block=block, to=POOL, rule="5.8")]


def apply_hits(state: GameState, blocks: list[str], hits: int, decider: Decider, *,
               on_eliminated: Callable[[GameState, str], Log] | None = None,
               progress: Hits | None = None, log: Log | None = None,
               context: dict[str, Plain] | None = None) -> Log:
    """Apply ``hits`` one by one, each to the strongest of ``blocks`` still standing, the owner
    choosing among ties (a "hit" question) (5.41).

    Resumable: ``progress`` (kept in the state) holds the hits still due (``left``); each hit is
    applied only once its target is known, so a pause never leaves half a hit. Entries go to
    ``log`` as they happen. A block reduced to 0 goes to ``on_eliminated`` (default: its Draw
    Pool, as for Pillage, 5.8).
    """
    progress = progress if progress is not None else Hits(left=hits)
    out: Log = log if log is not None else []
    start = len(out)
    eliminate = on_eliminated or disband
    if progress.side is None:  # fixed once: a noble captured meanwhile no longer takes these hits
        progress.side = state.blocks[blocks[0]].owner if blocks else ""
    while progress.left > 0:
        if state.winner:  # the game ended at the last hit (9.1): the rest of the volley is not applied
            progress.left = 0
            break
        targets = strongest(state, [b for b in blocks if state.blocks[b].owner == progress.side])
        if not targets:
            break
        target = targets[0]
        if len(targets) > 1:
            target = checked(decider, Question(
                side=state.blocks[target].owner, kind="hit", options=tuple(targets),
                context={**(context or {}), "hits_left": progress.left}, rule="5.41"))
        b = state.blocks[target]
        b.strength -= 1
        progress.left -= 1
        out.append(LogEntry("hit", b.owner, PUBLIC, {**(context or {}), "block": target, "strength": b.strength,
                                                     "tied": len(targets)}))
        if b.strength == 0:
            out.extend(eliminate(state, target))
    return out[start:]


# --- starting a battle ------------------------------------------------------------------------------

def _begin(state: GameState, area: str) -> Fight:
    battle = state.current.battles.get(area)
    if battle is None:
        raise IllegalOrder(f"battle in {area}: no battle was left there by the Move Phase (5.0)", rule="5.0")
    if state.control(area) != "contested":
        raise IllegalOrder(f"battle in {area}: the area is not contested (5.0)", rule="5.0")
    here = state.blocks_in(area)
    reserves = sorted(b for b in set(battle.attacker_reserves) | set(battle.defender_reserves) if b in here)
    attacker, defender = battle.attacker, other_side(battle.attacker)
    return Fight(area=area, attacker=attacker, defender=defender, original_attacker=attacker,
                 line=[b for b in here if b not in reserves], reserves=reserves, lost={side: 0 for side in SIDES},
                 log=[entry("battle", None, PUBLIC, area=area, attacker=attacker, defender=defender, rule="5.1")])


def _battle_record(state: GameState, f: Fight) -> Battle:
    return state.current.battles.get(f.area) or Battle(area=f.area, attacker=f.original_attacker)


# --- the public entry points --------------------------------------------------------------------------

def fight(state: GameState, area: str, rng: Rng, decider: Decider) -> Log:
    """Fight the battle in ``area`` to its end (or carry on the one paused there) and return its
    whole log. A decider raising ``NeedDecision`` leaves the battle resumable in the state."""
    f = state.current.fight
    if f is not None and f.area != area:
        raise IllegalOrder(f"battle in {area}: the battle in {f.area} is not finished (5.1)", rule="5.1")
    if f is None:
        f = state.current.fight = _begin(state, area)
    while f.stage != "done":
        STAGES[f.stage](state, f, rng, decider)
    log = f.log
    state.current.fight = None
    state.current.battles.pop(area, None)
    return log


def fight_defection(state: GameState, area: str, defectors: list[str], rng: Rng, decider: Decider) -> Log:
    """A battle fought at once with the defecting noble(s) as the attacker (6.21, 6.22, Herald):
    a normal battle, no reserves, no border used to enter (so no Border Control)."""
    if state.current.fight is None or state.current.fight.area != area:
        side = state.blocks[defectors[0]].owner
        state.current.battles[area] = Battle(area=area, attacker=side, main=sorted(defectors), main_origin=area)
    return fight(state, area, rng, decider)


# --- stages ----------------------------------------------------------------------------------------

def _emit(f: Fight, what: str, actor: str | None = None, visibility: Visibility = PUBLIC, **facts: Plain) -> None:
    """A line of the battle's log, saying where and in which round."""
    f.log.append(LogEntry(what, actor, visibility, {"area": f.area, "round": f.round, **facts}))


def _emit_line(f: Fight, line: LogEntry | Mapping[str, Plain]) -> None:
    """Another module's line (a King's or Edward's death, 6.1, 6.2) in the battle's log, as ``_emit`` writes."""
    e = as_entry(line)
    f.log.append(LogEntry(e.what, e.actor, e.visibility, {"area": f.area, "round": f.round, **e.facts}))


def _present(state: GameState, f: Fight, side: str) -> list[str]:
    """The side's blocks still in the battle: in line, in reserve or captured, in the area."""
    return sorted(b for b in f.line + f.reserves + f.captured
                  if state.blocks[b].owner == side and state.blocks[b].location == f.area)


def _over(state: GameState, f: Fight) -> bool:
    return state.winner != "" or any(not _present(state, f, s) for s in SIDES)


def _round_start(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    """Reveal (5.1), reserves and captured nobles arrive (5.32, 5.7), Celtic Unity (5.2), turn order."""
    r = f.round
    f.used = {}
    if r == 1:
        revealed = list(f.line)
    else:
        if r == 2:
            defender = f.defender
            if not [b for b in f.line if state.blocks[b].owner == defender]:
                f.attacker, f.defender = defender, f.attacker
                _emit(f, "control", attacker=f.attacker, defender=f.defender, rule="5.32")
        revealed = f.reserves if r == 2 else []
        f.line = sorted(f.line + f.reserves + f.captured) if r == 2 else sorted(f.line + f.captured)
        if r == 2:
            f.reserves = []
        f.captured = []
    reveal(state, revealed, "5.32: reserves are revealed in round 2" if r > 1 else "5.1: a battle reveals its blocks")
    for side in SIDES:
        mine = sorted(b for b in revealed if state.blocks[b].owner == side)
        if mine:
            _emit(f, "reveal", side, seen_by=other_side(side), rule="5.32" if r > 1 else "5.1",
                  blocks=[{"block": b, "strength": state.blocks[b].strength} for b in mine])
    f.revealed = sorted(set(f.revealed) | set(revealed))
    for b in sorted(revealed):
        if spec(b).celtic:
            value, index = rng.d6_at()
            lost = value >= CELTIC_LOSS
            _emit(f, "celtic", state.blocks[b].owner, block=b, die=value, index=index,
                  result="pool" if lost else "stays", rule="5.2")
            if lost:
                _lose(f, state.blocks[b].owner, state.blocks[b].strength)
                state.blocks[b].location, state.blocks[b].strength = POOL, 0
                f.line.remove(b)
    if _over(state, f):
        f.stage = "end"
        return
    f.order = sorted(f.line, key=lambda b: (spec(b).letter, state.blocks[b].owner != f.defender, b))
    f.index = 0
    f.chosen = -1
    f.stage = "turns"


def _rating(state: GameState, f: Fight, block: str) -> int:
    """Fire rating now: nobles defending home fire 3 (1.4); schiltroms (5.4 option)."""
    s = spec(block)
    owner = state.blocks[block].owner
    fire = s.fire
    if s.is_noble and f.area in s.homes and owner == f.defender:
        fire = max(fire, HOME_FIRE)
    if (state.options.schiltroms and owner == "scotland" and s.type == "infantry"
            and not any(spec(b).type == "archers" and state.blocks[b].owner == "england" for b in f.line)):
        fire += 1
    return fire


def _targets(state: GameState, f: Fight, side: str) -> list[str]:
    """Enemy blocks that may take hits: in line (not reserves in round 1, not captured) (5.32)."""
    return sorted(b for b in f.line if state.blocks[b].owner == other_side(side)
                  and state.blocks[b].location == f.area)


def situation(state: GameState, f: Fight, side: str) -> dict[str, int]:
    """What a standing plan's retreat conditions look at (docs/plans.md): ``own_steps`` and
    ``enemy_steps`` in the battle line now (reserves and captured nobles not counted: the enemy's
    are hidden or not yet fighting), ``steps_lost`` by ``side`` in this battle so far (hits taken,
    blocks lost to Celtic Unity or for want of a retreat)."""
    steps = {s: 0 for s in SIDES}
    for b in f.line:
        block = state.blocks[b]
        if block.location == f.area:
            steps[block.owner] += block.strength
    return {"own_steps": steps[side], "enemy_steps": steps[other_side(side)],
            "steps_lost": f.lost[side]}


def _lose(f: Fight, side: str, steps: int) -> None:
    f.lost[side] += steps


def _turns(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    while True:
        if f.pending:
            _resolve_hits(state, f, decider)
            if _after_action(state, f):
                return
            continue
        if f.index >= len(f.order):
            break
        block = f.order[f.index]
        b = state.blocks[block]
        if block not in f.line or b.location != f.area:
            f.index += 1
            continue
        block = _choose_next(state, f, decider)
        b = state.blocks[block]
        targets = _targets(state, f, b.owner)
        options = (["fire"] if targets else []) + \
            [f"retreat:{a}" for a in retreat_areas(state, block, f.area, f.used, _battle_record(state, f))] + \
            ["pass"]
        answer = checked(decider, Question(
            side=b.owner, kind="battle_action", options=tuple(options), rule="5.31",
            context={"area": f.area, "round": f.round, "block": block, "strength": b.strength,
                     "rating": f"{spec(block).letter}{_rating(state, f, block)}",
                     "attacker": f.attacker, **situation(state, f, b.owner)}))
        if answer == "fire":
            rating = _rating(state, f, block)
            dice = [rng.d6_at() for _ in range(b.strength)]
            hits = sum(1 for v, _ in dice if v <= rating)
            _emit(f, "fire", b.owner, block=block, rating=f"{spec(block).letter}{rating}",
                  dice=[{"value": v, "index": i, "hit": v <= rating} for v, i in dice], hits=hits, rule="5.4")
            f.index += 1
            if hits:
                f.pending = Hits(left=hits, by=block, targets=targets)
                continue
        elif answer.startswith("retreat:"):
            _retreat(state, f, block, answer.split(":", 1)[1], forced=False)
            f.index += 1
        else:
            _emit(f, "pass", b.owner, block=block, rule="5.31")
            f.index += 1
        if _after_action(state, f):
            return
    f.stage = "round_end"


def _letter_mates(state: GameState, f: Fight) -> list[str]:
    """The blocks still to act, from ``f.index``, of the same side and letter as the block there."""
    first = f.order[f.index]
    owner, letter = state.blocks[first].owner, spec(first).letter
    return [b for b in f.order[f.index:] if state.blocks[b].owner == owner and spec(b).letter == letter
            and b in f.line and state.blocks[b].location == f.area]


def order_matters(state: GameState, f: Fight, mates: list[str]) -> bool:
    """Whether the firing order within one side's letter can change a rating (Schiltrom option,
    5.4): Scottish infantry fire at +1 once the English side has no archers, so while English
    archers stand in the line, which Scottish infantry fires first (perhaps killing them) matters."""
    return (state.options.schiltroms and len(mates) > 1
            and any(state.blocks[b].owner == "scotland" and spec(b).type == "infantry" for b in mates)
            and any(spec(b).type == "archers" and state.blocks[b].owner == "england"
                    and state.blocks[b].location == f.area for b in f.line))


def _choose_next(state: GameState, f: Fight, decider: Decider) -> str:
    """The block that takes the next combat turn: the owner chooses among blocks of one letter
    where the order matters (``fire_next``, plan key ``fire_order``), name order otherwise (5.31)."""
    if f.chosen == f.index:  # chosen already; the battle paused in that block's turn
        return f.order[f.index]
    mates = _letter_mates(state, f)
    if not order_matters(state, f, mates):
        return f.order[f.index]
    owner = state.blocks[mates[0]].owner
    chosen = checked(decider, Question(
        side=owner, kind="fire_next", options=tuple(mates), rule="5.31",
        context={"area": f.area, "round": f.round,
                 "strengths": {b: state.blocks[b].strength for b in mates}}))
    rest = [b for b in f.order[f.index:] if b != chosen]
    f.order = f.order[:f.index] + [chosen] + rest
    f.chosen = f.index
    return chosen


def _after_action(state: GameState, f: Fight) -> bool:
    if _over(state, f):
        f.pending = None
        f.stage = "end"
        return True
    return False


def _resolve_hits(state: GameState, f: Fight, decider: Decider) -> None:
    p = f.pending
    assert p is not None
    start = len(f.log)
    try:
        apply_hits(state, p.targets, p.left, decider, progress=p, log=f.log,
                   on_eliminated=lambda st, name: _killed(st, f, name),
                   context={"area": f.area, "round": f.round, "by": p.by})
    finally:  # a pause keeps the hits already applied, and their count
        for e in f.log[start:]:
            if e.what == "hit" and e.actor:
                _lose(f, e.actor, 1)
    f.pending = None


def _killed(state: GameState, f: Fight, block: str) -> Log:
    """A block eliminated in battle (5.7, 5.8, 6.1, 6.2): returns nothing, writes to the battle log."""
    b = state.blocks[block]
    if block in f.line:
        f.line.remove(block)
    side = b.owner
    s = spec(block)
    if s.is_noble and block != MORAY:
        b.owner, b.strength = other_side(side), 1
        f.captured.append(block)
        _emit(f, "eliminated", side, block=block, to="captured", now=b.owner, rule="5.7")
    elif block == EDWARD:
        b.location, b.strength = (DEAD if state.edward == "II" else POOL), 0
        _emit(f, "eliminated", side, block=block, to=b.location, edward=state.edward, rule="6.1")
        for e in edward_dies(state):
            _emit_line(f, e)
    elif block == KING:
        b.location, b.strength = DEAD, 0
        _emit(f, "eliminated", side, block=block, to=DEAD, rule="9.1")
        for e in king_dies(state):
            _emit_line(f, e)
    else:
        to = DEAD if s.black_cross else POOL
        b.location, b.strength = to, 0
        _emit(f, "eliminated", side, block=block, to=to, rule="5.8")
    return []


def _retreat(state: GameState, f: Fight, block: str, to: str, forced: bool) -> None:
    b = state.blocks[block]
    border = _border_key(f.area, to, block)
    if border:
        key = crossing_key(b.owner, border)
        f.used[key] = f.used.get(key, 0) + 1
    b.location = to
    for group in (f.line, f.reserves, f.captured):
        if block in group:
            group.remove(block)
    _emit(f, "retreat", b.owner, redacted("to"), block=block, to=to, forced=forced, sea=not border, rule="5.5")


def _border_key(area: str, to: str, block: str) -> str:
    if spec(block).type == "norse":
        return ""
    border = board().border(area, to)
    return border.key if border else ""


def _round_end(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    if f.round < ROUNDS:
        f.round += 1
        f.stage = "round_start"
        return
    f.used = {}
    f.queue = _present(state, f, f.attacker)
    f.stage = "forced_retreat"


def _forced_retreat(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    """The attacker must retreat after round 3 (5.3); a block that cannot is eliminated (5.5, 5.8)."""
    while f.queue:
        block = f.queue[0]
        if state.blocks[block].location != f.area:
            f.queue.pop(0)
            continue
        lost = _left_behind(state, f, decider)
        if lost:
            _emit(f, "no_retreat", state.blocks[lost].owner, block=lost, border_limit=True, rule="5.5")
            f.queue.remove(lost)
            _eliminate_anywhere(state, f, lost)
            if state.winner:
                break
            continue
        areas = retreat_areas(state, block, f.area, f.used, _battle_record(state, f))
        if not areas:
            _emit(f, "no_retreat", state.blocks[block].owner, block=block, rule="5.5")
            f.queue.pop(0)
            _eliminate_anywhere(state, f, block)
            if state.winner:
                break
            continue
        to = areas[0] if len(areas) == 1 else checked(decider, Question(
            side=state.blocks[block].owner, kind="retreat", options=tuple(areas), rule="5.3",
            context={"area": f.area, "round": f.round, "block": block,
                     **situation(state, f, state.blocks[block].owner)}))
        f.queue.pop(0)
        _retreat(state, f, block, to, forced=True)
    f.stage = "end"


def _left_behind(state: GameState, f: Fight, decider: Decider) -> str:
    """When the border limits let fewer of the attacker's land blocks retreat than must, the owner
    chooses which are lost (a ``retreat_lost`` question, one block at a time) (5.5); "" when
    every block can go, or none can (no choice then)."""
    land = sorted(b for b in f.queue if state.blocks[b].location == f.area and spec(b).type != "norse")
    if len(land) < 2:
        return ""
    room = _room(state, f, land[0])
    if room == 0 or room >= len(land):
        return ""
    side = state.blocks[land[0]].owner
    return checked(decider, Question(
        side=side, kind="retreat_lost", options=tuple(land), rule="5.5",
        context={"area": f.area, "round": f.round, "room": room, "blocks": len(land),
                 "strengths": {b: state.blocks[b].strength for b in land}}))


def _room(state: GameState, f: Fight, block: str) -> int:
    """How many more of ``block``'s side may retreat by land now: the crossings left on the borders
    to every area it may retreat to (all land blocks of one side have the same areas, 5.5)."""
    side = state.blocks[block].owner
    room = 0
    for to in retreat_areas(state, block, f.area, {}, _battle_record(state, f)):
        border = board().border(f.area, to)
        assert border is not None
        room += max(0, border.limit - f.used.get(crossing_key(side, border.key), 0))
    return room


def _eliminate_anywhere(state: GameState, f: Fight, block: str) -> None:
    """Eliminated for want of a retreat: as if killed in battle (5.5, 5.8); a noble is captured
    and stays with the victor (5.7, docs/rules-notes.md)."""
    _lose(f, state.blocks[block].owner, state.blocks[block].strength)
    state.blocks[block].strength = 0
    for group in (f.reserves, f.captured):
        if block in group:
            group.remove(block)
    _killed(state, f, block)


def _end(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    if state.winner:
        _emit(f, "battle_end", winner="", game_over=True, rule="9.1")
        f.stage = "done"
        return
    sides = [s for s in SIDES if _present(state, f, s)]
    winner = sides[0] if len(sides) == 1 else ""
    f.winner = winner
    hidden = {s: len([b for b in f.reserves if state.blocks[b].owner == s]) for s in SIDES}
    _emit(f, "battle_end", winner=winner, rounds=f.round,
          hidden_reserves={s: n for s, n in hidden.items() if n}, rule="5.6")
    f.line = sorted(f.line + f.reserves + f.captured)
    f.reserves, f.captured = [], []
    f.used = {}
    f.queue = _present(state, f, winner) if winner else []
    f.stage = "regroup"


def _regroup(state: GameState, f: Fight, rng: Rng, decider: Decider) -> None:
    """The victor's blocks, reserves included, may regroup; every retreat rule but Border Control (5.6)."""
    while f.queue:
        block = f.queue[0]
        areas = retreat_areas(state, block, f.area, f.used, _battle_record(state, f), border_control=False)
        if areas:
            answer = checked(decider, Question(
                side=state.blocks[block].owner, kind="regroup", options=("stay", *areas), rule="5.6",
                context={"area": f.area, "block": block}))
            if answer != "stay":
                b = state.blocks[block]
                border = _border_key(f.area, answer, block)
                if border:
                    key = crossing_key(b.owner, border)
                    f.used[key] = f.used.get(key, 0) + 1
                b.location = answer
                unseen = block not in f.revealed  # a reserve that never fought stays hidden
                _emit(f, "regroup", b.owner, redacted("block", "to") if unseen else redacted("to"),
                      block=block, to=answer, rule="5.6")
        f.queue.pop(0)
    f.stage = "done"


STAGES: dict[str, Callable[[GameState, Fight, Any, Decider], None]] = {
    "round_start": _round_start,
    "turns": _turns,
    "round_end": _round_end,
    "forced_retreat": _forced_retreat,
    "end": _end,
    "regroup": _regroup,
}


# --- 5.9 border raids ---------------------------------------------------------------------------------

def border_raid(state: GameState, decider: Decider) -> Log:
    """End of a Game Turn with Scots in England: England removes one non-noble block of its choice
    from the map, to its Draw Pool even with a black cross; none if it has only nobles (5.9).
    The Scots are not told which (the entry is not public)."""
    if not state.blocks_in(ENGLAND, "scotland"):
        return []
    choices = [n for n in state.blocks_of("england") if state.on_map(n) and not spec(n).is_noble]
    if not choices:
        return [entry("border_raid", None, PUBLIC, removed=0, rule="5.9")]
    name = choices[0] if len(choices) == 1 else checked(decider, Question(
        side="england", kind="raid_loss", options=tuple(choices), rule="5.9",
        context={"year": state.year, "turn": state.turn}))
    where = state.blocks[name].location  # Edward disbands too: not killed in battle, so no 6.1
    log = [entry("border_raid", None, PUBLIC, removed=1, rule="5.9"),
           LogEntry("border_raid", "england", PRIVATE, {"block": name, "from": where, "to": POOL, "rule": "5.9"})]
    b = state.blocks[name]
    b.location, b.strength = POOL, 0
    return log
