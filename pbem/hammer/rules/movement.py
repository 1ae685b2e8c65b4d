"""The Move Phase (4.0-4.7, 5.32, 5.33): validate and execute one side's moves; list legal moves.

One set of checks serves both the validator (``apply_moves``) and the generator
(``legal_steps``), so the two can never disagree: a property test holds them to it.
Moves are made in the order listed and each one sees the earlier ones (4.5: control changes at
once; border counts and moved blocks accumulate). ``apply_moves`` is atomic: it works on a copy
and touches the state only when the whole order is legal.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import fields
from functools import cache
from typing import Any, NamedTuple

from pbem.hammer.rules.blocks import other_side, spec
from pbem.hammer.rules.board import ENGLAND, board, border_key
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import PRIVATE_UNMARKED, PUBLIC, LogEntry
from pbem.hammer.rules.orders import NORSE, SEA, GroupMove, MainAttack, MoveOrder, MovePart
from pbem.hammer.rules.state import PLACES, Battle, BlockState, GameState

Log = list[LogEntry]


class Step(NamedTuple):
    """One legal unit of movement: one block from its area along a path (or the Norse by sea).

    A named tuple, not a dataclass: the generator makes tens of thousands a game."""

    origin: str
    block: str
    path: tuple[str, ...]
    sea: bool = False

    @property
    def destination(self) -> str:
        return self.path[-1]

    def group_move(self) -> GroupMove:
        if self.sea:
            return GroupMove(origin=self.origin, sea_to=self.path[0], sea_blocks=(self.block,))
        return GroupMove(origin=self.origin, parts=(MovePart(blocks=(self.block,), path=self.path),))

    def order(self) -> MoveOrder:
        """This step alone as a whole Move Phase order."""
        return MoveOrder(moves=(self.group_move(),))

    def to_dict(self) -> dict[str, Any]:
        return self.group_move().to_dict()


# --- small rule helpers -----------------------------------------------------------------------

def move_points(state: GameState, side: str) -> int:
    """Group moves the side's card allows this turn (3.11); an Event gives none (3.12)."""
    played = state.current.cards.get(side, "")
    return card(played).value if played else 0


def crosses_anglo_scottish(origin: str, path: tuple[str, ...]) -> bool:
    """Whether a path crosses the Anglo-Scottish border, one move point per block (4.4, 5.9)."""
    areas = (origin, *path)
    return any(ENGLAND in (a, b) for a, b in zip(areas, areas[1:]))


def truce_bars(state: GameState, side: str, dest: str) -> bool:
    """A Truce, whoever played it, keeps the Scots out of England: by land or by Sea Move (5.9, 3.12)."""
    return dest == ENGLAND and side == "scotland" and bool(state.current.truce)


def group_cost(crossers: int) -> int:
    """A group move costs one point, or one per block crossing the Anglo-Scottish border (4.4)."""
    return max(1, crossers)


def turn_error(state: GameState, side: str) -> IllegalOrder | None:
    """Player 1 moves first, then Player 2, each once per Game Turn (4.1)."""
    if side in state.current.moves_done:
        return IllegalOrder(f"moves from {side}: {side} has already made its Move Phase this Game Turn (4.1)",
                            rule="4.1")
    p1 = state.current.player1 or "england"
    if side != p1 and p1 not in state.current.moves_done:
        played = state.current.cards.get(p1, "")
        if not (played and card(played).is_event):
            return IllegalOrder(f"moves from {side}: Player 1 ({p1}) moves first (4.1)", rule="4.1")
    return None


def _illegal(message: str, rule: str) -> IllegalOrder:
    return IllegalOrder(f"{message} ({rule})", rule=rule)


def _route(origin: str, path: tuple[str, ...]) -> str:
    return "→".join((origin, *path))


# --- the phase in progress --------------------------------------------------------------------

class _Phase:
    """A side's Move Phase being made on a working copy of the state."""

    def __init__(self, state: GameState, side: str, pins: dict[str, tuple[str, ...]]) -> None:
        self.state = state
        self.side = side
        self.enemy = other_side(side)
        self._border = board().border
        self.budget = move_points(state, side)
        self.used = 0
        self.log: Log = []
        # Areas contested at the start of the phase: own blocks there, attackers, closed borders (4.6).
        self.defenders: dict[str, list[str]] = {}
        self.attackers: dict[str, int] = {}
        self.closed: dict[str, set[str]] = {}
        by_area: dict[str, tuple[list[str], list[str]]] = {}
        for name in sorted(state.blocks):
            b = state.blocks[name]
            if b.location not in PLACES:
                by_area.setdefault(b.location, ([], []))[b.owner != side].append(name)
        # Only ``side``'s blocks move in its Move Phase: the areas holding enemy blocks stay these.
        self.enemy_areas = frozenset(a for a, (_, enemy) in by_area.items() if enemy)
        for area in sorted(by_area):
            own, enemy = by_area[area]
            if own and enemy:
                self.defenders[area] = own
                self.attackers[area] = len(enemy)
                battle = state.current.battles.get(area)
                self.closed[area] = set(battle.entered.get(self.enemy, [])) if battle else set()
        self.left: dict[str, int] = {}
        self.groups: dict[str, int] = {}  # land Group moves made: origin -> its border crossers (4.2, 4.4)
        self.pins = dict(pins)
        self.pinned = {b for names in pins.values() for b in names}
        # Blocks that entered an enemy-occupied area this phase: area -> [(block, origin, via)].
        self.arrivals: dict[str, list[tuple[str, str, str]]] = {}
        self._check_pins()

    # --- checks (never mutate) ---------------------------------------------------------------
    def _check_pins(self) -> None:
        for area, names in sorted(self.pins.items()):
            if area not in self.defenders:
                raise _illegal(f"pins {area}: no blocks of yours stand attacked there", "4.6")
            for name in names:
                if name not in self.defenders[area]:
                    raise _illegal(f"pins {area}: {name} is not one of your blocks there", "4.6")
            need = min(self.attackers[area], len(self.defenders[area]))
            if len(names) != need:
                raise _illegal(f"pins {area}: {self.attackers[area]} attacking blocks pin exactly {need} "
                               f"of yours, not {len(names)}", "4.6")

    def block_error(self, block: str, origin: str, sea: bool) -> IllegalOrder | None:
        b = self.state.blocks.get(block)
        if b is None or b.owner != self.side or b.location in PLACES:
            return _illegal(f"{block}: not one of your blocks on the map", "4.2")
        if b.location != origin:
            return _illegal(f"{block}: it stands in {b.location}, not {origin}", "4.2")
        if block in self.state.current.moved:
            return _illegal(f"{block}: it has already moved this Game Turn", "4.0")
        is_norse = spec(block).type == "norse"
        if is_norse and not sea:
            return _illegal(f"{block}: the Norse move only by sea, declared with sea_to", "4.7")
        if sea and not is_norse:
            return _illegal(f"{block}: only the Norse move by sea", "4.7")
        if origin in self.defenders:
            if block in self.pinned:
                return _illegal(f"{block}: it is pinned in {origin}", "4.6")
            if origin not in self.pins:
                free = len(self.defenders[origin]) - self.attackers[origin]
                if self.left.get(origin, 0) + 1 > free:
                    return _illegal(f"{block}: {self.attackers[origin]} attacking blocks pin as many of your "
                                    f"{len(self.defenders[origin])} in {origin}; only {max(0, free)} may leave",
                                    "4.6")
        return None

    def step_error(self, block: str, origin: str, cur: str, nxt: str, first: bool) -> IllegalOrder | None:
        """Whether ``block`` may cross from ``cur`` into ``nxt`` now (stops and reach apart)."""
        border = self._border(cur, nxt)
        if border is None:
            return _illegal(f"{cur}→{nxt}: no border between these areas", "1.1")
        if first and border.key in self.closed.get(origin, ()):
            return _illegal(f"{cur}→{nxt}: {block} may not leave the battle across a border the enemy "
                            f"used to enter it", "4.6")
        crossings = self.state.current.crossings  # none yet: no limit reached (every limit is at least 1)
        if crossings and crossings.get(f"{self.side}|{border.key}", 0) >= border.limit:
            return _illegal(f"{cur}→{nxt}: {border.limit} of your blocks have already crossed the "
                            f"{border.kind} border {border.key} this Move Phase", "4.3")
        truce = self.state.current.truce
        if not truce:
            return None
        if truce_bars(self.state, self.side, nxt):
            return _illegal(f"{cur}→{nxt}: the Scots may not enter England during a Truce", "5.9")
        if truce != self.side and nxt in self.enemy_areas:
            return _illegal(f"{cur}→{nxt}: {nxt} holds enemy blocks and the Truce forbids attacking", "3.12")
        return None

    def stop_reason(self, cur: str, nxt: str) -> tuple[str, str] | None:
        """Why a block entering ``nxt`` from ``cur`` must stop there, with the rule, or None."""
        if nxt in self.enemy_areas:
            return "it entered an area holding enemy blocks", "4.0"
        if nxt == ENGLAND:
            return "it entered England", "4.4"
        border = self._border(cur, nxt)
        if border is not None and border.kind == "red":
            return "it crossed a red border", "4.3"
        return None

    def path_error(self, block: str, origin: str, path: tuple[str, ...]) -> IllegalOrder | None:
        err = self.block_error(block, origin, sea=False)
        if err:
            return err
        rating = spec(block).move
        if len(path) > rating:
            return _illegal(f"{block} {_route(origin, path)}: {len(path)} areas is beyond its Move Rating "
                            f"of {rating}", "2.13")
        cur, seen, stop = origin, {origin}, None
        for i, nxt in enumerate(path):
            if stop is not None:
                return _illegal(f"{block} {_route(origin, path)}: it must stop in {cur}: {stop[0]}", stop[1])
            if nxt in seen:
                return _illegal(f"{block} {_route(origin, path)}: a move enters no area twice", "4.0")
            err = self.step_error(block, origin, cur, nxt, first=i == 0)
            if err:
                return err
            stop = self.stop_reason(cur, nxt)
            seen.add(nxt)
            cur = nxt
        return None

    def sea_error(self, block: str, origin: str, dest: str) -> IllegalOrder | None:
        err = self.block_error(block, origin, sea=True)
        if err:
            return err
        areas = board().areas
        route = f"{block} {origin}→{dest} by sea"
        if dest == ENGLAND:
            return _illegal(f"{route}: the Norse can never enter England", "4.7")
        if not areas[origin].coastal or not areas[dest].coastal:
            return _illegal(f"{route}: a sea move goes from a coastal area to a coastal area", "4.7")
        if dest == origin:
            return _illegal(f"{route}: a sea move goes to another coastal area", "4.7")
        truce = self.state.current.truce
        if truce and truce != self.side and dest in self.enemy_areas:
            return _illegal(f"{route}: {dest} holds enemy blocks and the Truce forbids attacking", "3.12")
        return None

    # --- doing ----------------------------------------------------------------------------------
    def _move(self, block: str, origin: str, path: tuple[str, ...], sea: bool) -> None:
        """Move one block (already checked): location, moved, crossings, battles."""
        st = self.state
        dest = path[-1]
        if not sea:
            areas = (origin, *path)
            for a, b in zip(areas, areas[1:]):
                key = f"{self.side}|{border_key(a, b)}"
                st.current.crossings[key] = st.current.crossings.get(key, 0) + 1
        if origin in self.defenders:
            self.left[origin] = self.left.get(origin, 0) + 1
        attacking = dest in self.enemy_areas
        was = st.blocks[block]  # a new record: the working copy shares the others with the state (``_working_copy``)
        st.blocks[block] = BlockState(was.owner, dest, was.strength)
        st.current.moved.append(block)
        if attacking:
            via = SEA if sea else (path[-2] if len(path) > 1 else origin)
            self.arrivals.setdefault(dest, []).append((block, origin, via))
            battle = st.current.battles.get(dest)
            if battle is None:  # the first side to attack an area is its attacker (5.3)
                battle = st.current.battles[dest] = Battle(area=dest, attacker=self.side)
            if not sea:
                entered = set(battle.entered.get(self.side, [])) | {border_key(via, dest)}
                battle.entered[self.side] = sorted(entered)

    def _snapshot(self, blocks: tuple[str, ...]) -> tuple[Any, ...]:
        """What making ``blocks``' moves changes (only they move: their records, never changed in place),
        to be restored if one is refused."""
        st = self.state
        return ({n: st.blocks[n] for n in blocks if n in st.blocks}, list(st.current.moved),
                dict(st.current.crossings), dict(self.left),
                {a: list(v) for a, v in self.arrivals.items()},
                {a: b.copy() for a, b in st.current.battles.items()})

    def _restore(self, snap: tuple[Any, ...]) -> None:
        records, moved, crossings, left, arrivals, battles = snap
        st = self.state
        st.blocks.update(records)
        st.current.moved, st.current.crossings = moved, crossings
        self.left, self.arrivals = left, arrivals
        st.current.battles = battles

    def _apply_part(self, origin: str, blocks: tuple[str, ...], path: tuple[str, ...]) -> None:
        for block in blocks:
            err = self.path_error(block, origin, path)
            if err:
                raise err
            self._move(block, origin, path, sea=False)

    def _resolve_to(self, origin: str, part: MovePart) -> tuple[str, ...]:
        """The shorthand ``to``: the first path (shortest, then alphabetical) legal for every block."""
        reach = max(spec(b).move for b in part.blocks)
        candidates = _paths_to(origin, reach).get(part.to, ())
        first: IllegalOrder | None = None
        truce: IllegalOrder | None = None  # a path only the Truce closes: the Truce is the reason given (3.12)
        for path in candidates:
            snap = self._snapshot(part.blocks)
            try:
                self._apply_part(origin, part.blocks, path)
                return path
            except IllegalOrder as exc:
                first = first or exc
                if truce is None and "Truce" in str(exc):
                    truce = exc
                self._restore(snap)
        names = ", ".join(part.blocks)
        if first is None:
            raise _illegal(f"{names} {origin}→{part.to}: out of reach", "2.13")
        if truce is not None:
            raise IllegalOrder(f"{names} {origin}→{part.to}: no legal path; by the path the Truce closes, {truce}",
                               rule=truce.rule)
        raise IllegalOrder(f"{names} {origin}→{part.to}: no legal path; by the shortest, {first}", rule=first.rule)

    def apply_group(self, gm: GroupMove, number: int) -> None:
        """Check and make one group move (4.2), charging its move points (4.2, 4.4)."""
        moved_paths: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        if gm.is_sea:
            for block in gm.sea_blocks:
                err = self.sea_error(block, gm.origin, gm.sea_to)
                if err:
                    raise err
                self._move(block, gm.origin, (gm.sea_to,), sea=True)
            moved_paths.append((gm.sea_blocks, (gm.sea_to,)))
            crossers = 0
        else:
            crossers = 0
            for part in gm.parts:
                path = part.path
                if path:
                    self._apply_part(gm.origin, part.blocks, path)
                else:
                    path = self._resolve_to(gm.origin, part)
                moved_paths.append((part.blocks, path))
                if crosses_anglo_scottish(gm.origin, path):
                    crossers += len(part.blocks)
        cost = group_cost(crossers)
        if not gm.is_sea:  # entries from one origin are one Group move, split (4.2): charged once
            cost = self.land_cost(gm.origin, crossers)
            self.groups[gm.origin] = self.groups.get(gm.origin, 0) + crossers
        left = self.budget - self.used
        if cost > left:
            why = (f"{crossers} blocks crossing the Anglo-Scottish border cost one move point each"
                   if crossers > 1 else "a group move costs one move point")
            raise _illegal(f"move {number} from {gm.origin}: {why}, and {left} of the card's {self.budget} "
                           f"are left", "4.4" if crossers > 1 else "4.2")
        self.used += cost
        # The mover's own line (no "public" key), then the one everyone sees: how many went where.
        self.log.append(LogEntry("moves", self.side, PRIVATE_UNMARKED, {
            "from": gm.origin, "points": cost, "sea": gm.is_sea,
            "parts": [{"blocks": list(b), "path": list(p)} for b, p in moved_paths]}))
        counts: dict[str, int] = {}
        for b, p in moved_paths:
            counts[p[-1]] = counts.get(p[-1], 0) + len(b)
        self.log.append(LogEntry("moves", self.side, PUBLIC, {"from": gm.origin, "to": dict(sorted(counts.items())),
                                                             "sea": gm.is_sea}))

    def land_cost(self, origin: str, crossers: int) -> int:
        """What a land move from ``origin`` with ``crossers`` border crossers would cost now."""
        before = self.groups.get(origin)
        if before is None:
            return group_cost(crossers)
        return group_cost(before + crossers) - group_cost(before)

    def finish(self, main_attack: dict[str, MainAttack]) -> None:
        """Main attacks and reserves (5.32), reinforcements (5.33), once every move is made."""
        st = self.state
        attacked = {a for a in self.arrivals if st.current.battles[a].attacker == self.side}
        for area in sorted(main_attack):
            if area not in attacked:
                raise _illegal(f"main_attack {area}: you make no attack there this Move Phase", "5.32")
        for area in sorted(self.arrivals):
            battle = st.current.battles[area]
            arrived = self.arrivals[area]
            if battle.attacker != self.side:  # Player 2 reinforcing a battle it defends (5.33)
                battle.defender_reserves = sorted(set(battle.defender_reserves) | {b for b, _, _ in arrived})
                continue
            groups: dict[tuple[str, str], list[str]] = {}
            for block, origin, via in arrived:
                groups.setdefault((origin, via), []).append(block)
            declared = main_attack.get(area)
            if declared is not None:
                key = (declared.origin, declared.via)
                if key not in groups:
                    raise _illegal(f"main_attack {area} = from {declared.origin} via {declared.via}: no group of "
                                   f"yours started in {declared.origin} and entered {area} from {declared.via}",
                                   "5.32")
            elif len(groups) > 1:
                named = "; ".join(f"from {o} via {v}" for o, v in sorted(groups))
                raise _illegal(f"{area}: attacked by {len(groups)} groups ({named}); name the Main Attack in "
                               f"main_attack", "5.32")
            else:
                key = next(iter(groups))
            if battle.main and battle.main_origin:  # declared earlier (cannot happen in one phase)
                continue
            battle.main = sorted(groups[key])
            battle.main_origin = key[0]
            battle.main_border = SEA if key[1] == SEA else border_key(key[1], area)
            battle.attacker_reserves = sorted(b for k, names in groups.items() if k != key for b in names)


@cache
def _paths_to(origin: str, reach: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """``_simple_paths`` by the area each ends in, shortest first, then alphabetical: the map's
    alone (it never changes), so worked out once per origin and reach."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for path in _simple_paths(origin, reach):
        out.setdefault(path[-1], []).append(path)
    return {dest: tuple(sorted(paths, key=lambda p: (len(p), p))) for dest, paths in out.items()}


def _simple_paths(origin: str, reach: int) -> Iterator[tuple[str, ...]]:
    """Every path along borders of at most ``reach`` areas entering no area twice."""
    def walk(cur: str, path: tuple[str, ...], seen: frozenset[str]) -> Iterator[tuple[str, ...]]:
        if len(path) >= reach:
            return
        for nxt in board().neighbours(cur):
            if nxt not in seen:
                yield path + (nxt,)
                yield from walk(nxt, path + (nxt,), seen | {nxt})
    yield from walk(origin, (), frozenset({origin}))


# --- public entry points ----------------------------------------------------------------------

def scratch_copy(state: GameState) -> GameState:
    """A copy deep in what a Move Phase changes (blocks, the current turn), sharing the rest.

    Much cheaper than ``GameState.copy``: for trying moves on a copy kept apart from ``state``
    (``apply_moves`` changes the records of the state it is given).
    """
    out = copy.copy(state)
    out.blocks = {n: BlockState(b.owner, b.location, b.strength) for n, b in state.blocks.items()}
    out.current = state.current.copy()
    return out


def _working_copy(state: GameState) -> GameState:
    """The copy a Move Phase is made on: its own current turn and blocks table, whose records it
    shares with ``state`` until a block moves (``_Phase._move`` gives a moved block a new record)."""
    out = copy.copy(state)
    out.blocks = dict(state.blocks)
    out.current = state.current.copy()
    return out


def apply_moves(state: GameState, side: str, order: MoveOrder) -> Log:
    """Check ``side``'s whole Move Phase order and make it, or raise and change nothing.

    On success the blocks stand in their new areas, ``current.moved``, ``crossings`` and
    ``battles`` are updated, and ``side`` is in ``current.moves_done``. Returns the log.
    """
    work, phase = _made(state, side, order)
    for name, b in work.blocks.items():
        if b is not state.blocks[name]:  # it moved: a new record on the working copy
            state.blocks[name].location = b.location
    for f in fields(work.current):
        setattr(state.current, f.name, getattr(work.current, f.name))
    return phase.log


def check_moves(state: GameState, side: str, order: MoveOrder) -> GameState:
    """Raise ``IllegalOrder`` exactly when ``apply_moves`` would; never change ``state``. Returns
    the board after the moves, on a copy only to be read (its battles, who stands where)."""
    return _made(state, side, order)[0]


def _made(state: GameState, side: str, order: MoveOrder) -> tuple[GameState, _Phase]:
    """The whole order made on a scratch copy (raising at the first illegal move)."""
    err = turn_error(state, side)
    if err:
        raise err
    work = _working_copy(state)
    phase = _Phase(work, side, order.pins)
    for number, gm in enumerate(order.moves, start=1):
        phase.apply_group(gm, number)
    phase.finish(order.main_attack)
    if side not in work.current.moves_done:
        work.current.moves_done.append(side)
    return work, phase


def legal_steps(state: GameState, side: str, done: MoveOrder | None = None) -> list[Step]:
    """Every legal single-block move for ``side`` now, in canonical order: as a new group move, or
    as more of a group that already moved from its origin (one Group move, split, 4.2).

    ``done`` is the part of the Move Phase already decided (its moves are made first, its pins
    apply). Sorted by origin, block, path length, path. Empty when the side may not move now
    or has no move point left. Main Attack declarations (5.32) are not part of a step.
    """
    options = LegalSteps(state, side, done)
    return [step for origin in options.origins() for step in options.steps(origin)]


class LegalSteps:
    """``legal_steps``, worked out one origin at a time when asked: a player that moves from a
    few areas need not list every path from every other one."""

    def __init__(self, state: GameState, side: str, done: MoveOrder | None = None) -> None:
        self.blocks_at: dict[str, list[str]] = {}  # origin -> the side's blocks there, name order
        self._steps: dict[str, list[Step]] = {}
        self._any: dict[str, bool] = {}
        # A block's legal paths depend only on where it stands and its Move Rating (2.13): every
        # check on the way (borders, limits, stops, Truce) is the same for each block there.
        self._paths: dict[tuple[str, int], list[tuple[str, ...]]] = {}
        self._ends: dict[tuple[str, int], list[str]] = {}  # the same, by where the paths end
        self._checked: dict[tuple[str, str, str], bool | None] = {}
        if turn_error(state, side):
            return
        # The moves already decided are made on a scratch copy; without any, the phase only reads the state.
        work = _working_copy(state) if done is not None and done.moves else state
        self.phase = phase = _Phase(work, side, done.pins if done else {})
        for number, gm in enumerate(done.moves if done else (), start=1):
            phase.apply_group(gm, number)
        self.left = phase.budget - phase.used
        if self.left < 1 and not phase.groups:
            return
        for block in work.blocks_of(side):
            origin = work.blocks[block].location
            if origin not in PLACES:
                self.blocks_at.setdefault(origin, []).append(block)

    def origins(self) -> list[str]:
        """Areas with at least one legal step, in name order."""
        return [o for o in sorted(self.blocks_at) if self.any_step(o)]

    def any_step(self, origin: str) -> bool:
        found = self._any.get(origin)
        if found is None:
            found = self._any[origin] = (bool(self._steps[origin]) if origin in self._steps else
                                         any(True for block in self.blocks_at.get(origin, ())
                                             for _ in self._block_steps(block, origin, first_only=True)))
        return found

    def steps(self, origin: str) -> list[Step]:
        """The legal steps from ``origin``, by block, path length, path."""
        found = self._steps.get(origin)
        if found is None:
            out = [step for block in self.blocks_at.get(origin, ()) for step in self._block_steps(block, origin)]
            found = self._steps[origin] = sorted(out, key=lambda s: (s.block, len(s.path), s.path))
        return found

    def paths(self, block: str, origin: str) -> list[tuple[str, ...]]:
        """The paths of ``block``'s legal steps from ``origin`` (a sea move's is its destination)."""
        return [path for path, _ in self._block_paths(block, origin)]

    def destinations(self, block: str, origin: str) -> list[str]:
        """The areas ``block``'s legal steps from ``origin`` end in, sorted: the last areas of
        ``paths``, worked out once per (origin, Move Rating) like the paths themselves."""
        if block == NORSE or spec(block).type == "norse" or self.phase.block_error(block, origin, sea=False):
            return sorted({path[-1] for path in self.paths(block, origin)})
        key = (origin, spec(block).move)
        found = self._ends.get(key)
        if found is None:
            paths = self._paths.get(key)
            found = self._ends[key] = sorted({path[-1] for path in paths} if paths is not None else
                                             _reach(self.phase, block, origin, self._checked, self._affordable(origin)))
        return list(found)

    def _affordable(self, origin: str) -> list[bool]:
        """Whether a land move from ``origin`` is affordable now, by its border crossers (0 or 1, 4.4)."""
        return [self.phase.land_cost(origin, crossed) <= self.left for crossed in (0, 1)]

    def _block_steps(self, block: str, origin: str, first_only: bool = False) -> Iterator[Step]:
        return (Step(origin, block, path, sea) for path, sea in self._block_paths(block, origin, first_only))

    def _block_paths(self, block: str, origin: str,
                     first_only: bool = False) -> Iterator[tuple[tuple[str, ...], bool]]:
        """(path, by sea) of each legal step of ``block`` from ``origin``; ``first_only``: stop
        looking once one is found (the walk's paths are then not kept)."""
        phase, left = self.phase, self.left
        if block == NORSE or spec(block).type == "norse":
            if left >= 1:
                yield from (((dest,), True) for dest in board().coastal_areas()
                            if phase.sea_error(block, origin, dest) is None)
            return
        if phase.block_error(block, origin, sea=False) is not None:
            return
        key = (origin, spec(block).move)
        paths = self._paths.get(key)
        if paths is None:
            affordable = self._affordable(origin)
            walk = (path for path, crossed in _walk(phase, block, origin, self._checked) if affordable[crossed])
            if first_only:
                yield from ((path, False) for path in walk)
                return
            paths = self._paths[key] = list(walk)
        yield from ((path, False) for path in paths)


def _open(phase: _Phase, block: str, origin: str, cur: str, nxt: str,
          checked: dict[tuple[str, str, str], bool | None]) -> bool | None:
    """Whether a path of ``block`` from ``origin`` may cross from ``cur`` into ``nxt`` (None: it may
    not) and go on after it (True) or must stop there (False): ``step_error`` and ``stop_reason``,
    remembered in ``checked`` for the phase as it stands (they never depend on the block)."""
    key = (cur, nxt, origin if cur == origin else "")  # the first step from the origin (4.6): a path never re-enters it
    if key in checked:
        return checked[key]
    if phase.step_error(block, origin, cur, nxt, first=cur == origin) is not None:
        checked[key] = None  # refused
        return None
    go_on = checked[key] = phase.stop_reason(cur, nxt) is None
    return go_on


def _walk(phase: _Phase, block: str, origin: str,
          checked: dict[tuple[str, str, str], bool | None]) -> Iterator[tuple[tuple[str, ...], int]]:
    """Legal paths of one block, each with 1 if it crosses the Anglo-Scottish border (4.4) else 0,
    extending only paths that need not stop (the same checks as ``path_error``, through ``_open``)."""
    rating = spec(block).move
    if rating < 1:
        return
    neighbours = board().neighbours
    # Depth first, each path before its extensions, with a stack of the areas' neighbour iterators
    # (the order of nested generators, without passing every path up through each of them).
    start: tuple[str, ...] = ()
    stack = [(origin, start, frozenset({origin}), 0, iter(neighbours(origin)))]
    while stack:
        cur, path, seen, crossed, todo = stack[-1]
        for nxt in todo:
            if nxt in seen:
                continue
            go_on = _open(phase, block, origin, cur, nxt, checked)
            if go_on is None:
                continue
            longer = path + (nxt,)
            now = crossed or int(ENGLAND in (cur, nxt))
            yield longer, now
            if go_on and len(longer) < rating:
                stack.append((nxt, longer, seen | {nxt}, now, iter(neighbours(nxt))))
                break
        else:
            stack.pop()


def _reach(phase: _Phase, block: str, origin: str, checked: dict[tuple[str, str, str], bool | None],
           affordable: list[bool]) -> set[str]:
    """The areas ``_walk``'s affordable paths end in, found breadth first without listing the paths.

    The same set: whether a crossing is open and whether a path may go on after it depend only
    on the crossing (and, leaving the origin, on the origin), so the shortest way to an area is a
    path the walk lists, and an area a path may go on from is best reached as early as it can be.
    A path crosses the Anglo-Scottish border (4.4) when it starts or ends in England: entering
    England stops a block, so no path goes through it.
    """
    rating = spec(block).move
    neighbours = board().neighbours
    ends: set[str] = set()
    onward = {origin}  # areas a path goes on from, each from the first layer that reaches it so
    layer = [origin]
    for depth in range(1, rating + 1):
        following = []
        for cur in layer:
            for nxt in neighbours(cur):
                if nxt == origin:
                    continue
                go_on = _open(phase, block, origin, cur, nxt, checked)
                if go_on is None:
                    continue
                if affordable[nxt == ENGLAND or origin == ENGLAND]:
                    ends.add(nxt)
                if go_on and depth < rating and nxt not in onward:
                    onward.add(nxt)
                    following.append(nxt)
        layer = following
    return ends


def legal_group_moves(state: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    """``{origin: {block: [areas it may reach]}}`` for ``side`` now, for templates and bots: the
    destinations of ``legal_steps``, without making a step of each path."""
    legal = LegalSteps(state, side)
    out: dict[str, dict[str, list[str]]] = {}
    for origin in sorted(legal.blocks_at):  # the origins with a legal step: those some block leaves
        reach = {block: legal.destinations(block, origin) for block in legal.blocks_at[origin]}
        moves = {b: d for b, d in reach.items() if d}
        if moves:
            out[origin] = moves
    return out
