"""What one side may know (2.0 fog of war, 3.0 cards, 5.x battles), and what everybody may know.

A view is plain canonical data (sorted lists, string keys, no floats): the report a side gets
is a function of its view only, so proving the view hides a fact proves the report hides it.
The rule for log entries is written once here (``entry_for``) and documented in
docs/reports.md ("Who sees a log entry").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.hammer.rules.blocks import SIDES, other_side, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.log import LogEntry, Seen, as_entry
from pbem.hammer.rules.plaindata import plain
from pbem.hammer.rules.state import DEAD, OFF_MAP, PLACES, POOL, GameState

Entry = dict[str, Any]
BOTH = "both"

# Private entries the enemy still learns something of: {(what, step): fields it may see}.
# A Scottish winter draw puts a face-down block on the map: the English see where, not which (7.62).
_ENEMY_SUMMARY: dict[tuple[str, str], tuple[str, ...]] = {
    ("winter", "7.62"): ("what", "step", "side", "area", "rule"),
}


# --- log entries --------------------------------------------------------------------------------

def entry_for(line: LogEntry | Entry, side: str) -> Entry | None:
    """The data form of the part of one log line ``side`` may see, or None (docs/reports.md).

    The line's ``visibility`` alone rules (pbem.hammer.rules.log), never its actor:

    1. LISTED: the sides listed (or "both") see it whole.
    2. PUBLIC: everyone sees it whole.
    3. REDACTED: its actor sees it whole, another side without the hidden fields (retreat and
       regroup destinations, 5.5, 5.6).
    4. ACTOR: only its actor sees it; another side sees the summary listed in ``_ENEMY_SUMMARY``,
       if any. REFEREE (no actor, not public): nobody (fail closed).
    """
    e = as_entry(line)
    v = e.visibility
    if v.seen is Seen.LISTED:
        return e.to_data() if BOTH in v.sides or side in v.sides else None
    if v.seen is Seen.PUBLIC:
        return e.to_data()
    if v.seen is Seen.REFEREE or not e.actor:
        return None
    if e.actor == side:
        return e.to_data()
    if v.seen is Seen.REDACTED and v.hidden:
        hidden = set(v.hidden)
        out: Entry = {k: val for k, val in e.to_data().items() if k not in hidden}
        out["redacted"] = sorted(hidden)
        return out
    keep = _ENEMY_SUMMARY.get((e.what, str(e.facts.get("step", ""))))
    if keep is None:
        return None
    data = e.to_data()
    out = {k: data[k] for k in (*keep, "stream") if k in data}  # every line names its stream (docs/draws.md)
    out["hidden"] = True
    return out


def filter_log(log: Iterable[LogEntry | Entry], side: str) -> list[Entry]:
    """The lines of ``log`` as ``side`` saw them, in order, in their data form."""
    out = []
    for e in log:
        seen = entry_for(e, side)
        if seen is not None:
            out.append(seen)
    return out


def public_log(log: Iterable[LogEntry | Entry]) -> list[Entry]:
    """What both sides may see of ``log``: each line as the side that did not make it sees it."""
    out: list[Entry] = []
    for line in log:
        e = as_entry(line)
        outsider = other_side(e.actor) if e.actor and e.actor in SIDES else ""
        seen = [entry_for(e, s) for s in SIDES] if not outsider else [entry_for(e, outsider)]
        first = seen[0]
        if first is not None and all(x is not None for x in seen):
            out.append(first)
    return out


# --- the board ----------------------------------------------------------------------------------

class _Places:
    """Where every block stands, from one pass over the blocks in name order: what the board's facts
    read (the counts, control of each area, pools, the dead, the nobles), instead of a pass over
    every block per area and per question."""

    def __init__(self, state: GameState) -> None:
        self.at: dict[str, dict[str, list[str]]] = {}  # place or area -> owner -> block names, name order
        self.nobles: dict[str, list[str]] = {s: [] for s in SIDES}  # nobles on the map by owner (9.0)
        blocks = state.blocks
        for name in sorted(blocks):
            b = blocks[name]
            here = self.at.get(b.location)
            if here is None:
                here = self.at[b.location] = {}
            names = here.get(b.owner)
            if names is None:
                here[b.owner] = [name]
            else:
                names.append(name)
            if b.location not in PLACES and spec(name).is_noble:
                self.nobles.setdefault(b.owner, []).append(name)
        self._counts: dict[str, dict[str, int]] = {}  # blocks per side in each map area that holds any
        for area in sorted(self.at):
            if area not in PLACES:
                count = self._counts[area] = {s: 0 for s in SIDES}
                for owner, names in self.at[area].items():
                    count[owner] += len(names)
        self._control = {a: self._control_of(a) for a in board().area_names()}

    def _control_of(self, area: str) -> str:
        """``GameState.control`` (4.5) read from the tally."""
        owners = self.at.get(area)
        if not owners:
            return "neutral"
        return "contested" if len(owners) == 2 else next(iter(owners))

    def names(self, place: str, side: str) -> list[str]:
        """``side``'s blocks in ``place``, in name order (a new list)."""
        return list(self.at.get(place, {}).get(side, ()))

    def counts(self) -> dict[str, dict[str, int]]:
        """Blocks per side in each map area that holds any (new dicts)."""
        return {area: dict(count) for area, count in self._counts.items()}

    def control(self) -> dict[str, str]:
        """Who controls each area of the map (4.5), by area name (a new dict)."""
        return dict(self._control)


def _battles(state: GameState, places: _Places) -> list[dict[str, Any]]:
    """Pending battles: who attacks, blocks per side, reserves per side (derivable from moves)."""
    out = []
    for area, b in sorted(state.current.battles.items()):
        out.append({"area": area, "attacker": b.attacker, "defender": other_side(b.attacker),
                    "blocks": {s: len(places.at.get(area, {}).get(s, ())) for s in SIDES},
                    "reserves": {b.attacker: len(b.attacker_reserves),
                                 other_side(b.attacker): len(b.defender_reserves)},
                    # the borders each side crossed into the battle: seen on the board, and they bind
                    # the defender's moves (4.6) and retreats (5.5)
                    "entered": {s: list(b.entered.get(s, [])) for s in SIDES}})
    return out


def _common(state: GameState, places: _Places) -> dict[str, Any]:
    """Facts both sides know: the calendar, the crowns, cards, counts, the dead and the nobles."""
    cur = state.current
    return {
        "scenario": state.scenario, "year": state.year, "turn": state.turn, "phase": state.phase,
        "player1": cur.player1, "edward": state.edward, "king": state.king, "truce": cur.truce,
        "edward_wintered": state.edward_wintered,
        "winner": state.winner, "win_reason": state.win_reason,
        "cards": dict(sorted(cur.cards.items())),
        "played": {s: list(state.played.get(s, [])) for s in SIDES},
        "hand_sizes": {s: len(state.hands.get(s, [])) for s in SIDES},
        "deck_size": len(state.deck),
        "pool_sizes": {s: len(places.at.get(POOL, {}).get(s, ())) for s in SIDES},
        "dead": {s: places.names(DEAD, s) for s in SIDES},
        "off_map": {s: places.names(OFF_MAP, s) for s in SIDES},
        "nobles": {s: len(places.nobles.get(s, ())) for s in SIDES},
        "counts": places.counts(),
        "control": places.control(),
        "battles": _battles(state, places),
    }


def _fight(state: GameState, side: str) -> dict[str, Any]:
    """The battle in progress (a paused battle): round, sides, line and reserves as this side sees."""
    f = state.current.fight
    if f is None:
        return {}
    line, reserves = f.line, f.reserves
    own = sorted(n for n in line if n in state.blocks and state.blocks[n].owner == side)
    own_res = sorted(n for n in reserves if n in state.blocks and state.blocks[n].owner == side)
    enemy = other_side(side)
    return {
        "area": f.area, "round": f.round, "attacker": f.attacker, "defender": f.defender,
        "line": own, "reserves": own_res,
        "enemy_line": sum(1 for n in line if n in state.blocks and state.blocks[n].owner == enemy),
        "enemy_reserves": sum(1 for n in reserves if n in state.blocks and state.blocks[n].owner == enemy),
        "log": filter_log(f.log, side),
    }


def view(state: GameState, side: str, log: Iterable[Entry] = (), asks: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``side`` may know now, and the log entries of the step as it saw them.

    ``asks`` (optional) is what the side owes next with its legal options, as the ruleset
    knows it; it is carried through for the renderers.
    """
    return Board(state).view(side, log, asks)


class Board:
    """One game's board, tallied once (``_Places``): each side's ``view`` and the ``public_board`` of
    the same game read the same tally (a referee builds both sides' reports of a step from one game)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.places = _Places(state)

    def common(self) -> dict[str, Any]:
        """``_common`` of the game, new at each call."""
        return _common(self.state, self.places)

    def view(self, side: str, log: Iterable[Entry] = (), asks: dict[str, Any] | None = None) -> dict[str, Any]:
        """``view`` of this game: plain data (dicts, lists, scalars), new at each call, sharing nothing
        with the game, the log, ``asks`` or another view."""
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}")
        state = self.state
        enemy = other_side(side)
        common = self.common()
        own = []
        for n, b in state.blocks.items():
            if b.owner == side and b.location not in PLACES:
                s = spec(n)
                own.append({"block": n, "area": b.location, "strength": b.strength, "steps": s.steps,
                            "combat": s.combat, "move": s.move})
        own.sort(key=lambda x: (x["area"], x["block"]))
        out: dict[str, Any] = {
            "side": side, "enemy": enemy, **common,
            "blocks": own,
            "enemy_blocks": {a: c[enemy] for a, c in common["counts"].items() if c[enemy]},
            "own_nobles": list(self.places.nobles.get(side, ())),
            "pool": self.places.names(POOL, side),
            "enemy_pool": common["pool_sizes"][enemy],
            "hand": sorted(state.hands.get(side, [])),
            "enemy_hand": common["hand_sizes"][enemy],
            # what the log lines, the battle's included, and ``asks`` hold is copied as plain data
            "fight": plain(_fight(state, side)),
            "log": plain(filter_log(log, side)),
            "asks": plain(dict(asks or {})),
        }
        return out


def public_board(state: GameState, log: Iterable[Entry] = ()) -> dict[str, Any]:
    """The public ledger's board: what both sides (and any observer) may know."""
    return {**Board(state).common(), "log": public_log(log)}


__all__ = ["Board", "entry_for", "filter_log", "public_log", "view", "public_board"]
