"""Hammer of the Scots with no referee: the set-up's split into public state and each side's hidden facts.

The first part of Hammer on the peer record's hidden-fact seam (docs/protocol.md §13.10). The
scenario card is public (8.1-8.3): which blocks start in which area, dead or off the map. What is
hidden is which of a side's blocks stands behind which handle in an area (blocks stand upright) and,
above all, which block is where in the side's pool, so that the English levy (7.7, 8.0) draws a
handle, by joint randomness, and England alone learns which block came out. The 25-card deck is
dealt by the mental deal (§13.11), five to each side (3.0).

Handles (``hidden.SIDE.n``) are numbered per side in a public order: the scenario's areas by name,
each area's blocks of the side one handle each, then the side's pool. A block whose identity the
rules show is public and gets no handle: the Scots' dead and off-map blocks (the King, the French
Knights) and Edward kept face-up in the pool by an E# bid (9.2).

``full_state`` is the bridge back to the engine: the public set-up and every side's facts give the
refereed engine's ``GameState`` (the final audit's replay starts from it), and ``public_of`` projects
such a state back through the handles; ``public_of(full_state(p, f), f) == p`` (tested).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.peer import handles
from pbem.core.peer.rules import Deck, FactLie
from pbem.hammer.rules import peer_events, peer_plans
from pbem.hammer.rules.blocks import SIDES, blocks, spec
from pbem.hammer.rules.board import ENGLAND
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.draws import draw_stream
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import block_of, index_of, noble_label
from pbem.hammer.rules.scenario import HAND_SIZE, LEVY, Scenario, edward_barred, scenario
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, BlockState, GameState, Options


def _edward_open(sc: Scenario, options: Options) -> bool:
    """Edward stands face-up in the pool, undrawable, under an E# bid (9.2): his identity is public."""
    probe = GameState(scenario=sc.id, year=sc.first_year, turn=0, phase="card", options=options)
    return edward_barred(probe, sc.first_year)


def places(sc: Scenario, side: str, options: Options) -> list[tuple[str, list[str]]]:
    """(where, the side's blocks the scenario puts there), in handle order: areas by name, then the pool."""
    placed = sc.english if side == "england" else sc.scottish
    out = [(area, sorted(names)) for area, names in sorted(placed.items())]
    on_map = {n for names in placed.values() for n in names}
    others = {n for names in (sc.scottish if side == "england" else sc.english).values() for n in names}
    public = set(sc.scottish_dead) | set(sc.scottish_off_map) | ({"Edward"} if _edward_open(sc, options) else set())
    pool = sorted(n for n, s in blocks().items() if s.sides[0] == side and n not in on_map | others | public)
    return [*out, (POOL, pool)]


def layout(sc: Scenario, side: str, options: Options) -> list[tuple[str, str]]:
    """(handle label, where it starts), in handle order."""
    wheres = [where for where, names in places(sc, side, options) for _ in names]
    return [(handles.hidden_label(side, n), where) for n, where in enumerate(wheres)]


def indexed(sc: Scenario, side: str, options: Options) -> list[str]:
    """The side's nobles the scenario puts on the map behind its handles: each gets a noble index label, whose
    fact is the handle he stands behind, so that a Herald (3.12) can ask his owner which handle he is."""
    return sorted(n for where, names in places(sc, side, options) if where != POOL for n in names if spec(n).is_noble)


def hidden_labels(scenario_id: str, options: Options, side: str) -> list[str]:
    sc = scenario(scenario_id)
    return [*(label for label, _ in layout(sc, side, options)),
            *(noble_label(side, n) for n in indexed(sc, side, options))]


def private_setup(scenario_id: str, options: Options, side: str, rng: Drbg) -> dict[str, str]:
    """The owner's facts: in each place, its blocks behind that place's handles in an order of its own
    randomness (the pool's order is committed before the levy's joint draw, so it cannot steer it)."""
    sc = scenario(scenario_id)
    out: dict[str, str] = {}
    n = 0
    for _, names in places(sc, side, options):
        for name in rng.shuffled(names):
            out[handles.hidden_label(side, n)] = name
            n += 1
    behind = {name: label for label, name in out.items()}
    return {**out, **{noble_label(side, n): behind[n] for n in indexed(sc, side, options)}}


def check_facts(scenario_id: str, options: Options, side: str, facts: Mapping[str, Any], complete: bool) -> None:
    """Each handle hides a block the scenario puts where the handle starts, each block once (8.0); each noble
    index names a handle of the side on the map, and the block behind it, once known, is that noble (3.12)."""
    sc = scenario(scenario_id)
    where = dict(layout(sc, side, options))
    allowed = dict(places(sc, side, options))
    seen: set[str] = set()
    for label, plan in sorted(facts.items()):
        if peer_plans.is_plan(label):
            try:
                peer_plans.parse(side, plan, _handles(sc, options, plan))
            except InvalidOrder as exc:
                raise FactLie(f"its plan {label} is no plan: {exc}") from None
    facts = {label: value for label, value in facts.items()  # plans and Pillage answers: sealed by orders
             if not peer_plans.is_plan(label) and not peer_events.is_answer(label)}
    index = {label: value for label, value in facts.items() if index_of(label) is not None}
    years: dict[int | None, set[Any]] = {}
    for label, handle in sorted(index.items()):
        noble, year = index_of(label) or ("", None)
        if label != noble_label(side, noble, year) or (year is None and noble not in indexed(sc, side, options)) \
                or (year is not None and not (noble in blocks() and spec(noble).is_noble)):
            raise FactLie(f"{label} is not a noble index of {side} in scenario {scenario_id} (3.12)")
        on_map = where.get(handle, POOL) != POOL if year is None else \
            isinstance(handle, str) and winter_label(handle, side, len(where))
        if not on_map:
            raise FactLie(f"{side}'s noble index puts {noble} behind {handle!r}, no handle of its on the map (3.12)")
        if handle in facts and block_of(facts[handle])[0] != noble:
            raise FactLie(f"{side}'s noble index puts {noble} behind {handle}, which is "
                          f"{block_of(facts[handle])[0]} (3.12)")
        if handle in years.setdefault(year, set()):
            raise FactLie(f"{side}'s noble index puts two nobles behind one handle (3.12)")
        years[year].add(handle)
    for label, name in sorted(facts.items()):
        if label in index:
            continue
        if label not in where and winter_label(label, side, len(where)):
            check_winter_fact(label, side, name)
            continue
        if label not in where:
            raise FactLie(f"{label} is not a handle of {side} in scenario {scenario_id} (8.0)")
        if name not in allowed[where[label]]:
            raise FactLie(f"{label} starts in {where[label]}, where scenario {scenario_id} puts no {name} of "
                          f"{side} (8.0)")
        if name in seen:
            raise FactLie(f"{side} hides {name} behind two handles (8.0)")
        seen.add(name)
    if complete and (len(seen) != len(where) or len(years.get(None, ())) != len(indexed(sc, side, options))):
        raise FactLie(f"{side} leaves handles of scenario {scenario_id} without a block (8.0)")


def _handles(sc: Scenario, options: Options, plan: Any) -> tuple[str, ...]:
    """The handles a sealed plan may name, as far as its own facts tell: the set-up's, and any a winter sealed
    (``hidden.SIDE.n`` past them, 7.6) that the plan names (which of them stood on the board then is the public
    state's; a plan naming one that stands nowhere is never asked about it)."""
    first = {s: len(layout(sc, s, options)) for s in SIDES}
    named = set(_strings(plan))
    return tuple(sorted({h for s in SIDES for h, _ in layout(sc, s, options)}
                        | {h for h in named for s in SIDES if winter_label(h, s, first[s])}))


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def winter_label(label: str, side: str, first: int) -> bool:
    """Whether ``label`` is one a winter sealed (``hidden.SIDE.n``, n past the set-up's handles: 7.6)."""
    parts = label.split(".")
    return len(parts) == 3 and parts[0] == "hidden" and parts[1] == side and parts[2].isdigit() \
        and int(parts[2]) >= first


def check_winter_fact(label: str, side: str, fact: Any) -> None:
    """A winter's fact: a block by name (its pool) or {block, strength} with a strength
    the block can have (7.6); which block stands where is checked by the replay of the winter's orders."""
    name = fact.get("block") if isinstance(fact, dict) else fact
    strength = fact.get("strength") if isinstance(fact, dict) else None
    if not isinstance(name, str) or name not in blocks():
        raise FactLie(f"{label} hides {name!r}, which is no block (7.6)")
    if strength is not None and (not isinstance(strength, int) or not 1 <= strength <= spec(name).steps
                                 or sorted(fact) != ["block", "strength"]):
        raise FactLie(f"{label} hides {name} at strength {strength!r}, which it cannot have (1.2, 7.6)")


def public_setup(scenario_id: str, options: Options, rng: Drbg) -> dict[str, Any]:
    """Entry 0's public state: each area's handles by side, the pools' handles, the public blocks, and the
    English levy (7.7): handles drawn from England's pool by the joint stream, into England at full strength."""
    sc = scenario(scenario_id)
    areas: dict[str, dict[str, list[str]]] = {}
    pools: dict[str, list[str]] = {}
    for side in SIDES:
        for label, where in layout(sc, side, options):
            if where == POOL:
                pools.setdefault(side, []).append(label)
            else:
                areas.setdefault(where, {}).setdefault(side, []).append(label)
    extra = int(options.bid[1]) if options.bid.startswith("S") else 0
    levy = draw_stream(rng, LEVY).shuffled(pools.get("england", []))[:sc.english_levy + extra]
    pools["england"] = [h for h in pools.get("england", []) if h not in levy]
    areas.setdefault(ENGLAND, {}).setdefault("england", []).extend(sorted(levy))
    public_blocks = {n: DEAD for n in sc.scottish_dead} | {n: OFF_MAP for n in sc.scottish_off_map}
    if _edward_open(sc, options):
        public_blocks["Edward"] = POOL
    return {"scenario": scenario_id, "year": sc.first_year, "turn": 0, "king": sc.king,
            "areas": {a: {s: sorted(v) for s, v in sorted(by.items())} for a, by in sorted(areas.items())},
            "pool": {s: sorted(pools.get(s, [])) for s in SIDES}, "levy": sorted(levy),
            "open_blocks": dict(sorted(public_blocks.items()))}


def card_deck(options: Options) -> Deck:
    """The year's deal (3.0): all 25 cards sorted by id, five to each side in seat order."""
    return Deck(sorted(deck()), {s: HAND_SIZE for s in SIDES})


def full_state(public: Mapping[str, Any], facts: Mapping[str, str], options: Options) -> GameState:
    """The engine's game at the set-up from the public state and every side's facts (the audit's start).
    Blocks on the map stand at full strength (8.0, 7.7); the pool's at 0, as the refereed set-up has them."""
    sc = scenario(public["scenario"])
    g = GameState(scenario=sc.id, year=public["year"], turn=0, phase="card", options=options, king=public["king"])
    side_of = {label: label.split(".")[1] for label in facts}
    for area, by in public["areas"].items():
        for side, labels in by.items():
            for label in labels:
                g.blocks[facts[label]] = BlockState(side, area, spec(facts[label]).steps)
    for side, labels in public["pool"].items():
        for label in labels:
            g.blocks[facts[label]] = BlockState(side_of[label], POOL, 0)
    for name, where in public["open_blocks"].items():
        g.blocks[name] = BlockState(spec(name).sides[0], where, 0)
    return g


def public_of(g: GameState, facts: Mapping[str, str], levy: list[str]) -> dict[str, Any]:
    """The public state of a set-up game through the handles ``facts`` name (the inverse of ``full_state``)."""
    handle = {name: label for label, name in facts.items()}
    areas: dict[str, dict[str, list[str]]] = {}
    pools: dict[str, list[str]] = {s: [] for s in SIDES}
    open_blocks: dict[str, str] = {}
    for name, b in sorted(g.blocks.items()):
        if name not in handle:
            open_blocks[name] = b.location
        elif b.location == POOL:
            pools[b.owner].append(handle[name])
        else:
            areas.setdefault(b.location, {}).setdefault(b.owner, []).append(handle[name])
    return {"scenario": g.scenario, "year": g.year, "turn": g.turn, "king": g.king,
            "areas": {a: {s: sorted(v) for s, v in sorted(by.items())} for a, by in sorted(areas.items())},
            "pool": {s: sorted(v) for s, v in pools.items()}, "levy": sorted(levy),
            "open_blocks": dict(sorted(open_blocks.items()))}
