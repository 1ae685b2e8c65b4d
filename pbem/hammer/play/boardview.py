"""Hammer's board in the browser (docs/board.md): the view model of a report and a draft, and what a
click does to the draft, for the seam's ``BoardRules`` (pbem.core.board).

Legality is never decided here: a destination lights up when the player's check (``drafts.check_draft``,
the referee's own validation on the side's report) accepts the draft with that move added; a Main
Attack is offered when the check accepts it. The choices (card, event parameters, answers, winter
plans, battle plans) are the legal options the report lists, and the check judges the result again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import Any

from pbem.core.board import BoardAction, BoardView, Choice, Panel, Piece
from pbem.core.errors import PbemError
from pbem.core.ruleset import Draft
from pbem.hammer.play import drafts, known
from pbem.hammer.play.order_kinds import rules_for
from pbem.hammer.play.order_kinds.winter import SINGLE_CHOICES
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.events import legal_events
from pbem.hammer.show import render
from pbem.hammer.show.odds import estimates
from pbem.hammer.show.sentences import summary
from pbem.hammer.show.svg import render_svg

STEP_LATER = ("main_attack", "battle_order")  # chosen once the moves are made: left out when trying a destination
ROUNDS = (2, 3)  # the retreat rounds a battle plan offers (docs/plans.md)
Sections = dict[str, Any]


def _draft(d: Draft) -> drafts.Draft:
    if not isinstance(d, drafts.Draft):
        raise InvalidOrder("the board was handed a draft of another game")
    return d


def moves_section(report: dict[str, Any], sections: Sections) -> str:
    """Which section holds this step's moves: ``moves``, or a card order's ``if_player1`` (4.1) unless
    the card played is an Event (its player makes no Move Phase, 3.12); "" when there is none."""
    asks = report.get("asks", "")
    if asks == "moves":
        return "moves"
    play = sections.get("card", {}).get("play", "")
    if asks == "card" and play and not card_of(play).is_event:
        return "if_player1"
    return ""


def _dest(m: dict[str, Any]) -> str:
    """Where a draft's move ends: its ``to`` (or sea move's ``sea_to``), or the last area its parts'
    paths share (4.2); "" when its parts end in different areas."""
    ends = {str((p.get("path") or [""])[-1]) for p in m.get("parts", [])}
    return str(m.get("to") or m.get("sea_to") or (ends.pop() if len(ends) == 1 else ""))


def _blocks(m: dict[str, Any]) -> list[str]:
    return list(m.get("blocks") or [b for p in m.get("parts", []) for b in p.get("blocks", [])])


def _passes(report: dict[str, Any], d: drafts.Draft) -> bool:
    try:
        drafts.check_draft(d, report)
    except PbemError:
        return False
    return True


def _with(d: drafts.Draft, change: Callable[[Sections], None]) -> drafts.Draft:
    sections = copy.deepcopy(d.sections)
    change(sections)
    return drafts.Draft(side=d.side, step=d.step, kind=d.kind, game=d.game, sections=sections)


def _area_of(report: dict[str, Any], piece: str) -> str:
    for b in report["view"]["blocks"]:
        if b["block"] == piece:
            return str(b["area"])
    raise InvalidOrder(f"{piece} is not one of your blocks on the map (2.0)")


def _origin(report: dict[str, Any], pieces: tuple[str, ...]) -> str:
    """The one area a group moves from (4.2): every piece must stand there."""
    if not pieces:
        raise InvalidOrder("select at least one block to move (4.2)")
    areas = {_area_of(report, p) for p in pieces}
    if len(areas) != 1:
        raise InvalidOrder(f"a group move starts from one area (4.2): {', '.join(sorted(areas))} are several")
    return areas.pop()


def _add_move(section: str, origin: str, target: str, pieces: tuple[str, ...]) -> Callable[[Sections], None]:
    """One more entry in the section's moves (entries from one area are one Group move, 4.2)."""
    def change(sections: Sections) -> None:
        sections.setdefault(section, {}).setdefault("moves", []).append(
            {"from": origin, "to": target, "blocks": list(pieces)})
    return change


def _orders(sections: Sections, section: str) -> list[tuple[str, Callable[[Sections], None]]]:
    """The orders so far as sentences, each with how to take it back."""
    out: list[tuple[str, Callable[[Sections], None]]] = []
    part = sections.get(section, {}) if section else {}
    for i, m in enumerate(part.get("moves", [])):
        to = _dest(m) or "/".join(p.get("path", [""])[-1] for p in m.get("parts", []))
        via = f" by {' > '.join(m['parts'][0]['path'])}" if len(m.get("parts", [])) == 1 else \
            "".join(f"; {', '.join(p['blocks'])} by {' > '.join(p['path'])}" for p in m.get("parts", []))
        out.append((f"move {', '.join(_blocks(m))} from {m.get('from')} to {to}{via}",
                    partial(_drop, (section, "moves"), i)))
    for area, main in sorted(part.get("main_attack", {}).items()):
        out.append((f"Main Attack on {area}: the group from {main['from']} via {main['via']} (5.32)",
                    partial(_drop, (section, "main_attack"), area)))
    for i, area in enumerate(part.get("battle_order", [])):
        out.append((f"fight the battle in {area} in this order (5.1)", partial(_drop, (section, "battle_order"), i)))
    for area, pinned in sorted(part.get("pins", {}).items()):
        out.append((f"pinned in {area}: {', '.join(pinned)} (4.6)", partial(_drop, (section, "pins"), area)))
    if "event" in sections and sections["event"]:
        out.append((f"event: {_params_label(sections['event'])}", partial(_put, (), "event", {})))
    return out


def _at(sections: Sections, path: tuple[str, ...]) -> Any:
    """The table or list at ``path`` in the sections, made (as a table) where missing."""
    here: Any = sections
    for key in path:
        here = here.setdefault(key, {})
    return here


def _drop(path: tuple[str, ...], key: Any, sections: Sections) -> None:
    _at(sections, path).pop(key)


def _put(path: tuple[str, ...], key: Any, value: Any, sections: Sections) -> None:
    _at(sections, path)[key] = copy.deepcopy(value)


def _params_label(params: dict[str, Any]) -> str:
    return "; ".join(f"{k} {', '.join(v) if isinstance(v, list) else v}" for k, v in sorted(params.items())) or "pass"


class HammerBoard:
    """The board rules of Hammer of the Scots (pbem.core.board.BoardRules)."""

    def __init__(self) -> None:
        self._map: tuple[dict[str, Any], str] | None = None  # (report, its map): the map is the report's alone

    def _svg(self, report: dict[str, Any]) -> str:
        """The report's map, drawn once per report (every click redraws the view, never the map)."""
        if self._map is None or self._map[0] is not report:
            self._map = (report, render_svg(render.report_view(report)))
        return self._map[1]

    def start(self, report: dict[str, Any]) -> Draft:
        if not report.get("asks"):  # nothing owed: the board only shows the report
            return drafts.Draft(str(report["side"]), int(report["step"]), "", str(report.get("game", "")))
        return drafts.parse_draft(drafts.template(report), "the board's first draft")

    def view(self, report: dict[str, Any], draft: Draft, earlier: list[dict[str, Any]]) -> BoardView:
        d = _draft(draft)
        section = moves_section(report, d.sections)
        v = report["view"]
        moved = {b for m in d.sections.get(section, {}).get("moves", []) for b in _blocks(m)}
        reach = report.get("options", {}).get("moves", {}) if section else {}
        pieces = tuple(Piece(b["block"], b["area"], f"{b['block']} {b['strength']}/{b['steps']}") for b in v["blocks"]
                       if reach.get(b["area"], {}).get(b["block"]) and b["block"] not in moved)
        title = f"{v['side']} - step {report['step']} - {v['scenario']} {v['year']}"
        return BoardView(title=title, asks=str(report.get("asks", "")), svg=self._svg(report),
                         pieces=pieces, choices=tuple(self._choices(report, d, section)),
                         orders=tuple(text for text, _ in _orders(d.sections, section)),
                         panels=tuple(_panels(report, earlier)), draft=drafts.dump_draft(d),
                         arrows=tuple((str(m["from"]), _dest(m))
                                      for m in d.sections.get(section, {}).get("moves", []) if section))

    def dests(self, report: dict[str, Any], draft: Draft, pieces: tuple[str, ...]) -> tuple[str, ...]:
        d = _draft(draft)
        section = moves_section(report, d.sections)
        if not section:
            return ()
        origin = _origin(report, pieces)
        bare = _with(d, partial(_strip, section))
        return tuple(area for area in board().area_names() if area != origin
                     and _passes(report, _with(bare, _add_move(section, origin, area, pieces))))

    def act(self, report: dict[str, Any], draft: Draft, action: BoardAction) -> Draft:
        d = _draft(draft)
        section = moves_section(report, d.sections)
        if action.type == "move":
            if not section:
                raise InvalidOrder(f"a {d.kind} order makes no moves")
            return _with(d, _add_move(section, _origin(report, action.pieces), action.target, action.pieces))
        if action.type == "remove":
            orders = _orders(d.sections, section)
            if not 0 <= action.index < len(orders):
                raise InvalidOrder(f"there is no order number {action.index + 1} to take back")
            return _with(d, orders[action.index][1])
        for choice, change in self._changes(report, d, section):
            if choice.id == action.choice:
                return _with(d, change)
        raise InvalidOrder(f"{action.choice!r} is not one of the choices the board offers now")

    def _choices(self, report: dict[str, Any], d: drafts.Draft, section: str) -> list[Choice]:
        return [c for c, _ in self._changes(report, d, section)]

    def _changes(self, report: dict[str, Any], d: drafts.Draft,
                 section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
        """Every choice the board offers now, with what choosing it does to the draft's sections."""
        out: list[tuple[Choice, Callable[[Sections], None]]] = []
        options = report.get("options", {})
        sections = d.sections
        if d.kind == "card":
            play = sections.get("card", {}).get("play", "")
            for c in options.get("hand", []):
                out.append((Choice(f"card:{c}", f"{c} ({card_of(c).name})", "Play a card (3.1)", c == play),
                            partial(_play, c)))
            if play and card_of(play).is_event:
                g = known.game_from_view(report["view"])
                out += _event_choices(legal_events(g, report["side"], play), sections.get("event"))
        if d.kind == "event":
            out += _event_choices(options.get("event_params", []), sections.get("event"))
        if section:
            out += _path_choices(report, d, section)
            out += _split_choices(report, d, section)
            out += _main_attack_choices(report, d, section)
            out += _battle_order_choices(report, d, section)
            out += _pin_choices(report, d, section)
        if d.kind == "decide":
            out += _answer_choices(options, sections.get("decide", {}))
        if d.kind == "winter":
            out += _winter_choices(options.get("winter_plan", {}), sections.get("winter", {}))
            out += _build_choices(report, d, options.get("winter_plan", {}).get("builds", {}))
        if d.kind and "plans" in rules_for(d.kind).sections:
            out += _plan_choices(sections.get("plans", {}))
        return out


def _strip(section: str, sections: Sections) -> None:
    for key in STEP_LATER:
        sections.get(section, {}).pop(key, None)


def _play(c: str, sections: Sections) -> None:
    sections["card"] = {"play": c}
    sections.pop("event", None)
    if card_of(c).is_event:
        sections.pop("if_player1", None)
        sections["event"] = {}
    else:
        sections.setdefault("if_player1", {"moves": []})


def _event_choices(params: list[dict[str, Any]], now: Any) -> list[tuple[Choice, Callable[[Sections], None]]]:
    return [(Choice(f"event:{i}", _params_label(p), "The event's parameters (3.12)", p == now),
             partial(_put, (), "event", p)) for i, p in enumerate(params)]


def _paths(origin: str, target: str, longest: int) -> list[tuple[str, ...]]:
    """Every path from ``origin`` to ``target`` of at most ``longest`` borders, no area entered twice nor
    the origin again (4.x: docs/orders.md "Paths"), shortest first, then by name (the ``to`` order)."""
    out: list[tuple[str, ...]] = []
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(longest):
        grown: list[tuple[str, ...]] = []
        for path in frontier:
            for nxt in sorted(board().neighbours(path[-1] if path else origin)):
                if nxt == origin or nxt in path:
                    continue
                (out if nxt == target else grown).append((*path, nxt))
        frontier = grown
    return sorted(out, key=lambda p: (len(p), p))


def _path_choices(report: dict[str, Any], d: drafts.Draft,
                  section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """A move's own path (docs/orders.md "Paths", 4.0-4.4): for each land move of one part whose target
    more than one path reaches, each path the check accepts in its place (the ``to`` shorthand lets the
    referee take the first legal one; this names it)."""
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    moves = d.sections.get(section, {}).get("moves", [])
    for i, m in enumerate(moves):
        blocks, target = _blocks(m), _dest(m)
        if m.get("sea_to") or len(m.get("parts", [None])) != 1 or not target or not blocks:
            continue
        if len(_ways(moves, (str(m["from"]), target))) > len(blocks):
            continue  # a part of a split group: each block's own path is offered (_split_choices)
        now = tuple(m["parts"][0].get("path", [])) if m.get("parts") else ()
        offered = []
        for path in _paths(str(m["from"]), target, max(spec(b).move for b in blocks)):
            move = {"from": m["from"], "parts": [{"blocks": blocks, "path": list(path)}]}
            change = partial(_put, (section, "moves"), i, move)
            if path == now or _passes(report, _with(d, change)):
                offered.append((Choice(f"path:{i}:{'>'.join(path)}", " > ".join(path),
                                       f"Path of {', '.join(blocks)} from {m['from']} to {target} (4.3)",
                                       path == now), change))
        if len(offered) > 1:
            out += offered
    return out


def _way(m: dict[str, Any]) -> tuple[str, str] | None:
    """(origin, destination) of a land move entry: a ``to`` shorthand, or parts whose paths all end in one
    area; None for a sea move or parts that end apart."""
    target = _dest(m)
    return None if m.get("sea_to") or not target else (str(m.get("from")), target)


def _ways(moves: list[dict[str, Any]], way: tuple[str, str]) -> dict[str, tuple[str, ...]]:
    """Each block the entries from ``way``'s origin to its destination move, with its own path (() where
    the ``to`` shorthand lets the referee take the first legal one), in the draft's order."""
    out: dict[str, tuple[str, ...]] = {}
    for m in moves:
        if _way(m) == way:
            for part in m.get("parts") or [{"blocks": m.get("blocks", []), "path": []}]:
                out.update(dict.fromkeys(part.get("blocks", []), tuple(part.get("path", []))))
    return out


def _split(section: str, way: tuple[str, str], block: str, path: tuple[str, ...], sections: Sections) -> None:
    """``block`` takes ``path`` and the others of its group keep theirs (4.2: each part its own path): the
    entries from the origin to the destination become one ``{from, parts}`` move, a part per path, and a
    ``to`` move for the blocks with no path of their own, where the first such entry stood."""
    moves = sections[section]["moves"]
    ways = _ways(moves, way)
    ways[block] = path
    by_path: dict[tuple[str, ...], list[str]] = {}
    for b, p in ways.items():
        by_path.setdefault(p, []).append(b)
    origin, target = way
    new: list[dict[str, Any]] = [{"from": origin, "parts": [{"blocks": bs, "path": list(p)}
                                                             for p, bs in by_path.items() if p]}]
    if () in by_path:
        new.append({"from": origin, "to": target, "blocks": by_path[()]})
    first = next(i for i, m in enumerate(moves) if _way(m) == way)
    sections[section]["moves"] = moves[:first] + new + [m for m in moves[first:] if _way(m) != way]


def _split_choices(report: dict[str, Any], d: drafts.Draft,
                   section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """A group split into parts with their own paths (4.2, 4.3; docs/orders.md "Paths"): for each group
    of two blocks or more moving from one area to another, each block's paths the check accepts with
    the others' as they stand, where it accepts more than one; a click gives that block that path."""
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    moves = d.sections.get(section, {}).get("moves", [])
    for way in dict.fromkeys(w for w in map(_way, moves) if w is not None):
        ways = _ways(moves, way)
        if len(ways) < 2:
            continue
        for block, now in ways.items():
            offered = []
            for path in _paths(way[0], way[1], spec(block).move):
                change = partial(_split, section, way, block, path)
                if path == now or _passes(report, _with(d, change)):
                    offered.append((Choice(f"split:{way[0]}>{way[1]}:{block}:{'>'.join(path)}",
                                           f"{block} by {' > '.join(path)}",
                                           f"Each block's own path from {way[0]} to {way[1]} (4.2, 4.3)",
                                           path == now), change))
            if len(offered) > 1:
                out += offered
    return out


def _main_attack_choices(report: dict[str, Any], d: drafts.Draft,
                         section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """For each area the draft's moves enter from more than one origin: each (origin, via) the check
    accepts as its Main Attack (5.32), tried as the referee would judge it."""
    moves = d.sections.get(section, {}).get("moves", [])
    origins: dict[str, set[str]] = {}
    for m in moves:
        if _dest(m) and not m.get("sea_to"):
            origins.setdefault(_dest(m), set()).add(m["from"])
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    chosen = d.sections.get(section, {}).get("main_attack", {})
    for area, froms in sorted(origins.items()):
        if len(froms) < 2 and area not in chosen:
            continue
        for origin in sorted(froms):
            for via in [*sorted(board().neighbours(area)), "sea"]:
                main = {"from": origin, "via": via}
                change = partial(_put, (section, "main_attack"), area, main)
                if chosen.get(area) == main or _passes(report, _with(d, change)):
                    out.append((Choice(f"main:{area}:{origin}:{via}", f"{area}: from {origin} via {via}",
                                       "Main Attack (5.32)", chosen.get(area) == main), change))
    return out


def _battle_order_choices(report: dict[str, Any], d: drafts.Draft,
                          section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """Player 1's battle order (5.1): each area with a battle, or entered by the draft's moves, that the
    check accepts next in the order."""
    part = d.sections.get(section, {})
    order = part.get("battle_order", [])
    areas = {b["area"] for b in report["view"].get("battles", [])} | {_dest(m) for m in part.get("moves", [])
                                                                      if m.get("to") or m.get("parts")}
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    for area in sorted(areas - set(order)):
        change = partial(_append, (section, "battle_order"), area)
        if _passes(report, _with(d, change)):
            out.append((Choice(f"order:{area}", f"{area} (battle {len(order) + 1})", "Battles fought first (5.1)"),
                        change))
    return out


def _append(path: tuple[str, ...], item: str, sections: Sections) -> None:
    here: Any = sections
    for key in path[:-1]:
        here = here.setdefault(key, {})
    here.setdefault(path[-1], []).append(item)


def _pin_choices(report: dict[str, Any], d: drafts.Draft,
                 section: str) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """Player 2's pins (4.6): in each area the enemy attacked, each set of the side's blocks there the
    check accepts as the pinned ones (without pins, the blocks that do not move are pinned)."""
    v = report["view"]
    if section != "moves" or v.get("player1") == v["side"]:
        return []
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    chosen = d.sections.get(section, {}).get("pins", {})
    for battle in v.get("battles", []):
        area = battle["area"]
        if battle.get("attacker") == v["side"]:
            continue
        mine = sorted(b["block"] for b in v["blocks"] if b["area"] == area)
        for n in range(1, len(mine) + 1):
            for pinned in combinations(mine, n):
                change = partial(_put, (section, "pins"), area, list(pinned))
                if chosen.get(area) == list(pinned) or _passes(report, _with(d, change)):
                    out.append((Choice(f"pin:{area}:{'+'.join(pinned)}", ", ".join(pinned), f"Pinned in {area} (4.6)",
                                       chosen.get(area) == list(pinned)), change))
    return out


def _answer_choices(options: dict[str, Any], now: dict[str, Any]) -> list[tuple[Choice, Callable[[Sections], None]]]:
    asked = options.get("questions") or ([options["question"]] if options.get("question") else [])
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    answers = now.get("answers") or ([now["answer"]] if "answer" in now else [])
    for qi, q in enumerate(asked):
        where = " ".join(f"{k} {q['context'][k]}" for k in sorted(q.get("context", {})))
        group = f"Question {qi + 1}: {q['kind']} ({q.get('rule', '')}) {where}".rstrip()
        for option in q.get("options", []):
            picked = qi < len(answers) and answers[qi] == option
            out.append((Choice(f"answer:{qi}:{option}", option, group, picked), partial(_answer, asked, qi, option)))
    return out


def _answer(asked: list[dict[str, Any]], qi: int, option: str, sections: Sections) -> None:
    """Answer question ``qi``; the questions not answered yet take their first option (their default)."""
    old = sections.get("decide", {})
    got = list(old.get("answers") or ([old["answer"]] if "answer" in old else []))
    got += [(q.get("options") or [""])[0] for q in asked[len(got):]]
    got[qi] = option
    sections["decide"] = {"answers": got} if len(asked) > 1 else {"answer": got[0]}


def _winter_choices(legal: dict[str, Any], now: dict[str, Any]) -> list[tuple[Choice, Callable[[Sections], None]]]:
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    for key in SINGLE_CHOICES:
        for value in legal.get(key, []):
            out.append((Choice(f"winter:{key}:{value}", str(value), f"Winter: {key} (7.0)", now.get(key) == value),
                        partial(_put, ("winter",), key, value)))
    for noble, homes in sorted(legal.get("homes", {}).items()):
        for home in homes:
            out.append((Choice(f"winter:homes.{noble}:{home}", home, f"Winter: {noble} goes home to (7.12)",
                               now.get("homes", {}).get(noble) == home),
                        partial(_put, ("winter", "homes"), noble, home)))
    # The list keys: each item toggled in or out, in the order clicked (the plan's order of preference).
    for key, group in LIST_KEYS:
        for item in legal.get(key, []):
            out.append((Choice(f"winter:{key}:{item}", item, group, item in now.get(key, [])),
                        partial(_toggle, key, item)))
    return out


def _build_choices(report: dict[str, Any], d: drafts.Draft,
                   legal: dict[str, Any]) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """The winter builds (7.6, docs/orders.md "Winter"): one entry per Replacement Point of each area (its
    Castle Limit for the side, 7.6), in order. The first RP's entry is offered as ever; each next one once
    the one before it is set and is not ``pass`` (a pass forfeits the rest), and only where the check
    accepts the plan with it."""
    side = str(report["side"])
    now = d.sections.get("winter", {}).get("builds", {})
    out: list[tuple[Choice, Callable[[Sections], None]]] = []
    for area, builds in sorted(legal.items()):
        got = list(now.get(area, []))
        rps = board().area(area).castle_limit(side)
        for rp in range(min(rps, len(got) + 1)):
            if rp and got[rp - 1] == "pass":
                break
            for build in builds:
                picked = rp < len(got) and got[rp] == build
                change = partial(_build, area, rp, build)
                if rp and not picked and not _passes(report, _with(d, change)):
                    continue
                choice = f"winter:builds.{area}:{build}" if rp == 0 else f"winter:builds.{area}.{rp + 1}:{build}"
                out.append((Choice(choice, build, f"Winter: build in {area}, RP {rp + 1} of {rps} (7.6)", picked),
                            change))
    return out


def _build(area: str, rp: int, build: str, sections: Sections) -> None:
    """Set the entry of the area's RP ``rp`` (0 the first); a pass drops the entries after it."""
    got = _at(sections, ("winter", "builds")).setdefault(area, [])
    if rp < len(got):
        got[rp] = build
    else:
        got.append(build)
    if build == "pass":
        del got[rp + 1:]


# The winter plan's list keys as the board groups them (docs/orders.md "Winter"): blocks to disband
# over a Castle Limit, blocks to release by choice, and the questions to be asked about instead.
LIST_KEYS = (("disband", "Winter: disband when over the Castle Limit, in this order (7.31)"),
             ("release", "Winter: disband by choice though within limits (7.32, 7.5)"),
             ("ask", "Winter: ask me instead, in a decide step"))


def _toggle(key: str, item: str, sections: Sections) -> None:
    items = sections.setdefault("winter", {}).setdefault(key, [])
    if item in items:
        items.remove(item)
    else:
        items.append(item)


def _plan_choices(now: dict[str, Any]) -> list[tuple[Choice, Callable[[Sections], None]]]:
    """Standing battle plans (docs/plans.md): retreat when outnumbered, or from a round on."""
    battle = now.get("battle", {})
    group = "Standing battle plans (docs/plans.md)"
    out: list[tuple[Choice, Callable[[Sections], None]]] = [
        (Choice("plans:outnumbered", "retreat when outnumbered", group, bool(battle.get("retreat_if_outnumbered"))),
         _flip)]
    for n in ROUNDS:
        out.append((Choice(f"plans:round:{n}", f"retreat from round {n}", group, battle.get("retreat_from_round") == n),
                    partial(_set_round, n)))
    return out


def _flip(sections: Sections) -> None:
    battle, key = _at(sections, ("plans", "battle")), "retreat_if_outnumbered"
    if battle.get(key):
        battle.pop(key)
    else:
        battle[key] = True


def _set_round(n: int, sections: Sections) -> None:
    battle = _at(sections, ("plans", "battle"))
    if battle.get("retreat_from_round") == n:
        battle.pop("retreat_from_round")
    else:
        battle["retreat_from_round"] = n


def _panels(report: dict[str, Any], earlier: list[dict[str, Any]]) -> list[Panel]:
    """The side panel: the turn, since your last report, battles with their exact odds, pools and
    cards, this step die by die, and the game so far (the summaries of this side's earlier reports)."""
    v = render.report_view(report)
    v["odds"] = estimates(v, [b["area"] for b in render.pending_battles(v)])
    story = [f"step {r.get('step')}: {line}." for r in earlier
             for line in summary(render.report_view(r).get("log", []), str(report["side"]))]
    parts = [("The turn", render.header_lines(v)), ("Since your last report", render.since_last(v)[1:]),
             ("Battles to fight, with your odds", render.battle_lines(v)), ("Pools and cards", render.list_lines(v)),
             ("This step, die by die", render.log_lines(v)[1:]), ("The game so far", story)]
    return [Panel(title, tuple(lines)) for title, lines in parts if lines]


__all__ = ["HammerBoard", "moves_section"]
