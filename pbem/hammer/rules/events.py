"""Event cards (3.12) and the coronations announced instead of them (6.21, 6.22).

Event parameters are order data (a TOML table ``[event]``, see docs/orders.md "Events"):

=================  ==========================================================================
any Event          ``{}`` or ``{pass = true}``: the event is not used (3.12 note). For Truce,
                   which needs no parameters, ``{}`` means "use it"; ``{pass = true}`` passes.
coronation         ``{coronation = "Bruce" | "Comyn" | "Balliol"}`` (Scots, any Event, 6.21/6.22)
herald             ``{noble = "Mar"}``
pillage            ``{from = "Lothian", target = "Dunbar", steps_to = ["Wallace", "Douglas"]}``
sea_move           ``{from = "Fife", to = "Lennox", blocks = ["Douglas", "Barclay"]}``
truce              ``{}``
victuals           ``{area = "Fife", steps = ["Wallace", "Wallace", "Douglas"]}``
=================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from pbem.hammer.rules import hidden, kings, sofar
from pbem.hammer.rules.blocks import blocks, other_side, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.decisions import Decider, Question, checked
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, Plain
from pbem.hammer.rules.movement import truce_bars
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, GameState
from pbem.hammer.rules.suggest import did_you_mean

Log = list[LogEntry]
RULE = "3.12"
HERALD_SUCCESS = 4       # 1-4 converts, 5-6 fails
PILLAGE_HITS = 2
SEA_MOVE_MAX = 2
VICTUALS_STEPS = 3
NORSE = "Norse"
MORAY = "Moray"
HERALD_FOUND = "3.12: a Herald's noble changes sides at his current strength"
PILLAGE_SHOWN = "3.12: a Pillage's hits are applied as in combat, on the strongest blocks (5.41)"
PILLAGE_ANSWER = "3.12: the pillaged side says where the hits fall (5.41), checked at the final audit"
PILLAGE_CAPTURE = "3.12: a noble whose last step a Pillage takes changes sides, as in combat (5.7)"

KEYS: dict[str, tuple[str, ...]] = {
    "herald": ("noble",),
    "pillage": ("from", "target", "steps_to"),
    "sea_move": ("from", "to", "blocks"),
    "truce": (),
    "victuals": ("area", "steps"),
}


def _illegal(what: str, why: str, rule: str = RULE) -> IllegalOrder:
    return IllegalOrder(f"{what}: {why} ({rule})", rule=rule)


def _event_of(card_id: str) -> str:
    c = card(card_id)
    if not c.is_event:
        raise IllegalOrder(f"event {card_id}: {c.name} is a Move card, not an Event (3.12)", rule=RULE)
    return str(c.event)


def _names(value: Any, field: str, event: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidOrder(f"event {event}: {field} must be a list of block names, not {value!r}")
    return list(value)


def _text(params: dict[str, Any], key: str, event: str) -> str:
    value = params.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidOrder(f"event {event}: {key} must be a name, not {value!r}")
    return value


def _shape(event: str, params: Any) -> str:
    """'pass', 'coronation' or 'use'; InvalidOrder for keys the event does not know."""
    if not isinstance(params, dict):
        raise InvalidOrder(f"event {event}: parameters must be a table, not {params!r}")
    if params.get("pass") is True:
        if len(params) > 1:
            raise InvalidOrder(f"event {event}: pass = true takes no other parameters ({RULE})")
        return "pass"
    if "coronation" in params:
        if len(params) > 1:
            raise InvalidOrder(f"event {event}: coronation takes no other parameters (6.21, 6.22)")
        return "coronation"
    unknown = sorted(k for k in params if k not in KEYS[event])
    if unknown:
        raise InvalidOrder(f"event {event}: unknown parameter(s) {', '.join(unknown)}; "
                           f"{event} takes {', '.join(KEYS[event]) or 'none'} ({RULE})")
    if not params and event != "truce":
        return "pass"
    return "use"


# --- validation ----------------------------------------------------------------------------------

def validate_event(state: GameState, side: str, card_id: str, params: dict[str, Any]) -> str:
    """Check an Event's parameters against the state; returns 'pass', 'coronation' or 'use'."""
    event = _event_of(card_id)
    shape = _shape(event, params)
    if shape == "coronation":
        candidate = params["coronation"]
        if side != "scotland":
            raise _illegal(f"coronation of {candidate}", "only the Scots crown a King", "6.2")
        why = kings.coronation_refusal(state, str(candidate))
        if why:
            raise IllegalOrder(f"coronation of {candidate}: {why}", rule=why[why.rfind("(") + 1:-1])
    elif shape == "use":
        {"herald": _check_herald, "pillage": _check_pillage, "sea_move": _check_sea_move,
         "truce": lambda s, d, p: None, "victuals": _check_victuals}[event](state, side, params)
    return shape


def _check_herald(state: GameState, side: str, params: dict[str, Any]) -> None:
    noble = _text(params, "noble", "herald")
    what = f"Herald on {noble}"
    if noble not in blocks() or not spec(noble).is_noble:
        nobles = [n for n, s in blocks().items() if s.is_noble]
        raise IllegalOrder(f"{what}: {noble} is not a noble ({RULE}){did_you_mean(noble, nobles)}", rule=RULE)
    if noble == MORAY:
        raise _illegal(what, "the card names an enemy noble, not Moray (who never changes allegiance, 5.7)")
    key = hidden.locate(state, noble)
    if key is None:  # with no referee: behind a handle nobody has seen, on the map, its side's index says whose
        if hidden.hidden_by(noble) != other_side(side):
            raise _illegal(what, f"{noble} is not an enemy noble on the map")
    elif state.blocks[key].owner != other_side(side) or not state.on_map(key):
        raise _illegal(what, f"{noble} is not an enemy noble on the map")


def _group(state: GameState, side: str, area: str, what: str) -> list[str]:
    if area not in board().areas:
        raise InvalidOrder(f"{what}: unknown area {area!r} (1.1){did_you_mean(area, board().areas)}")
    names = state.blocks_in(area, side)
    if not names:
        raise _illegal(what, f"{side} has no group in {area}")
    return names


def _check_pillage(state: GameState, side: str, params: dict[str, Any]) -> None:
    src, target = _text(params, "from", "pillage"), _text(params, "target", "pillage")
    what = f"Pillage {target} from {src}"
    group = _group(state, side, src, what)
    if target not in board().areas:
        raise InvalidOrder(f"{what}: unknown area {target!r} (1.1){did_you_mean(target, board().areas)}")
    if board().border(src, target) is None:
        raise _illegal(what, f"{target} is not adjacent to {src}")
    if not state.blocks_in(target, other_side(side)):
        raise _illegal(what, f"there is no enemy group in {target}")
    steps_to = _names(params.get("steps_to", []), "steps_to", "pillage")
    if len(steps_to) > PILLAGE_HITS:
        raise _illegal(what, f"steps_to lists {len(steps_to)} blocks but at most {PILLAGE_HITS} steps are pillaged")
    for name in steps_to:
        if name not in group:
            raise IllegalOrder(f"{what}: {name} is not in the pillaging group in {src} ({RULE})"
                               f"{did_you_mean(name, group)}", rule=RULE)
    for name in sorted(n for n in set(steps_to) if hidden.strength_sealed(state, n)):
        room = _step_room(state, name)
        if steps_to.count(name) > room:
            raise _illegal(what, f"{name} can take {room} more step(s), not {steps_to.count(name)}: with no referee "
                                 "a step is given to a block whose strength is sealed on its owner's word", "2.11")


def _check_sea_move(state: GameState, side: str, params: dict[str, Any]) -> None:
    src, dst = _text(params, "from", "sea_move"), _text(params, "to", "sea_move")
    moving = _names(params.get("blocks"), "blocks", "sea_move")
    what = f"Sea Move {'+'.join(moving)} {src}→{dst}"
    for area in (src, dst):
        if area not in board().areas:
            raise InvalidOrder(f"{what}: unknown area {area!r} (1.1){did_you_mean(area, board().areas)}")
        if not board().area(area).coastal:
            raise _illegal(what, f"{area} is not coastal")
    if src == dst:
        raise _illegal(what, "the two areas must differ")
    if not 1 <= len(moving) <= SEA_MOVE_MAX or len(set(moving)) != len(moving):
        raise _illegal(what, f"move one or two different blocks, not {len(moving)}")
    for name in moving:
        b = state.blocks.get(name)
        if b is None or b.owner != side or b.location != src:
            here = state.blocks_in(src, side) if src in board().areas else []
            raise IllegalOrder(f"{what}: {name} is not a {side} block in {src} ({RULE}){did_you_mean(name, here)}",
                               rule=RULE)
        if spec(name).name == NORSE:  # with no referee an unseen block reads as no Norse: checked when it opens
            raise _illegal(what, "the Norse never use the Sea Move card", "4.7")
    if not state.is_friendly(dst, side):
        raise _illegal(what, f"{dst} is not a friendly area (vacant, enemy or contested)")
    if truce_bars(state, side, dst):
        raise _illegal(what, "the Scots may not enter England during a Truce", "5.9")


def _check_victuals(state: GameState, side: str, params: dict[str, Any]) -> None:
    area = _text(params, "area", "victuals")
    steps = _names(params.get("steps"), "steps", "victuals")
    what = f"Victuals in {area}"
    group = _group(state, side, area, what)
    if len(steps) > VICTUALS_STEPS:
        raise _illegal(what, f"{len(steps)} steps listed, only {VICTUALS_STEPS} to give")
    for name in sorted(set(steps)):
        if name not in group:
            raise IllegalOrder(f"{what}: {name} is not a {side} block in {area} ({RULE}){did_you_mean(name, group)}",
                               rule=RULE)
        room = _step_room(state, name)
        if steps.count(name) > room:
            raise _illegal(what, f"{name} can take {room} more step(s), not {steps.count(name)}", "2.11")


# --- resolution ------------------------------------------------------------------------------------

def resolve_event(state: GameState, side: str, card_id: str, params: dict[str, Any], rng: Any,
                  decider: Decider) -> Log:
    """Resolve ``side``'s Event (or the coronation announced with it); returns log entries."""
    event = _event_of(card_id)
    params = dict(params or {})
    shape = validate_event(state, side, card_id, params)
    if shape == "pass":
        return [_public(side, event, {"passed": True})]
    if shape == "coronation":
        return kings.crown(state, str(params["coronation"]), rng, decider)
    return {"herald": _herald, "pillage": _pillage, "sea_move": _sea_move, "truce": _truce,
            "victuals": _victuals}[event](state, side, params, rng, decider)


def _public(by: str, event: str, facts: dict[str, Plain]) -> LogEntry:
    """An Event's public line: it names the side that played it as ``by``, no actor ("side": "")."""
    return LogEntry("event", "", PUBLIC, {"by": by, "event": event, **facts})


def resolve_events(state: GameState, plays: dict[str, tuple[str, dict[str, Any]]], rng: Any,
                   decider: Decider) -> Log:
    """Both sides' Events when both played one: England's first, then Scotland's (3.12)."""
    log: Log = []
    for side in ("england", "scotland"):
        if side in plays and not state.winner:
            card_id, params = plays[side]
            log += resolve_event(state, side, card_id, params, rng, decider)
    return log


def _herald(state: GameState, side: str, params: dict[str, Any], rng: Any, decider: Decider) -> Log:
    noble = params["noble"]
    roll, index = rng.d6_at()
    line = _public(side, "herald", {"noble": noble, "die": roll, "die_index": index})
    if roll > HERALD_SUCCESS:
        line.facts["converted"] = False
        return [line]
    shown = hidden.locate(state, noble) is None
    key = hidden.find(state, noble, HERALD_FOUND)  # with no referee his owner opens which handle he is
    log = [line, *_revealed(state, [key] if shown else [], "3.12")]
    state.blocks[key].owner = side
    line.facts["converted"] = True
    with sofar.writing(log):  # a question in the battle it starts shows the die (sofar.py)
        log += kings.fight_defections(state, [key], rng, decider)
    return log


def _revealed(state: GameState, handles: list[str], rule: str) -> Log:
    return hidden.reveal_line(state, handles, rule)


def _truce(state: GameState, side: str, params: dict[str, Any], rng: Any, decider: Decider) -> Log:
    state.current.truce = side
    return [_public(side, "truce", {})]


def _sea_move(state: GameState, side: str, params: dict[str, Any], rng: Any, decider: Decider) -> Log:
    for name in params["blocks"]:
        state.blocks[name].location = params["to"]
    return [_public(side, "sea_move", {"from": params["from"], "to": params["to"], "count": len(params["blocks"])}),
            LogEntry("event", side, PRIVATE, {"event": "sea_move", "blocks": list(params["blocks"])})]


def _victuals(state: GameState, side: str, params: dict[str, Any], rng: Any, decider: Decider) -> Log:
    for name in params["steps"]:
        _add_step(state, name)
    return [_public(side, "victuals", {"area": params["area"], "steps": len(params["steps"])}),
            LogEntry("event", side, PRIVATE, {"event": "victuals", "blocks": list(params["steps"])})]


def pillage_candidates(state: GameState, area: str, side: str) -> list[str]:
    """Blocks of ``side`` in ``area`` that may take the next Pillage hit: the strongest (5.41).

    "Applied as in combat" (3.12): every block may take a hit, a noble at strength 1 too; his last
    step lost, he is captured (5.7, ``_pillage``).
    """
    here = state.blocks_in(area, side)
    if not here:
        return []
    top = max(state.blocks[n].strength for n in here)
    return sorted(n for n in here if state.blocks[n].strength == top)


def pillage_answer(state: GameState, owner: str, area: str, decider: Decider) -> dict[str, Any]:
    """Where the two hits of a Pillage of ``owner``'s group in ``area`` fall, as in combat (3.12, 5.41): each on
    the strongest block, the owner choosing between equals; ``out`` says whether the hit takes the block's last
    step, and where it then goes (a noble but Moray is captured, 5.7; any other block to the Draw Pool, 5.8).
    Read on a copy; a block nobody has seen counts at its full strength (or the strength a winter sealed, 7.6) less
    the steps it has lost, so with no referee only its owner's client (or the final audit, every fact known) can
    work it out."""
    work = GameState.from_dict(state.to_dict())
    for name in work.blocks_in(area, owner):
        if hidden.unseen_on_map(work, name):
            work.blocks[name].strength = hidden.standing(name, PILLAGE_ANSWER)
    hits: list[dict[str, str]] = []
    for n in range(PILLAGE_HITS):
        tied = pillage_candidates(work, area, owner)
        if not tied:
            break
        name = tied[0] if len(tied) == 1 else checked(decider, Question(
            side=owner, kind="pillage_hit", options=tuple(tied),
            context={"area": area, "hit": n + 1, "of": PILLAGE_HITS}, rule="3.12"))
        b = work.blocks[name]
        b.strength -= 1
        out = "" if b.strength > 0 else "captured" if spec(name).is_noble and spec(name).name != MORAY else "pool"
        if out:
            b.location = POOL
        hits.append({"block": name, "out": out})
    return {"before": hidden.snapshot(state, area, owner), "hits": hits}


def _pillage(state: GameState, side: str, params: dict[str, Any], rng: Any, decider: Decider) -> Log:
    """Two hits on the target group, as in combat (3.12, 5.41); a noble (Moray excepted) whose last
    step is hit is captured (5.7) and joins the pillaging group at strength 1; any other block
    reduced to 0 goes to its Draw Pool, black cross or not (5.8). Each step removed may be added
    to a block of the pillaging group (docs/rules-notes.md). With no referee the hits fall where the
    group's owner's answer, sealed with its card, says (checked at the final audit); without one the group
    is revealed first (docs/hammer-peer.md §3)."""
    target, enemy = params["target"], other_side(side)
    answer = hidden.sealed_answer(state, enemy, target, PILLAGE_ANSWER)
    shown: Log = []
    if answer is None:
        shown = _revealed(state, hidden.reveal(state, state.blocks_in(target, enemy), PILLAGE_SHOWN), "3.12")
        answer = pillage_answer(state, enemy, target, decider)
    hit: list[str] = []
    removed: list[str] = []
    captured: list[str] = []
    for h in answer["hits"]:
        name, out = str(h["block"]), str(h["out"])
        b = state.blocks[name]
        if hidden.unseen_on_map(state, name):
            hidden.wound(name, 1)
        else:
            b.strength -= 1
        hit.append(name)
        if out == "captured":
            shown += _revealed(state, hidden.reveal(state, [name], PILLAGE_CAPTURE), "3.12")
        if out == "captured" and spec(name).is_noble and spec(name).name != MORAY:  # captured as in combat (5.7)
            b.owner, b.strength, b.location = side, 1, params["from"]
            captured.append(name)
        elif out:  # to the Draw Pool, black cross or not (5.8)
            b.location, b.strength = POOL, 0
            hidden.forget_damage(name)
            removed.append(name)
    gained: list[str] = []
    for name in list(params.get("steps_to", []))[:len(hit)]:
        b = state.blocks[name]
        if b.location == params["from"] and b.owner == side and _step_room(state, name) > 0:
            _add_step(state, name)
            gained.append(name)
    public = _public(side, "pillage", {"from": params["from"], "target": target, "hits": len(hit),
                                       "removed": len(removed), "gained": len(gained)})
    if captured:
        public.facts["captured"] = list(captured)  # a noble changing sides is public, as in battle (5.7)
    return [*shown, public,
            LogEntry("event", enemy, PRIVATE, {"event": "pillage", "hit": list(hit), "removed": list(removed)}),
            LogEntry("event", side, PRIVATE, {"event": "pillage", "gained": list(gained)})]


def _add_step(state: GameState, name: str) -> None:
    """One step more (2.11): on a block nobody has seen, one lost step fewer."""
    if hidden.unseen_on_map(state, name):
        hidden.wound(name, -1)
    else:
        state.blocks[name].strength += 1


# --- legal options ------------------------------------------------------------------------------------

def legal_events(state: GameState, side: str, card_id: str | None = None) -> list[dict[str, Any]]:
    """Every legal parameter set for ``side``'s Event (its card this turn unless given), pass last.

    Pillage and Victuals list one sensible distribution of steps per choice of areas; any other
    legal distribution is accepted too.
    """
    card_id = card_id or state.current.cards.get(side, "")
    event = _event_of(card_id)
    out: list[dict[str, Any]] = []
    if side == "scotland":
        out += [{"coronation": c} for c in kings.coronation_candidates(state)]
    legal: dict[str, Callable[[GameState, str], list[dict[str, Any]]]] = {
        "herald": _legal_herald, "pillage": _legal_pillage, "sea_move": _legal_sea_move,
        "truce": lambda s, d: [{}], "victuals": _legal_victuals}
    out += legal[event](state, side)
    out.append({"pass": True})
    return out


def _areas_of(state: GameState, side: str) -> list[str]:
    return sorted({b.location for n, b in state.blocks.items() if b.owner == side and state.on_map(n)})


def _room_of(state: GameState, name: str) -> int:
    """The steps ``name`` may still take (2.11); a handle nobody has seen on the map stands at full strength."""
    return hidden.damage(name) if hidden.unseen_on_map(state, name) else spec(name).steps - state.blocks[name].strength


def _step_room(state: GameState, name: str) -> int:
    """The steps an Event may give ``name`` (2.11: Victuals, a Pillage's steps). A block whose strength a winter's
    builds sealed unseen (7.6) has the room its owner alone knows: its own client (and the final audit, every fact
    known) reads it; any other client allows the three an Event may give, and the rule is checked when the block
    opens (docs/hammer-peer.md §3)."""
    if not hidden.strength_sealed(state, name):
        return _room_of(state, name)
    if hidden.is_known(name):
        return spec(name).steps - hidden.standing(name, "2.11")
    return VICTUALS_STEPS


def _room(state: GameState, names: list[str], count: int) -> list[str]:
    """Up to ``count`` steps for the blocks missing the most, one at a time (name order on ties)."""
    room = {n: _step_room(state, n) for n in names}
    out: list[str] = []
    for _ in range(count):
        short = sorted((-room[n], n) for n in names if room[n] > 0)
        if not short:
            break
        out.append(short[0][1])
        room[short[0][1]] -= 1
    return out


def _legal_herald(state: GameState, side: str) -> list[dict[str, Any]]:
    """The enemy's nobles but Moray (5.7): every one of them stands on the map unless dead or off it
    (only Moray may stand in a Draw Pool, 7.1), so the list depends on public facts only."""
    enemy = other_side(side)
    shown = [hidden.name_of(n) for n, b in state.blocks.items()
             if b.owner == enemy and spec(n).is_noble and b.location not in (DEAD, OFF_MAP)]
    return [{"noble": n} for n in sorted({*shown, *hidden.indexed_nobles(enemy)}) if n != MORAY]


def _legal_pillage(state: GameState, side: str) -> list[dict[str, Any]]:
    out = []
    for src in _areas_of(state, side):
        for target in board().neighbours(src):
            if state.blocks_in(target, other_side(side)):
                out.append({"from": src, "target": target,
                            "steps_to": _room(state, state.blocks_in(src, side), PILLAGE_HITS)})
    return out


def _legal_sea_move(state: GameState, side: str) -> list[dict[str, Any]]:
    coast = [a for a in _areas_of(state, side) if board().area(a).coastal]
    dests = [a for a in coast if state.is_friendly(a, side) and not truce_bars(state, side, a)]
    out = []
    for src in coast:
        movable = [n for n in state.blocks_in(src, side) if spec(n).name != NORSE]  # a handle: its block
        groups = [[n] for n in movable] + [list(p) for p in combinations(movable, 2)]
        for dst in dests:
            if dst != src:
                out += [{"from": src, "to": dst, "blocks": g} for g in groups]
    return out


def _legal_victuals(state: GameState, side: str) -> list[dict[str, Any]]:
    out = []
    for area in _areas_of(state, side):
        steps = _room(state, state.blocks_in(area, side), VICTUALS_STEPS)
        if steps:
            out.append({"area": area, "steps": steps})
    return out
