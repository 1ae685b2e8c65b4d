"""A battle log (docs/battles.md) as text a player reads, one line per event, die by die."""

from __future__ import annotations

from typing import Any


def format_entry(e: dict[str, Any]) -> str:
    """One log entry as one line; unknown entries fall back to their fields."""
    what = e.get("what", "")
    r = f"R{e['round']} " if "round" in e else ""
    if what == "battle":
        return f"Battle in {e['area']}: {e['attacker']} attacks, {e['defender']} defends"
    if what == "reveal":
        blocks = ", ".join(f"{b['block']} ({b['strength']})" for b in e["blocks"])
        return f"{r}{e['side']} reveals {blocks}"
    if what == "celtic":
        return f"{r}Celtic unity: {e['block']} rolls {e['die']} [#{e['index']}] -> {e['result']}"
    if what == "control":
        return f"{r}battlefield control changes: {e['attacker']} now attacks, {e['defender']} defends"
    if what == "fire":
        dice = " ".join(f"{d['value']}{'*' if d['hit'] else ''}[#{d['index']}]" for d in e["dice"])
        return f"{r}{e['block']} ({e['side']}) fires {e['rating']}: {dice} -> {e['hits']} hit(s)"
    if what == "hit":
        chosen = " (owner's choice)" if e.get("tied", 1) > 1 else ""
        return f"{r}hit on {e['block']} -> strength {e['strength']}{chosen}"
    if what == "eliminated":
        now = f", now {e['now']}" if e.get("now") else ""
        return f"{r}{e['block']} ({e['side']}) eliminated -> {e['to']}{now}"
    if what == "retreat":
        how = "must retreat" if e.get("forced") else "retreats"
        return f"{r}{e['block']} ({e['side']}) {how} to {e['to']}"
    if what == "no_retreat":
        why = ": left behind, the border limits are full" if e.get("border_limit") else ""
        return f"{r}{e['block']} ({e['side']}) cannot retreat{why}"
    if what == "pass":
        return f"{r}{e['block']} ({e['side']}) passes"
    if what == "regroup":
        return f"{e['block']} ({e['side']}) regroups to {e['to']}"
    if what == "battle_end":
        if e.get("game_over"):
            return "the game is over: the battle stops"
        hidden = e.get("hidden_reserves") or {}
        tail = "".join(f"; {n} {s} reserve(s) never revealed" for s, n in sorted(hidden.items()))
        return f"battle ends after round {e.get('rounds')}: {e['winner'] or 'nobody'} holds {e['area']}{tail}"
    fields = " ".join(f"{k}={v}" for k, v in sorted(e.items()) if k not in ("what", "public"))
    return f"{what}: {fields}"


def format_log(log: list[dict[str, Any]]) -> str:
    """The whole log, one line per entry."""
    return "".join(format_entry(e) + "\n" for e in log)
