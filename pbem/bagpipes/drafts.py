"""The player's side of the seam: an order template, a draft check on the player's own view, a text report.

Why on the view: a player has only its report, so its checks use public facts and its own hand;
the referee then runs the full check (``engine.check``) on the real table, with the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import tomli_w

from pbem.bagpipes.bots import _chooses, safe_order
from pbem.bagpipes.engine import badge_refusal, clockwise, preference_refusal, stay_home_refusal
from pbem.bagpipes.fields import Seating, applicable, ignored, never_in_this_game, why_not
from pbem.bagpipes.model import KIND_FIELDS, REFEREE, parse_order
from pbem.core.errors import FormatError, IllegalOrder, InvalidOrder
from pbem.core.ruleset import Draft, draft_header

TIMING_OF_KIND = {"plan": "axe", "turn": "axe"}


@dataclass
class BagpipesDraft:
    """One seat's order for one step as the player edits it."""

    side: str
    step: int
    kind: str
    game: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        """What is sealed: the header and the order's fields (the engine reads ``kind`` and ``round``)."""
        return {**draft_header(self), **self.fields}


def _plain(data: Any) -> Any:
    """The data without None values (TOML has no null; a missing field is the order's default)."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def dump(draft: Draft) -> str:
    """The draft as the TOML ``orders seal`` reads (the player side's ``dump_draft``, and the board's)."""
    body = _plain(draft.body())
    if not body.get("game"):
        body.pop("game", None)
    return tomli_w.dumps(body)


def template(view: dict[str, Any], seat: str) -> dict[str, Any]:
    """A valid order of the kind the seat owes now (the deadline's default, made from the view)."""
    kind = view["owes"].get(seat, "")
    if not kind:
        raise InvalidOrder(f"{seat} owes no order now.")
    return safe_order(view, seat, kind)


REPLENISH_HELP = ('replenish: "collect_taxes" (+1 gold) | "raise_militia" (+1 troop in every camp and in '
                  'Scotland\'s Fields) | "assemble_troops" (+2 in your castle) | "hire_mercenaries" (pay 1 gold, +4 in '
                  'your castle)')
GUARD_HELP = ("guard (optional): strength_at_least, strength_at_most (the English strength), gold_at_least, "
              "gold_at_most (yours), fields_at_least, round_at_least, round_at_most")


def _plays(view: dict[str, Any], timing: str) -> str:
    """The cards of one timing the seat may name in a play, with an example play."""
    cards = [c for c in view.get("hand", []) if c["timing"] == timing]
    cards += [c for c in view.get("my_x2_face_up", []) if c["timing"] == timing]
    if not cards:
        return f"you hold no {timing} card now: leave the list empty"
    one = cards[0]
    example = f'{{ card = "{one["card"]}"' + (', targets = ["clanN"]' if one.get("targets") == "one_player" else "") \
        + " }"
    return f"your {timing} cards: {', '.join(c['card'] for c in cards)}; a play: {example}"


def guide(view: dict[str, Any], seat: str, kind: str, present: tuple[str, ...] = ()) -> list[str]:
    """Comment lines for a fresh draft: every field that applies to the seat now, with its legal values
    (only those; docs/bagpipes-orders.md has an example of every kind), and why the others do not apply.
    A field already in the draft (``present``) is marked so: edit it there, do not add it twice."""
    lines = _guide(view, seat, kind)
    s = Seating.of_view(view, seat, _chooses(view, seat))
    lines += [f"Not for you now: {f}: {why_not(f, s)}." for f in KIND_FIELDS[kind]
              if why_not(f, s) and not never_in_this_game(f, s)]
    return [f"    (already above: edit it there) {ln}" if any(ln.startswith(f"{f} =") for f in present) else ln
            for ln in lines]


def _guide(view: dict[str, Any], seat: str, kind: str) -> list[str]:
    s = Seating.of_view(view, seat, _chooses(view, seat))
    fields = applicable(KIND_FIELDS[kind], s)
    me = next((x for x in view["seats"] if x["id"] == seat), {"castle": 0, "gold": 0})
    out = [f"Fields a {kind} order takes for you now: {', '.join(fields) or 'none'} (others would be ignored and "
           "are refused). Uncomment and edit; docs/bagpipes-orders.md shows every kind."]
    turn = ('turn = { replenish = "raise_militia", relocate = "all", cards = [], '
            'order = ["cards", "replenish", "relocate"] }')
    turn_help = [REPLENISH_HELP, f'relocate: 0 to {me["castle"]} (your castle now), or "all" (what the castle holds '
                 "when the turn comes); castle to camp", "cards: " + _plays(view, "axe"),
                 'order: "cards", "replenish", "relocate" once each, in the order they are done']
    if kind == "plan":
        out.append('on_fail = "default"   # or "ask": no alternative can be played -> ask me (default: Collect '
                   "Taxes, nothing else)")
        if "badge" in fields:
            order = clockwise([x["id"] for x in view["seats"]], seat)
            candidates = [x for x in order[1:] if x != view["badge_prev_giver"]]
            out.append(f'badge = {{ prefer = {_list(candidates[:2])}, ask = false }}   # who gets the Badge of Honour '
                       f"after the turns [SB-5.3]: legal now {', '.join(candidates)}; default the first of them")
        if "stay_home" in fields:
            giver = view["stay_home_prev_giver"]
            out.append('stay_home = { prefer = [...], ask = false }   # who you send home [SB-11]: not you, not '
                       f"the new Badge holder{', not ' + giver if giver else ''}")
        if "if_sent_home" in fields:
            out.append('if_sent_home = ["raise_militia", "collect_taxes", "collect_taxes"]   # three replenishments '
                       "if you are sent home [SB-11] (default three Collect Taxes)")
            out.append("home_ask = false   # true: ask me then instead")
        out += ["Your Actions-phase turn, as alternatives tried in order: the first whose guard holds and that is "
                "legal when your turn comes is played [SB-5.2] (the [[program]] tables come last in the file).",
                "[[program]]", turn, "guard = { strength_at_least = 10 }", "ask = false   # true: stop here and ask me"]
        out += ["    " + line for line in turn_help + [GUARD_HELP]]
    elif kind == "turn":
        out += [turn] + ["    " + line for line in turn_help]
    elif kind in ("badge", "stay_home"):
        out.append(f"to = one of {', '.join(view['asking'].get('candidates', []))}")
    elif kind == "home_actions":
        out += ['replenish = ["raise_militia", "collect_taxes", "assemble_troops"]   # exactly three, repeats allowed',
                "    " + REPLENISH_HELP]
    elif kind == "choice":
        if "loyalty" in fields:
            out.append('loyalty = "scotland"   # or "england": your choice token, sealed until the battle [SB-5.4]')
        if "dagger" in fields:
            hand = ", ".join(view.get("my_dagger_hand", []))
            out.append(f'dagger = "..."   # one of your dagger hand: {hand} [SB-10]')
        if "tokens" in fields:
            out += ["tokens = { play = [], ask = false, ask_if_played_before_me = false }   # tokens window [SB-6]: "
                    + _plays(view, "tokens"),
                    'purse = { play = [], ask = false }   # purse window after the awards; a play may add '
                    'when = "scotland_won" or "england_won": ' + _plays(view, "purse")]
        if "giveaway" in fields:
            out += ['giveaway = "keep"   # or "give" or "ask": give the badge to the other player after the tokens '
                    "window [SB-10]", "giveaway_if_camp_at_least = 4   # give it if the other camp holds at least this"]
    elif kind == "window":
        out.append("cards = []   # " + _plays(view, str(view["asking"].get("window", ""))))
    elif kind == "giveaway":
        out.append('giveaway = "keep"   # or "give" [SB-10]')
    elif kind == "ruling":
        out += ['ruling = "what the card does, in words"',
                'ops = [{ op = "fields_troops", n = 2 }]   # optional: operations of the component file format']
    return out[:1] + ['talk = { to = "all", text = "..." }   # optional message: "all" or one seat; never read by '
                      "the referee"] + out[1:]


def _list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


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
            raise IllegalOrder(f"{seat}: {why_not('loyalty', Seating.of_view(view, seat, False))}.")
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


def _card_line(c: dict[str, Any]) -> str:
    """One card of the hand with what it does: title, timing, its id to name in orders, its text."""
    extra = "".join((f", targets {c['targets']}" if c.get("targets") not in (None, "self", "none") else "",
                     ", x2" if c.get("x2") else "", ", received in this Awards phase" if c.get("received_now") else ""))
    return f"  {c['title']} [{c['timing']}{extra}] (card = \"{c['card']}\"): {c.get('text', '')}"


def render_text(report: dict[str, Any]) -> str:
    """A plain-text report for mail: the board, your hand (what each card does), your daggers and sealed
    choice, what happened, talk, the order of turns, what you owe and whom the game waits for."""
    v, side = report["view"], report["side"]
    lines = [f"Swords and Bagpipes - {report.get('game', '')} - step {report.get('step', 0)} - "
             f"round {v['round']} of {v['rounds']} - you are {side}"]
    if report.get("cards"):
        lines.append(f"Cards: {report['cards']} (the game's component file)")
    card = v.get("round_card")
    if card:
        lines.append(f"English Arms: {card['title']}: strength {card['english_strength']}, bonnet "
                     f"{card['gold_scots_win']}, pierced bonnet {card['gold_scots_lose']}, crown {card['gold_crown']}"
                     f"{' (split)' if card['crown_split'] else ' (each)'}. {card['text']}")
    given = f" (given by {v['badge_prev_giver']}, who may not get it straight back)" if v["badge_prev_giver"] else ""
    lines.append(f"Scotland's Fields {v['fields']}; defeats {v['defeats']} of {v['defeats_to_lose']}; "
                 f"Badge of Honour: {v['badge']}{given}"
                 + (f"; Stay Home!: {v['stay_home']}" if v["stay_home"] else "")
                 + (f"; at home this round: {v['at_home']}" if v.get("at_home") else ""))
    if v.get("english_modifier") or v.get("scottish_modifier"):
        lines.append(f"Modifiers this round: English {v['english_modifier']:+d}, Scottish {v['scottish_modifier']:+d}")
    if v.get("turn_order"):
        lines.append("Order of turns and card windows this round: " + ", ".join(v["turn_order"])
                     + " (from the Badge of Honour holder clockwise)")
    for s in v["seats"]:
        extra = f", {s['bagpipe_cards']} bagpipe card(s), {s['dagger_cards']} dagger card(s)" \
            if "bagpipe_cards" in s else ""
        up = f", face up (x2): {', '.join(c for c, _ in s['x2_face_up'])}" if s.get("x2_face_up") else ""
        lines.append(f"  {s['id']}: gold {s['gold']}, castle {s['castle']}, camp {s['camp']}{extra}{up}")
    if "hand" in v:
        lines.append("Your hand:" + ("" if v["hand"] else " no bagpipe cards"))
        lines += [_card_line(c) for c in v["hand"]]
        lines += [_card_line({**c, "x2": True}) + " (face up, x2)" for c in v.get("my_x2_face_up", [])]
        lines.append(f"Your daggers: {v['my_dagger_total']}" + (f"; dagger hand {', '.join(v['my_dagger_hand'])}"
                                                               if "my_dagger_hand" in v else ""))
        if v.get("at_home") == side:
            lines.append("You stay home this round: no choice token, no cards, no awards [SB-11]")
        elif v["badge"] == side and v["players"] >= 4:
            lines.append("You hold the Badge of Honour: you defend Scotland this round and lay no choice token "
                         "[SB-5.4]")
        if v.get("my_side"):
            lines.append(f"Your sealed choice this round: {v['my_side']} (revealed with everyone's at the battle)")
    lines += ["What happened:"] + [f"  {e['text']}" for e in report["log"]]
    lines += [f"Message from {m['from']} to {m['to']}: {m['text']}" for m in report.get("talk", [])]
    owes = report.get("owes", v.get("owes", {}))
    if not report["result"]["reason"]:
        if report["asks"]:    # (a seat that owes nothing is told whom the game waits for by the command line)
            lines.append(f"You owe: a {report['asks']} order (docs/bagpipes-orders.md shows every kind); the game "
                         "waits for: " + ", ".join(f"{s} ({k})" for s, k in sorted(owes.items())) + ".")
    return "\n".join(lines) + "\n"


__all__ = ["template", "check_draft", "render_text", "FormatError"]
