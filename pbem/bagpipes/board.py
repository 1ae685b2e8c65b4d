"""Swords and Bagpipes' board in the browser (docs/board.md): no map, so every order is a choice.

Its plays, picks and loyalty are ``choose`` actions (pbem.core.board): each choice offered is a
change to the draft that the player's check (``drafts.check_draft``, the referee's validation on the
seat's own view) accepts, tried before it is offered, as Hammer's destinations are.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

from pbem.bagpipes import drafts
from pbem.bagpipes.drafts import BagpipesDraft
from pbem.bagpipes.tableview import table_svg
from pbem.core.board import BoardAction, BoardView, Choice, Panel
from pbem.core.errors import InvalidOrder, PbemError
from pbem.core.ruleset import Draft

Fields = dict[str, Any]
REPLENISH = ("collect_taxes", "raise_militia", "assemble_troops", "hire_mercenaries")  # [SB-5.2]
SIDES = ("scotland", "england")  # a loyalty token [SB-5.4]
GIVEAWAY = ("keep", "give")  # [SB-10]
Change = Callable[[Fields], None]


def _draft(d: Draft) -> BagpipesDraft:
    if not isinstance(d, BagpipesDraft):
        raise InvalidOrder("the board was handed a draft of another game")
    return d


def _with(d: BagpipesDraft, change: Change) -> BagpipesDraft:
    fields = copy.deepcopy(d.fields)
    change(fields)
    return BagpipesDraft(d.side, d.step, d.kind, d.game, fields)


def _turn(kind: str, fields: Fields) -> dict[str, Any]:
    """The turn a ``turn`` order sends, or a plan's first alternative [SB-5.2], made where missing."""
    if kind == "turn":
        turn: dict[str, Any] = fields.setdefault("turn", {})
        return turn
    program = fields.setdefault("program", [])
    if not program:
        program.append({"turn": {}})
    first: dict[str, Any] = program[0].setdefault("turn", {})
    return first


def _set_turn(kind: str, key: str, value: Any, fields: Fields) -> None:
    _turn(kind, fields)[key] = value


def _toggle_play(key: str, play: dict[str, Any], kind: str, fields: Fields) -> None:
    plays = _turn(kind, fields).setdefault("cards", []) if kind in ("turn", "plan") else fields.setdefault(key, [])
    if play in plays:
        plays.remove(play)
    else:
        plays.append(dict(play))


def _put(key: str, value: Any, fields: Fields) -> None:
    fields[key] = copy.deepcopy(value)


def _plays(view: dict[str, Any], timing: str, seat: str) -> list[dict[str, Any]]:
    """Every play of a card of ``timing`` the seat holds: one per target seat for a targeted card."""
    cards = [c for c in [*view.get("hand", []), *view.get("my_x2_face_up", [])] if c["timing"] == timing]
    others = [s["id"] for s in view["seats"] if s["id"] != seat]
    out: list[dict[str, Any]] = []
    for c in cards:
        if c.get("targets") == "one_player":
            out += [{"card": c["card"], "targets": [o]} for o in others]
        else:
            out.append({"card": c["card"]})
    return out


def _label(play: dict[str, Any]) -> str:
    return str(play["card"]) + (f" on {', '.join(play['targets'])}" if play.get("targets") else "")


class BagpipesBoard:
    """The board rules of Swords and Bagpipes (pbem.core.board.BoardRules)."""

    def start(self, report: dict[str, Any]) -> Draft:
        if not report.get("asks"):  # nothing owed: the board only shows the report
            return BagpipesDraft(str(report["side"]), int(report["step"]), "", str(report.get("game", "")))
        order = drafts.template(report["view"], str(report["side"]))
        return BagpipesDraft(str(report["side"]), int(report["step"]), str(order["kind"]), str(report.get("game", "")),
                             {k: v for k, v in order.items() if k not in ("game", "side", "step", "kind")})

    def view(self, report: dict[str, Any], draft: Draft, earlier: list[dict[str, Any]]) -> BoardView:
        d = _draft(draft)
        v = report["view"]
        text = drafts.render_text(report).splitlines()  # it holds what happened and the messages already
        panels = [Panel("Your report", tuple(line for line in text if line.strip()))]
        return BoardView(title=f"{report['side']} - step {report['step']} - round {v.get('round', '')}",
                         asks=str(report.get("asks", "")), svg=table_svg(v), pieces=(),
                         choices=tuple(c for c, _ in self._changes(report, d)), orders=(),
                         panels=tuple(panels), draft=drafts.dump(d))

    def dests(self, report: dict[str, Any], draft: Draft, pieces: tuple[str, ...]) -> tuple[str, ...]:
        return ()  # no map: nothing moves by pieces

    def act(self, report: dict[str, Any], draft: Draft, action: BoardAction) -> Draft:
        d = _draft(draft)
        if action.type != "choose":
            raise InvalidOrder(f"Swords and Bagpipes has no map: its orders are choices, not a {action.type}")
        for choice, change in self._changes(report, d):
            if choice.id == action.choice:
                return _with(d, change)
        raise InvalidOrder(f"{action.choice!r} is not one of the choices the board offers now")

    def _changes(self, report: dict[str, Any], d: BagpipesDraft) -> list[tuple[Choice, Change]]:
        """The candidate changes for the kind owed, each offered only when the check accepts the result
        (a chosen one is always shown, so it can be seen and taken back)."""
        view, seat, kind = report["view"], d.side, d.kind
        asking = view.get("asking") or {}
        found: list[tuple[str, str, str, Any, Change]] = []  # id, label, group, is-chosen test, change
        now = copy.deepcopy(d.fields)
        turn = _turn(kind, now) if kind in ("turn", "plan") else {}
        if kind in ("turn", "plan"):
            for r in REPLENISH:
                found.append((f"replenish:{r}", r.replace("_", " "), "Your turn: replenish [SB-5.2]",
                              turn.get("replenish") == r, partial(_set_turn, kind, "replenish", r)))
            for n in ("all", 0):
                found.append((f"relocate:{n}", f"relocate {n}", "Your turn: castle to camp [SB-5.2]",
                              turn.get("relocate") == n, partial(_set_turn, kind, "relocate", n)))
            for p in _plays(view, "axe", seat):
                found.append((f"play:{_label(p)}", _label(p), "Your turn: cards played [SB-5.2]",
                              p in turn.get("cards", []), partial(_toggle_play, "cards", p, kind)))
        if kind == "plan":
            for c in [s["id"] for s in view["seats"] if s["id"] != seat]:
                found.append((f"badge:{c}", c, "Badge of Honour to [SB-5.3]",
                              d.fields.get("badge", {}).get("prefer") == [c],
                              partial(_put, "badge", {"prefer": [c], "ask": False})))
                found.append((f"stay_home:{c}", c, "Stay Home! badge to [SB-11]",
                              d.fields.get("stay_home", {}).get("prefer") == [c],
                              partial(_put, "stay_home", {"prefer": [c], "ask": False})))
        if kind in ("badge", "stay_home"):
            for c in asking.get("candidates", []):
                found.append((f"to:{c}", c, f"{kind.replace('_', ' ')} to", d.fields.get("to") == c,
                              partial(_put, "to", c)))
        if kind == "home_actions":
            for r in REPLENISH:
                found.append((f"home:{r}", f"three times {r.replace('_', ' ')}", "Sent home: replenish [SB-11]",
                              d.fields.get("replenish") == [r] * 3, partial(_put, "replenish", [r] * 3)))
        if kind == "choice":
            for s in SIDES:
                found.append((f"loyalty:{s}", s, "Your loyalty, sealed [SB-5.4]", d.fields.get("loyalty") == s,
                              partial(_put, "loyalty", s)))
            for dagger in view.get("my_dagger_hand", []):
                found.append((f"dagger:{dagger}", str(dagger), "Your dagger [SB-10]", d.fields.get("dagger") == dagger,
                              partial(_put, "dagger", dagger)))
        if kind in ("choice", "giveaway"):
            for g in GIVEAWAY:
                found.append((f"giveaway:{g}", g, "The badge after the tokens window [SB-10]",
                              d.fields.get("giveaway") == g, partial(_put, "giveaway", g)))
        if kind == "window":
            for p in _plays(view, str(asking.get("window", "")), seat):
                found.append((f"play:{_label(p)}", _label(p), "Cards played in this window",
                              p in d.fields.get("cards", []), partial(_toggle_play, "cards", p, kind)))
        return [(Choice(i, label, group, bool(chosen)), change) for i, label, group, chosen, change in found
                if chosen or _passes(report, _with(d, change))]


def _passes(report: dict[str, Any], d: BagpipesDraft) -> bool:
    try:
        drafts.check_draft(report["view"], d.side, d.body())
    except PbemError:
        return False
    return True


__all__ = ["BagpipesBoard"]
