"""Real secret states at every point where a game waits, for the fog-of-war property tests.

Bot games are driven through the ruleset itself (``HammerRuleset.adjudicate``, the referee's
path), with the drafts the random bot writes from its own report, nudged so that every kind of
pause turns up: battle plans that ask every question (``ask = ["all"]``) or only the late ones
(forced retreats, regroups: a side is asked once per battle), winter plans that ask
every winter question, Event cards sent without their parameters (an ``event`` step), and moves
that make Reserves (Player 2 reinforcing a battle, 5.33; Player 1 attacking one area from two
origins, 5.32). Each state is kept with the log of the step that led to it, under its kind:
``card``, ``moves``, ``event``, ``winter``, or ``decide:QUESTION`` with ``:reserves`` added when
the paused battle has blocks in reserve.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.hammer.play.bots import auto_draft
from pbem.hammer.rules.board import board
from pbem.hammer.rules.log import to_data
from pbem.hammer.rules.winter import QUESTION_KINDS as WINTER_QUESTIONS
from pbem.hammer.ruleset import HammerRuleset

R = HammerRuleset()
SCENARIOS = ("braveheart", "the_bruce", "campaign")
GAMES_PER_SCENARIO = 6
YEARS = 2


@dataclass(frozen=True)
class Paused:
    """One state a game waited in, and the log of the step that brought it there."""

    kind: str
    state: dict[str, Any]
    log: list[dict[str, Any]]


def _stream(*parts: object) -> Drbg:
    return Drbg(hashlib.sha256("|".join(map(str, parts)).encode()).digest())


def _next_door(legal: dict[str, dict[str, list[str]]], target: str) -> dict[str, list[str]]:
    """Origins with blocks that can step straight into ``target``, and up to two such blocks each."""
    out = {}
    for origin, blocks in sorted(legal.items()):
        names = sorted(b for b, ds in blocks.items() if target in ds and b != "Norse")
        if names and board().border(origin, target) is not None:
            out[origin] = names[:2]
    return out


def _pile_in(report: dict[str, Any], r: Drbg) -> dict[str, Any] | None:
    """Moves that leave blocks in reserve: reinforce a battle (5.33) or attack from two origins (5.32)."""
    legal = report["options"].get("moves", {})
    side = report["side"]
    if report["asks"] == "moves":
        for area in [b["area"] for b in report["view"].get("battles", [])]:
            src = _next_door(legal, area)
            if src:
                origin = sorted(src)[r.randbelow(len(src))]
                return {"moves": [{"from": origin, "to": area, "blocks": src[origin]}]}
    enemy = sorted(a for a, c in report["public"]["blocks"].items() if any(n for s, n in c.items() if s != side))
    for area in r.shuffled(enemy):
        src = _next_door(legal, area)
        if len(src) >= 2:
            a, b = sorted(src)[:2]
            return {"moves": [{"from": a, "to": area, "blocks": src[a]}, {"from": b, "to": area, "blocks": src[b]}],
                    "main_attack": {area: {"from": a, "via": a}}}
    return None


def _orders(state: dict[str, Any], k: int, tag: str) -> dict[str, dict[str, Any]]:
    orders = {}
    for side, kind in R.owes(state).items():
        report = R.report(state, side, [], "pause-points", state["step"])
        d = auto_draft(report, "random", f"{tag}|{k}|{side}".encode())
        r = _stream("nudge", tag, k, side)
        ask = r.randbelow(4)  # "ask me" is asked once per battle: asking only late questions reaches them too
        if "plans" in d.sections and ask:
            d.sections["plans"] = {**d.sections["plans"],
                                   "ask": (["all"], ["retreat", "regroup", "retreat_lost"], ["all"])[ask - 1]}
        if kind == "winter" and r.randbelow(2):
            d.sections["winter"] = {**d.sections.get("winter", {}), "ask": list(WINTER_QUESTIONS)}
        if kind == "card" and "event" in d.sections and r.randbelow(2):
            del d.sections["event"]
        used = [p for p in report["options"].get("event_params", []) if "target" in p or "noble" in p]
        if kind == "event" and used:  # a Pillage or a Herald used, not passed: its hits and battles pause too
            d.sections["event"] = used[r.randbelow(len(used))]
        section = "moves" if kind == "moves" else "if_player1" if "if_player1" in d.sections else ""
        if section and r.randbelow(3):
            extra = _pile_in(report, r)
            if extra:
                trial = copy.deepcopy(d)
                trial.sections[section] = {**d.sections[section], **extra}
                try:
                    R.validate(state, side, trial.body())
                    d = trial
                except PbemError:
                    pass
        orders[side] = d.body()
    return orders


def kind_of(state: dict[str, Any]) -> str:
    owes = R.owes(state)
    if "decide" in owes.values():
        fight = (state.get("paused") or {}).get("current", {}).get("fight") or {}
        return f"decide:{state['question']['kind']}" + (":reserves" if fight.get("reserves") else "")
    return ",".join(sorted(set(owes.values())))


_FOUND: dict[str, list[Paused]] = {}


def pause_points() -> dict[str, list[Paused]]:
    """Every state the driven games waited in, by kind (computed once, about two seconds)."""
    if not _FOUND:
        for scenario in SCENARIOS:
            for seed in range(GAMES_PER_SCENARIO):
                tag = f"{scenario}|{seed}"
                state = R.setup(scenario, {}, _stream("setup", tag))
                first, log, k = state["game"]["year"], [], 0
                while not R.is_over(state) and state["game"]["year"] < first + YEARS:
                    _FOUND.setdefault(kind_of(state), []).append(Paused(kind_of(state), state, log))
                    out = R.adjudicate(state, _orders(state, k, tag), _stream("step", tag, k), game_id="pause-points")
                    state, log, k = out.state, to_data(out.log), k + 1  # the lines as reports carry them
    return _FOUND
