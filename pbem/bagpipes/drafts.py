"""The player's side of the seam: an order template, a draft check on the player's own view, a text report.

Why on the view: a player has only its report, so its checks use public facts and its own hand;
the referee then runs the full check (``engine.check``) on the real table, with the same words.
"""

from __future__ import annotations

from typing import Any

from pbem.bagpipes.bots import _chooses, safe_order
from pbem.bagpipes.engine import badge_refusal, preference_refusal, stay_home_refusal
from pbem.bagpipes.fields import Seating, ignored
from pbem.bagpipes.model import KIND_FIELDS, REFEREE, parse_order
from pbem.core.errors import FormatError, IllegalOrder, InvalidOrder

TIMING_OF_KIND = {"plan": "axe", "turn": "axe"}


def template(view: dict[str, Any], seat: str) -> dict[str, Any]:
    """A valid order of the kind the seat owes now (the deadline's default, made from the view)."""
    kind = view["owes"].get(seat, "")
    if not kind:
        raise InvalidOrder(f"{seat} owes no order now.")
    return safe_order(view, seat, kind)


def check_draft(view: dict[str, Any], seat: str, body: Any) -> None:
    """What a player can check before sealing: kind, round, fields, cards in hand, targets, loyalty."""
    order = parse_order(body, f"draft of {seat}")
    owed = view["owes"].get(seat)
    if owed is None:
        raise IllegalOrder(f"{seat} owes no order now.")
    if order.kind != owed:
        raise InvalidOrder(f"{seat} owes a {owed!r} order now, not {order.kind!r}.")
    if order.round != view["round"]:
        raise InvalidOrder(f"order for round {order.round}, but this is round {view['round']}.")
    seats = [s["id"] for s in view["seats"]]
    stray = ignored(order, KIND_FIELDS[order.kind], Seating.of_view(view, seat, _chooses(view, seat)))
    if stray:
        raise IllegalOrder(stray + ".")
    if order.talk is not None and order.talk.to not in ["all", REFEREE] + seats:
        raise InvalidOrder(f"talk.to {order.talk.to!r}: send to \"all\" or one of {', '.join(seats)}.")
    held = {c["card"] for c in view.get("hand", [])} | {c["face"] for c in view.get("hand", [])}
    held |= {c for c, _ in _x2(view, seat)} | {c.split("#")[0] for c, _ in _x2(view, seat)}
    timings = {c["face"]: c["timing"] for c in view.get("hand", [])}
    plays: list[tuple[Any, str]] = []
    if order.kind == "plan":
        plays = [(p, "axe") for alt in order.program for p in alt.turn.cards]
        refusal = preference_refusal(seat, order.badge.prefer, order.stay_home.prefer, view["badge_prev_giver"],
                                     view["badge"], view["stay_home_prev_giver"])
        if refusal:
            raise IllegalOrder(refusal + ".")
    elif order.kind == "turn" and order.turn is not None:
        plays = [(p, "axe") for p in order.turn.cards]
    elif order.kind == "choice":
        plays = [(p, "tokens") for p in order.tokens.play] + [(p, "purse") for p in order.purse.play]
        if _chooses(view, seat) and order.loyalty is None:
            raise IllegalOrder("choose loyalty = \"scotland\" or \"england\" [SB-5.4].")
        if not _chooses(view, seat) and order.loyalty is not None:
            raise IllegalOrder(f"{seat} lays no choice token this round [SB-5.4], [SB-11].")
        if order.dagger is not None and order.dagger not in view.get("my_dagger_hand", []):
            raise IllegalOrder(f"{seat} holds no dagger card {order.dagger!r} [SB-10].")
    elif order.kind == "window":
        plays = [(p, view["asking"]["window"]) for p in order.cards]
    elif order.kind in ("badge", "stay_home"):
        candidates = list(view["asking"].get("candidates", []))
        if order.to not in candidates:
            raise IllegalOrder((badge_refusal(order.to, seat, view["badge_prev_giver"], candidates)
                                if order.kind == "badge" else
                                stay_home_refusal(order.to, seat, view["badge"], view["stay_home_prev_giver"],
                                                  candidates)) + ".")
    for play, timing in plays:
        if play.card not in held:
            raise IllegalOrder(f"{seat} holds no card {play.card!r}.")
        face = play.card.split("#")[0]
        if face in timings and timings[face] != timing:
            raise IllegalOrder(f"{face} is a {timings[face]} card, not a {timing} card [SB-6].")
        for target in play.targets:
            if target not in seats:
                raise IllegalOrder(f"target {target!r} is not a seat.")


def _x2(view: dict[str, Any], seat: str) -> list[list[Any]]:
    me = next((s for s in view["seats"] if s["id"] == seat), None)
    return list(me["x2_face_up"]) if me else []


def render_text(report: dict[str, Any]) -> str:
    """A plain-text report for mail: the board, your hand and daggers, what happened, talk, what you owe."""
    v = report["view"]
    lines = [f"Swords and Bagpipes - {report.get('game', '')} - step {report.get('step', 0)} - "
             f"round {v['round']} of {v['rounds']} - you are {report['side']}"]
    if report.get("cards"):
        lines.append(f"Cards: {report['cards']} (the game's component file)")
    card = v.get("round_card")
    if card:
        lines.append(f"English Arms: {card['title']}: strength {card['english_strength']}, bonnet "
                     f"{card['gold_scots_win']}, pierced bonnet {card['gold_scots_lose']}, crown {card['gold_crown']}"
                     f"{' (split)' if card['crown_split'] else ' (each)'}. {card['text']}")
    lines.append(f"Scotland's Fields {v['fields']}; defeats {v['defeats']} of {v['defeats_to_lose']}; "
                 f"Badge of Honour: {v['badge']}" + (f"; Stay Home!: {v['stay_home']}" if v["stay_home"] else ""))
    for s in v["seats"]:
        extra = f", {s['bagpipe_cards']} bagpipe card(s), {s['dagger_cards']} dagger card(s)" \
            if "bagpipe_cards" in s else ""
        lines.append(f"  {s['id']}: gold {s['gold']}, castle {s['castle']}, camp {s['camp']}{extra}")
    if "hand" in v:
        lines.append("Your hand: " + (", ".join(f"{c['title']} [{c['timing']}] ({c['card']})" for c in v["hand"])
                                      or "no bagpipe cards"))
        lines.append(f"Your daggers: {v['my_dagger_total']}" + (f"; dagger hand {', '.join(v['my_dagger_hand'])}"
                                                               if "my_dagger_hand" in v else ""))
    lines += ["What happened:"] + [f"  {e['text']}" for e in report["log"]]
    lines += [f"Message from {m['from']} to {m['to']}: {m['text']}" for m in report.get("talk", [])]
    if report["result"]["winners"] or report["result"]["reason"]:
        lines.append(
            f"Game over: {', '.join(report['result']['winners']) or 'no winner'} - {report['result']['reason']}"
        )
    elif report["asks"]:
        lines.append(f"You owe: a {report['asks']} order.")
    return "\n".join(lines) + "\n"


__all__ = ["template", "check_draft", "render_text", "FormatError"]
