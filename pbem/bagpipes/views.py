"""What each seat may know: the public board, one seat's view, one seat's report (docs/bagpipes-notes.md §5).

Why built from the table field by field: a view lists what may be shown, so a new secret field
is hidden until someone decides otherwise (the non-interference tests check it).
"""

from __future__ import annotations

from typing import Any

from pbem.bagpipes.components import Components, dagger_value, face_of
from pbem.bagpipes.engine import clockwise, defeats_to_lose
from pbem.bagpipes.model import REFEREE, Phase, Table, to_data


def round_card_data(comps: Components, card_id: str) -> dict[str, Any]:
    c = comps.round_card(card_id)
    return {"id": c.id, "title": c.title, "english_strength": c.english_strength, "gold_scots_win": c.gold_scots_win,
            "gold_scots_lose": c.gold_scots_lose, "gold_crown": c.gold_crown, "crown_split": c.crown_split,
            "text": c.text}


def public(t: Table, comps: Components) -> dict[str, Any]:
    two = t.options.players == 2
    over = t.phase == Phase.OVER
    seats = []
    for s in t.seats:
        row: dict[str, Any] = {"id": s.id, "gold": s.gold, "castle": s.castle, "camp": s.camp,
                               "x2_face_up": sorted([c, r] for c, r in s.x2_up),
                               "virtual_daggers": s.virtual_daggers}
        if t.options.hand_counts_public:
            row["bagpipe_cards"] = len(s.hand)
            row["dagger_cards"] = len(s.dagger_hand) if two else len(s.daggers)
        if two:
            row["daggers_face_up"] = sorted(s.daggers)
            row["dagger_discard"] = sorted(s.dagger_discard)
        if over:
            row["daggers"] = sorted(s.daggers)
            row["dagger_total"] = sum(dagger_value(c) for c in s.daggers) + 2 * s.virtual_daggers
        seats.append(row)
    board: dict[str, Any] = {
        "game": "bagpipes", "players": t.options.players, "round": t.round, "rounds": t.options.rounds,
        "phase": t.phase.value, "seats": seats, "fields": t.fields, "defeats": t.defeats,
        "defeats_to_lose": defeats_to_lose(t.options), "badge": t.badge, "badge_prev_giver": t.badge_prev_giver,
        "stay_home": t.stay_home, "stay_home_prev_giver": t.stay_home_prev_giver, "at_home": t.at_home,
        "round_card": round_card_data(comps, t.revealed[-1]) if t.revealed else None,
        "revealed": list(t.revealed), "rounds_left": len(t.round_deck),
        "bagpipe_deck": len(t.bagpipe_deck), "bagpipe_discard": sorted(t.bagpipe_discard),
        "dagger_deck": len(t.dagger_deck), "dagger_discard": len(t.dagger_discard),
        "english_modifier": t.english_mod, "scottish_modifier": t.scottish_mod,
        "sides": {k: v.value for k, v in sorted(t.sides.items())} if t.sides_revealed else {},
        "deserters": list(t.deserters), "scotland_won": t.scotland_won,
        "owes": dict(t.pending.owes), "asking": _public_context(t), "turn_order": _badge_order(t),
        "winners": list(t.winners), "end_reason": t.end_reason,
        "options": to_data(t.options),
    }
    return board


def _badge_order(t: Table) -> list[str]:
    """The seats from the Badge of Honour holder clockwise: the order of turns and card windows [SB-5.2]."""
    return clockwise(t.ids, t.badge) if t.badge in t.ids else t.ids


def _public_context(t: Table) -> dict[str, Any]:
    ctx = dict(t.pending.context)
    if "ruling" in ctx:
        ctx["ruling"] = {k: ctx["ruling"][k] for k in ("title", "by", "target", "round")}
    return ctx


def view(t: Table, comps: Components, seat: str) -> dict[str, Any]:
    """Public board plus the seat's own hidden items: hand, daggers, its sealed choice."""
    board = public(t, comps)
    if seat == REFEREE or seat not in t.ids:
        return board
    s = t.seat(seat)
    board["you"] = seat
    board["hand"] = [{"card": c, "face": face_of(c), "title": comps.bagpipe(face_of(c)).title,
                      "timing": comps.bagpipe(face_of(c)).timing, "text": comps.bagpipe(face_of(c)).text,
                      "targets": comps.bagpipe(face_of(c)).targets, "x2": comps.bagpipe(face_of(c)).x2,
                      "received_now": c in s.loot}
                     for c in sorted(s.hand)]
    board["my_x2_face_up"] = [{"card": c, "title": comps.bagpipe(face_of(c)).title,
                               "timing": comps.bagpipe(face_of(c)).timing, "text": comps.bagpipe(face_of(c)).text}
                              for c, _ in sorted(s.x2_up)]
    board["my_daggers"] = sorted(s.daggers)
    board["my_dagger_total"] = sum(dagger_value(c) for c in s.daggers) + 2 * s.virtual_daggers
    if t.options.players == 2:
        board["my_dagger_hand"] = sorted(s.dagger_hand)
    choice = t.choices.get(seat)
    if choice is not None and not t.sides_revealed and seat in t.sides:
        board["my_side"] = t.sides[seat].value
    return board


# A line's fields a report shows beside its text, so that anyone who opens the reports (with the
# reveal bundle's keys, protocol §9) can recompute their draws (docs/draws.md): besides its number
# among the lines this seat sees (``line``) and its stream, the position of a draw, what it drew
# from, the card the line names, the deck reshuffled, the seats the set-up drew.
DRAW_FIELDS = ("stream_at", "draw", "drawn_from", "card", "deck", "badge", "stay_home")


def seen_lines(t: Table, seat: str) -> list[int]:
    """The positions in the step's whole log of the lines ``seat`` sees, in order: what the reveal
    bundle's ``lines`` gives (docs/draws.md), never what a report shows."""
    return [i for i, e in enumerate(t.log) if e.visible in ("all", seat)]


def report(t: Table, comps: Components, seat: str, game_id: str = "", step: int = 0) -> dict[str, Any]:
    """One seat's report: its view, this step's log it may know, the talk addressed to it, what it owes.

    A line's ``line`` counts only the lines this seat sees (0, 1, 2, ... with no gap): numbered in the
    step's whole log, the gaps would tell the seat how many hidden lines the other seats had (fog of war,
    docs/draws.md "Line numbers")."""
    log = [{"event": e.event, "text": e.text, "line": n, "stream": [e.step],
            **{k: e.data[k] for k in DRAW_FIELDS if k in e.data}}
           for n, e in enumerate(t.log[i] for i in seen_lines(t, seat))]
    mail = [{"from": m.sender, "to": m.to, "text": m.text} for m in t.mail
            if m.to in ("all", seat) or m.sender == seat]
    return {"game": game_id, "side": seat, "step": step, "cards": comps.name, "view": view(t, comps, seat),
            "log": log, "talk": mail, "asks": t.pending.owes.get(seat, ""), "owes": dict(t.pending.owes),
            "result": result(t)}


def result(t: Table) -> dict[str, Any]:
    if t.phase != Phase.OVER:
        return {"winner": "", "winners": [], "reason": ""}
    winner = t.winners[0] if len(t.winners) == 1 else ("tie:" + ",".join(t.winners) if t.winners else "tie")
    return {"winner": winner, "winners": list(t.winners), "reason": t.end_reason}
