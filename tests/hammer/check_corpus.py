"""Random positions and random and mutated drafts, for holding the player's check to the referee.

Positions come from games of all three scenarios played through the ruleset by the bots, kept at
every step where a side owes something (card, moves, event, decide, winter). Drafts are the
bots' own plus mutations of their moves, cards, events, answers, battle and winter plans: the
mistakes people make (wrong counts, misspelt names, red borders, sea moves inland, victuals
beyond a block's steps, Herald on the wrong noble, parameters of another event...) and the
legal alternatives the bots never write (paths, parts, the Norse by sea, pins, Main Attacks).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.hammer.play import bots, drafts
from pbem.hammer.rules.blocks import blocks, other_side, spec
from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.cards import card, deck
from pbem.hammer.ruleset import HammerRuleset

R = HammerRuleset()
SCENARIOS = ("braveheart", "the_bruce", "campaign")
AREAS = sorted(board().areas)
NAMES = sorted(blocks())
NOBLES = sorted(n for n in NAMES if spec(n).is_noble)
EVENTS = sorted(c for c in deck() if card(c).is_event)
MOVE_CARDS = sorted(c for c in deck() if not card(c).is_event)


@dataclass(frozen=True)
class Position:
    state: dict[str, Any]
    side: str
    report: dict[str, Any]

    @property
    def asks(self) -> str:
        return str(self.report["asks"])


def positions(scenario: str, seed: int, max_steps: int, every: int = 1) -> Iterator[Position]:
    """Each owing side at each ``every``-th step of a bot game (ruleset level, real engine)."""
    pair = (("random", "simple"), ("simple", "random"), ("random", "random"))[seed % 3]
    s = R.setup(scenario, {}, Drbg(bytes([seed % 256, 7]) * 16))
    for step in range(max_steps):
        owes = R.owes(s)
        if not owes:
            return
        orders = {}
        for side in sorted(owes):
            rep = R.report(s, side, [], "g", s["step"])
            if step % every == 0:
                yield Position(s, side, rep)
            d = bots.auto_draft(rep, pair[side == "scotland"], bytes([seed % 256, step % 256, len(side)]))
            if d.kind == "card" and "event" in d.sections and step % 2:
                del d.sections["event"]  # sent later, in an event step of its own
            orders[side] = d.body()
        s = R.adjudicate(s, orders, Drbg(bytes([seed % 256, step % 256]) * 16)).state


# --- verdicts --------------------------------------------------------------------------------------

Verdict = tuple[str, str]  # ("ok", "") or (error class, rule)


def referee(p: Position, body: dict[str, Any]) -> tuple[Verdict, str]:
    try:
        R.validate(copy.deepcopy(p.state), p.side, copy.deepcopy(body))
    except PbemError as exc:
        return (type(exc).__name__, str(getattr(exc, "rule", "") or "")), str(exc)
    return ("ok", ""), ""


def player(p: Position, body: dict[str, Any],
           check: Callable[[drafts.Draft, dict[str, Any]], None] = drafts.check_draft) -> tuple[Verdict, str]:
    try:
        check(drafts.from_body(copy.deepcopy(body), "draft"), copy.deepcopy(p.report))
    except PbemError as exc:
        return (type(exc).__name__, str(getattr(exc, "rule", "") or "")), str(exc)
    return ("ok", ""), ""


# --- drafts ----------------------------------------------------------------------------------------

def bot_drafts(p: Position, r: random.Random) -> list[dict[str, Any]]:
    return [bots.auto_draft(p.report, bot, bytes([r.randrange(256)])).body() for bot in ("random", "simple")]


def mutations(p: Position, base: dict[str, Any], r: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Named variants of a bot draft for position ``p``."""
    out: list[tuple[str, dict[str, Any]]] = []
    rep = p.report
    view = rep["view"]
    side = p.side

    def variant(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        body = copy.deepcopy(base)
        change(body)
        out.append((name, body))

    hand = list(rep.get("options", {}).get("hand", []))
    if p.asks == "card":
        variant("card:not-in-hand", lambda b: b["card"].update(play=r.choice([c for c in deck() if c not in hand]
                                                                              or ["move1-1"])))
        if hand:
            c = r.choice(hand)

            def play(b: dict[str, Any], c: str = c) -> None:
                b["card"]["play"] = c
                if card(c).is_event:
                    b.pop("if_player1", None)
                    b["event"] = random_event(p, r, card(c).event or "")
            variant("card:other-in-hand", play)
        section = base.get("if_player1", {"moves": []})
        value = max([card(c).value for c in hand] + [1])
        for name, moves in move_mutations(p, section, value, r):
            variant(f"if_player1:{name}", lambda b, m=moves: b.update(if_player1=m))
    if p.asks == "moves":
        value = card(rep["options"]["card"]).value if rep["options"].get("card") else 0
        for name, moves in move_mutations(p, base.get("moves", {"moves": []}), value, r):
            variant(f"moves:{name}", lambda b, m=moves: b.update(moves=m))
    if p.asks == "event" or (p.asks == "card" and "event" in base):
        ev = card(rep["options"].get("event") or base.get("card", {}).get("play", "herald")).event or "herald"
        for _ in range(4):
            variant("event:random", lambda b: b.update(event=random_event(p, r, ev)))
        variant("event:other-event", lambda b: b.update(event=random_event(p, r, r.choice(
            [e for e in ("herald", "pillage", "sea_move", "victuals") if e != ev]))))
        variant("event:legal", lambda b: b.update(event=r.choice(rep["options"].get("event_params") or [{}])))
    if p.asks == "decide":
        asked = rep["options"].get("questions") or [rep["options"].get("question", {})]
        n = r.randrange(len(asked))  # which of a battle's questions asked together gets the mutated answer
        opts = asked[n].get("options", [])

        def answer(b: dict[str, Any], value: str) -> None:
            if "answers" in b["decide"]:
                b["decide"]["answers"][n] = value
            else:
                b["decide"]["answer"] = value
        variant("decide:wrong", lambda b: answer(b, r.choice(["", "fire", "retreat", *NAMES, *AREAS])))
        if opts:
            variant("decide:other", lambda b: answer(b, r.choice(opts)))
        if len(asked) > 1:
            variant("decide:too-few", lambda b: b["decide"].update(answers=b["decide"]["answers"][:-1]))
    if p.asks == "winter":
        for _ in range(3):
            variant("winter:random", lambda b: b.update(winter=random_winter(p, r)))
    if p.asks in ("card", "moves", "decide"):
        variant("plans:random", lambda b: b.update(plans=random_plans(side, r)))
    variant("header:step", lambda b: b.update(step=b["step"] + r.choice([-1, 1])))
    variant("header:kind", lambda b: b.update(kind=r.choice([k for k in drafts.KINDS if k != b["kind"]])))
    del view
    return out


def _shorthand(m: dict[str, Any]) -> bool:
    return isinstance(m, dict) and {"from", "to", "blocks"} <= set(m)


def move_mutations(p: Position, section: dict[str, Any], value: int,
                   r: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Variants of a move section: counts, names, borders, paths, sea, pins, Main Attacks."""
    view = p.report["view"]
    own = {b["block"]: b["area"] for b in view["blocks"]}
    by_area: dict[str, list[str]] = {}
    for name, area in sorted(own.items()):
        by_area.setdefault(area, []).append(name)
    enemy_at = {a: c for a, c in view["enemy_blocks"].items()}
    moves = list(section.get("moves", []))
    out: list[tuple[str, dict[str, Any]]] = []

    def with_moves(name: str, new: list[Any], **extra: Any) -> None:
        out.append((name, {**{k: v for k, v in section.items() if k != "moves"}, "moves": new, **extra}))

    def a_move() -> dict[str, Any] | None:
        if not by_area:
            return None
        origin = r.choice(sorted(by_area))
        names = r.sample(by_area[origin], r.randint(1, len(by_area[origin])))
        dest = r.choice(board().neighbours(origin) or AREAS)
        if r.random() < 0.3:
            dest = r.choice(AREAS)
        return {"from": origin, "to": dest, "blocks": sorted(names)}

    extra = [m for m in (a_move() for _ in range(value + 1)) if m]
    with_moves("too-many", moves + extra)
    one = a_move()
    if one:
        with_moves("random-move", [one])
        with_moves("random-move-added", moves + [one])
    if moves and _shorthand(moves[0]):
        m = copy.deepcopy(moves[0])
        m["blocks"] = [m["blocks"][0] + r.choice(["e", "s", ""]) if r.random() < 0.7 else r.choice(NAMES)]
        with_moves("misspelt-block", [m] + moves[1:])
        m = copy.deepcopy(moves[0])
        m["to"] = m["to"][:-1] + "x" if r.random() < 0.5 else r.choice(AREAS)
        with_moves("wrong-destination", [m] + moves[1:])
        m = copy.deepcopy(moves[0])
        path = _path(m["from"], m["to"])
        if path:
            with_moves(
                "parts-path", [{"from": m["from"], "parts": [{"blocks": m["blocks"], "path": path}]}] + moves[1:]
            )
            with_moves("path-form", [{"from": m["from"], "blocks": m["blocks"], "path": path}] + moves[1:])
            longer = path + [r.choice(board().neighbours(path[-1]))]
            with_moves("path-longer", [{"from": m["from"], "parts": [{"blocks": m["blocks"], "path": longer}]}])
        if len(m["blocks"]) > 1:  # two entries from one origin (4.2)
            half = len(m["blocks"]) // 2
            with_moves("split-origin", [{**m, "blocks": m["blocks"][:half]}, {**m, "blocks": m["blocks"][half:]}]
                       + moves[1:])
        with_moves("duplicate", moves + [copy.deepcopy(moves[0])])
    # the Norse by sea, and everyone else by sea
    if "Norse" in own:
        coast = board().coastal_areas()
        dest = r.choice(coast if r.random() < 0.7 else AREAS)
        with_moves("norse-sea_to", [{"from": own["Norse"], "sea_to": dest, "blocks": ["Norse"]}])
        with_moves("norse-to", [{"from": own["Norse"], "to": dest, "blocks": ["Norse"]}])
        with_moves("norse-land", [{"from": own["Norse"], "to": r.choice(board().neighbours(own["Norse"])),
                                   "blocks": ["Norse", *by_area[own["Norse"]][:1]]}])
    if by_area:
        origin = r.choice(sorted(by_area))
        with_moves("sea_to-not-norse", [{"from": origin, "sea_to": r.choice(AREAS), "blocks": by_area[origin][:1]}])
    # red borders: as many blocks as stand there across one (4.3); England (4.4)
    for origin, names in sorted(by_area.items()):
        reds = [n for n in board().neighbours(origin) if board().border(origin, n).kind == "red"]
        if reds and len(names) >= 3:
            with_moves("red-border", [{"from": origin, "to": r.choice(reds), "blocks": names}])
            break
    for origin, names in sorted(by_area.items()):
        if ENGLAND in board().neighbours(origin) and len(names) >= 2:
            with_moves("into-england", [{"from": origin, "to": ENGLAND, "blocks": names}])
            break
    # pins and Main Attacks (4.6, 5.32)
    attacked = sorted(a for a in by_area if a in enemy_at)
    pins_area = r.choice(attacked) if attacked and r.random() < 0.8 else r.choice(AREAS)
    pool = by_area.get(pins_area, []) or r.sample(NAMES, 2)
    pins = {pins_area: sorted(r.sample(pool, r.randint(0, len(pool))))}
    out.append(("pins", {**section, "pins": pins}))
    targets = sorted(enemy_at)
    if targets:
        t = r.choice(targets)
        two = []
        for origin in [n for n in board().neighbours(t) if n in by_area][:2]:
            two.append({"from": origin, "to": t, "blocks": by_area[origin][:1]})
        if two:
            with_moves("converge", moves + two)
            with_moves("converge-main", moves + two, main_attack={t: {"from": two[0]["from"], "via": two[0]["from"]}})
            with_moves("converge-main-wrong", moves + two, main_attack={t: {"from": r.choice(AREAS), "via": "sea"}})
    with_moves("main-nowhere", moves, main_attack={r.choice(AREAS): {"from": r.choice(AREAS), "via": r.choice(AREAS)}})
    out.append(("battle_order", {**section, "battle_order": [r.choice(AREAS)]}))
    return out


def _path(origin: str, dest: str) -> list[str]:
    """A shortest path from ``origin`` to ``dest`` (breadth first, names in order)."""
    seen = {origin: [origin]}
    frontier = [origin]
    while frontier:
        nxt = []
        for a in frontier:
            for n in sorted(board().neighbours(a)):
                if n not in seen:
                    seen[n] = seen[a] + [n]
                    nxt.append(n)
        frontier = nxt
    return seen.get(dest, [origin])[1:]


def random_event(p: Position, r: random.Random, event: str) -> dict[str, Any]:
    """Parameters for ``event``, right or wrong: any names, the side's own or the enemy's."""
    view = p.report["view"]
    own = {b["block"]: b["area"] for b in view["blocks"]}
    own_areas = sorted(set(own.values())) or AREAS
    roll = r.random()
    if roll < 0.08:
        return {"pass": True}
    if roll < 0.14:
        return {"coronation": r.choice(["Bruce", "Comyn", "Balliol", "Wallace"])}
    if roll < 0.18:
        return {}
    if event == "herald":
        pick = r.choice([*NOBLES, "Moray", "Mar" + "r", "Wallace", *view["own_nobles"]])
        return {"noble": pick}
    if event == "truce":
        return r.choice([{}, {"noble": "Mar"}, {"area": "Fife"}])
    if event == "pillage":
        src = r.choice(own_areas)
        target = r.choice(board().neighbours(src) if r.random() < 0.8 else AREAS)
        names = [n for n, a in own.items() if a == src] or NAMES
        return {"from": src, "target": target, "steps_to": [r.choice(names) for _ in range(r.randint(0, 3))]}
    if event == "sea_move":
        src = r.choice(own_areas)
        names = [n for n, a in own.items() if a == src] or NAMES
        return {"from": src, "to": r.choice(AREAS), "blocks": r.sample(names, min(len(names), r.randint(1, 3)))}
    if event == "victuals":
        area = r.choice(own_areas)
        names = [n for n, a in own.items() if a == area] or NAMES
        return {"area": area, "steps": [r.choice(names) for _ in range(r.randint(1, 4))]}
    return {}


def random_winter(p: Position, r: random.Random) -> dict[str, Any]:
    legal = p.report.get("options", {}).get("winter_plan", {})
    plan: dict[str, Any] = {}
    for key, choices in (("moray", ["home", "stay", "disband", "Moray"]), ("king", ["stay", "disband", *AREAS[:6]]),
                         ("wallace", ["selkirk", "stay", "disband"]), ("edward", ["winter", "disband", "stay"]),
                         ("edward_company", ["stay", "disband"])):
        if r.random() < 0.3:
            plan[key] = r.choice(list(legal.get(key, [])) + choices)
    if r.random() < 0.3:
        noble = r.choice(["Bruce", "Comyn", "Mar", "Moray"])
        plan["homes"] = {noble: r.choice([*spec(noble).homes, r.choice(AREAS)])}
    if r.random() < 0.3:
        plan["disband"] = r.sample(list(legal.get("disband", [])) + NAMES[:3], 1)
    if r.random() < 0.4:
        areas = list(legal.get("builds", {})) or AREAS
        area = r.choice(areas if r.random() < 0.8 else AREAS)
        entries = list(legal.get("builds", {}).get(area, [])) + ["draw", "pass", "step:Wallace", "step:Edward"]
        plan["builds"] = {area: [r.choice(entries) for _ in range(r.randint(1, 3))]}
    if r.random() < 0.1:
        plan["ask"] = [r.choice(["winter_build", "winter_home", "battle_action"])]
    if r.random() < 0.05:
        plan["wallce"] = "stay"
    return plan


def random_plans(side: str, r: random.Random) -> dict[str, Any]:
    roll = r.random()
    own = [n for n in NAMES if side in spec(n).sides]
    if roll < 0.3:
        return {"hits": [r.choice(own if r.random() < 0.7 else NAMES)]}
    if roll < 0.5:
        return {"battle": {"retreat_from_round": r.randint(0, 4), "retreat_to": [r.choice(AREAS + ["Narnia"])]}}
    if roll < 0.7:
        return {"areas": {r.choice(AREAS + ["Fyfe"]): {"retreat_below_percent": r.choice([34, 50, "50%"])}}}
    if roll < 0.8:
        return {"ask": [r.choice(["regroup", "retreat", "hit", "winter_build", "dance"])]}
    return {"raid_loss": [r.choice(own)], "battle": {"regroup": r.choice(["stay", "Fife", "Atlantis"])}}


def corpus(games: list[tuple[str, int, int, int]], seed: int = 0) -> Iterator[tuple[Position, str, dict[str, Any]]]:
    """(position, variant name, order body) over the given games (scenario, seed, max steps, every)."""
    r = random.Random(seed)
    for scenario, game_seed, max_steps, every in games:
        for p in positions(scenario, game_seed, max_steps, every):
            for base in bot_drafts(p, r):
                yield p, "bot", base
                for name, body in mutations(p, base, r):
                    yield p, name, body


__all__ = ["corpus", "player", "referee", "positions", "Position", "SCENARIOS", "other_side"]
