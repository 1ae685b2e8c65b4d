"""How the draft bots choose, where more than one order kind needs it: group moves from the listed
reach (card and moves orders), standing battle plans, and cutting moves down until the player's
check accepts them (``bots.keep_legal``). The bots see only their side's report (pbem/hammer/play/bots.py)."""

from __future__ import annotations

from typing import Any

from pbem.core.drbg import Drbg
from pbem.hammer.play.order_kinds.base import Report
from pbem.hammer.rules.board import board

BOTS = ("random", "simple")
NORSE = "Norse"

# Standing battle plans (docs/plans.md) the bots send with their card and moves orders.
SIMPLE_PLANS: dict[str, Any] = {"battle": {"retreat_from_round": 2, "retreat_if_outnumbered": True}}
RANDOM_PLANS: tuple[dict[str, Any], ...] = (
    {},
    {"battle": {"retreat_below_percent": 50}},
    {"battle": {"retreat_from_round": 2, "retreat_if_steps_lost": 2}},
    {"ask": ["regroup"]},
    {"ask": ["retreat"], "battle": {"retreat_from_round": 3}},
)


def bot_plans(bot: str, rng: Drbg) -> dict[str, Any]:
    if bot == "simple":
        return dict(SIMPLE_PLANS)
    return dict(RANDOM_PLANS[rng.randbelow(len(RANDOM_PLANS))])


def choose_moves(legal: dict[str, Any], value: int, bot: str, rng: Drbg, report: Report) -> list[dict[str, Any]]:
    """Up to ``value`` group moves from the legal options ``{origin: {block: [destinations]}}``.

    Each group moves its blocks together to one destination they can all reach, which keeps the
    moves inside the border limits in most cases; the referee still checks everything.
    """
    origins = sorted(o for o, blocks in legal.items() if any(blocks.values()))
    if not origins or value <= 0:
        return []
    if bot == "random":
        picked = rng.shuffled(origins)[:rng.randbelow(min(value, len(origins)) + 1)]
    else:
        picked = sorted(origins, key=lambda o: (-len(legal[o]), o))[:value]
    out: list[dict[str, Any]] = []
    enemy = _enemy_areas(report)
    budget = value
    used: dict[str, int] = {}  # blocks across each border this Move Phase (4.3)
    own = _own_counts(report)
    for origin in picked:
        # Only next-door destinations: one border crossed, so its limit and cost are known here.
        reach = {b: [d for d in ds if board().border(origin, d) is not None]
                 for b, ds in sorted(legal[origin].items()) if b != NORSE}  # the Norse move by sea (4.7)
        reach = {b: ds for b, ds in reach.items() if ds}
        if not reach or budget <= 0:
            continue
        # One group per enemy area: no Main Attack to name (5.32).
        attacked = {m["to"] for m in out if m["to"] in enemy}
        reach = {b: [d for d in ds if d not in attacked] for b, ds in reach.items()}
        reach = {b: ds for b, ds in reach.items() if ds}
        if not reach:
            continue
        common = sorted(set.intersection(*(set(ds) for ds in reach.values())))
        if not common:
            name = sorted(reach)[0]
            reach, common = {name: reach[name]}, sorted(reach[name])
        targets = [a for a in common if a in enemy and enemy[a] <= len(reach)] if bot == "simple" else []
        dest = targets[0] if targets else common[rng.randbelow(len(common))]
        border = board().border(origin, dest)
        assert border is not None
        room = border.limit - used.get(border.key, 0)
        names = sorted(reach)
        if border.anglo_scottish:  # each crossing block costs a move point (4.4)
            room = min(room, budget)
        names = names[:max(0, room)]
        if origin in enemy:  # attacked there: as many stay pinned as attack (4.6)
            names = names[:max(0, own.get(origin, 0) - enemy[origin])]
        if bot == "random" and len(names) > 1:
            names = sorted(rng.shuffled(names)[:1 + rng.randbelow(len(names))])
        if not names:
            continue
        cost = len(names) if border.anglo_scottish else 1
        budget -= cost
        used[border.key] = used.get(border.key, 0) + len(names)
        out.append({"from": origin, "to": dest, "blocks": names})
    return out


def _own_counts(report: Report) -> dict[str, int]:
    """Own blocks by area, from the side's view in the report."""
    out: dict[str, int] = {}
    for b in report.get("view", {}).get("blocks", []):
        out[b["area"]] = out.get(b["area"], 0) + 1
    return out


def _enemy_areas(report: Report) -> dict[str, int]:
    """Enemy block counts by area, from the public board in the report."""
    side = report.get("side", "")
    out: dict[str, int] = {}
    for area, counts in report.get("public", {}).get("blocks", {}).items():
        n = sum(v for s, v in counts.items() if s != side)
        if n:
            out[area] = n
    return out


__all__ = ["BOTS", "NORSE", "RANDOM_PLANS", "SIMPLE_PLANS", "bot_plans", "choose_moves"]
