"""A battle log (docs/battles.md) as text a player reads, one line per event, die by die."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.hammer.rules.log import LogEntry, Plain, as_entry


def _side(e: LogEntry) -> str:
    """The side a battle line names (a line without one is not a battle line: KeyError, as for any missing field)."""
    if e.actor is None:
        raise KeyError("side")
    return e.actor


def format_entry(line: LogEntry | Mapping[str, Plain]) -> str:
    """One log entry (the record, or its data form as a report carries it) as one line; unknown
    entries fall back to their fields."""
    e = as_entry(line)
    x: Mapping[str, Any] = e.facts
    what = e.what
    r = f"R{x['round']} " if "round" in x else ""
    if what == "battle":
        return f"Battle in {x['area']}: {x['attacker']} attacks, {x['defender']} defends"
    if what == "reveal":
        blocks = ", ".join(f"{b['block']} ({b['strength']})" for b in x["blocks"])
        return f"{r}{_side(e)} reveals {blocks}"
    if what == "celtic":
        return f"{r}Celtic unity: {x['block']} rolls {x['die']} [#{x['index']}] -> {x['result']}"
    if what == "control":
        return f"{r}battlefield control changes: {x['attacker']} now attacks, {x['defender']} defends"
    if what == "fire":
        dice = " ".join(f"{d['value']}{'*' if d['hit'] else ''}[#{d['index']}]" for d in x["dice"])
        return f"{r}{x['block']} ({_side(e)}) fires {x['rating']}: {dice} -> {x['hits']} hit(s)"
    if what == "hit":
        chosen = " (owner's choice)" if x.get("tied", 1) > 1 else ""
        return f"{r}hit on {x['block']} -> strength {x['strength']}{chosen}"
    if what == "eliminated":
        now = f", now {x['now']}" if x.get("now") else ""
        return f"{r}{x['block']} ({_side(e)}) eliminated -> {x['to']}{now}"
    if what == "retreat":
        how = "must retreat" if x.get("forced") else "retreats"
        return f"{r}{x['block']} ({_side(e)}) {how} to {x['to']}"
    if what == "no_retreat":
        why = ": left behind, the border limits are full" if x.get("border_limit") else ""
        return f"{r}{x['block']} ({_side(e)}) cannot retreat{why}"
    if what == "pass":
        return f"{r}{x['block']} ({_side(e)}) passes"
    if what == "regroup":
        return f"{x['block']} ({_side(e)}) regroups to {x['to']}"
    if what == "battle_end":
        if x.get("game_over"):
            return "the game is over: the battle stops"
        hidden = x.get("hidden_reserves") or {}
        tail = "".join(f"; {n} {s} reserve(s) never revealed" for s, n in sorted(hidden.items()))
        return f"battle ends after round {x.get('rounds')}: {x['winner'] or 'nobody'} holds {x['area']}{tail}"
    fields = " ".join(f"{k}={v}" for k, v in sorted(e.to_data().items()) if k not in ("what", "public"))
    return f"{what}: {fields}"


def format_log(log: Iterable[LogEntry | Mapping[str, Plain]]) -> str:
    """The whole log, one line per entry."""
    return "".join(format_entry(e) + "\n" for e in log)
