"""Bots that play from a seat's report only (never the referee's state): ``random`` and ``simple``.

Why from the report: a bot that reads only what its seat may see cannot leak or cheat, and the
same bot can stand in for a player through the real protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.bagpipes.fields import Seating, why_not
from pbem.core.drbg import Drbg

REPLENISH = ("collect_taxes", "raise_militia", "assemble_troops", "hire_mercenaries")
Bot = Callable[[dict[str, Any], str, str, Drbg], dict[str, Any]]


def _me(view: dict[str, Any], seat: str) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["id"] == seat)


def _others(view: dict[str, Any], seat: str) -> list[str]:
    return [s["id"] for s in view["seats"] if s["id"] != seat and s["id"] != view["at_home"]]


def _cards(view: dict[str, Any], timing: str) -> list[str]:
    hand = [c["card"] for c in view.get("hand", []) if c["timing"] == timing]
    return hand


def _play(card: str, view: dict[str, Any], seat: str, rng: Drbg, when: str | None = None) -> dict[str, Any]:
    others = _others(view, seat)
    play: dict[str, Any] = {"card": card, "targets": [others[rng.randbelow(len(others))]] if others else []}
    if when:
        play["when"] = when
    return play


def _needs_target(card: str) -> bool:
    return card.split("#")[0] in ("sample-ambush", "sample-pickpocket")


def _fixed(view: dict[str, Any], seat: str, card: str, rng: Drbg, when: str | None = None) -> dict[str, Any]:
    play = _play(card, view, seat, rng, when)
    if not _needs_target(card):
        play["targets"] = []
    return play


def random_bot(view: dict[str, Any], seat: str, kind: str, rng: Drbg) -> dict[str, Any]:
    """Uniform choices among the order's options; may send plays that turn out illegal (the engine skips them)."""
    me = _me(view, seat)
    base: dict[str, Any] = {"kind": kind, "round": view["round"]}
    if rng.randbelow(4) == 0:
        base["talk"] = {"to": "all", "text": f"{seat} says: trust me."}

    def turn() -> dict[str, Any]:
        cards = [_fixed(view, seat, c, rng) for c in _cards(view, "axe") if rng.randbelow(2)]
        order = ["cards", "replenish", "relocate"]
        order = rng.shuffled(order)
        relocate: Any = "all" if rng.randbelow(2) else rng.randbelow(me["castle"] + 1)
        return {"replenish": REPLENISH[rng.randbelow(4)], "relocate": relocate, "cards": cards, "order": order}

    if kind == "plan":
        base["program"] = [{"turn": turn(), "ask": rng.randbelow(10) == 0} for _ in range(1 + rng.randbelow(2))]
        base["on_fail"] = "ask" if rng.randbelow(5) == 0 else "default"
        ids = [s["id"] for s in view["seats"]]
        base["badge"] = {"prefer": rng.shuffled(ids)[:2], "ask": rng.randbelow(6) == 0}
        base["stay_home"] = {"prefer": rng.shuffled(ids)[:2], "ask": rng.randbelow(6) == 0}
        base["if_sent_home"] = [REPLENISH[rng.randbelow(4)] for _ in range(3)]
    elif kind == "turn":
        t = turn()
        t["cards"] = []
        if t["replenish"] == "hire_mercenaries" and me["gold"] < 1:
            t["replenish"] = "collect_taxes"
        t["relocate"] = "all"
        base["turn"] = t
    elif kind in ("badge", "stay_home"):
        options = view["asking"].get("candidates") or _others(view, seat)
        base["to"] = options[rng.randbelow(len(options))]
    elif kind == "home_actions":
        base["replenish"] = ["collect_taxes", "assemble_troops", "raise_militia"]
    elif kind == "choice":
        if _chooses(view, seat):
            base["loyalty"] = ("scotland", "england")[rng.randbelow(2)]
        if view["players"] == 2:
            hand = view["my_dagger_hand"]
            base["dagger"] = hand[rng.randbelow(len(hand))]
        base["tokens"] = {"play": [_fixed(view, seat, c, rng) for c in _cards(view, "tokens") if rng.randbelow(2)],
                          "ask_if_played_before_me": rng.randbelow(5) == 0}
        base["purse"] = {"play": [_fixed(view, seat, c, rng, ("scotland_won", "england_won", None)[rng.randbelow(3)])
                                  for c in _cards(view, "purse") if rng.randbelow(2)],
                         "ask": rng.randbelow(8) == 0}
        base["giveaway"] = ("keep", "give", "ask")[rng.randbelow(3)]
    elif kind == "window":
        timing = view["asking"]["window"]
        base["cards"] = [_fixed(view, seat, c, rng) for c in _cards(view, timing) if rng.randbelow(2)]
    elif kind == "giveaway":
        base["giveaway"] = ("keep", "give")[rng.randbelow(2)]
    return fit(view, seat, _strip(base))


def fit(view: dict[str, Any], seat: str, body: dict[str, Any]) -> dict[str, Any]:
    """The order without the fields that would do nothing for the seat now (the check refuses them)."""
    seating = Seating.of_view(view, seat, _chooses(view, seat))
    out = {k: v for k, v in body.items() if k in ("kind", "round", "talk") or not why_not(k, seating)}
    for name, giver in (("badge", view["badge_prev_giver"]), ("stay_home", view["stay_home_prev_giver"])):
        if name in out and out["kind"] == "plan":   # never a seat the badge rules forbid [SB-5.3], [SB-11]
            out[name] = {**out[name], "prefer": [s for s in out[name].get("prefer", []) if s not in (seat, giver)]}
    return out


def _chooses(view: dict[str, Any], seat: str) -> bool:
    """Who lays a token, from public facts only [SB-5.4], [SB-10], [SB-11], [SB-12.1]."""
    if seat == view["at_home"]:
        return False
    if seat == view["badge"]:
        n = view["players"]
        return n == 3 or (n == 2 and not view["options"]["two_player_badge_forces_scotland"])
    return True


def _strip(order: dict[str, Any]) -> dict[str, Any]:
    for play in [p for alt in order.get("program", []) for p in alt["turn"]["cards"]] + order.get("cards", []):
        if play.get("when") is None:
            play.pop("when", None)
    for window in ("tokens", "purse"):
        for play in order.get(window, {}).get("play", []):
            if play.get("when") is None:
                play.pop("when", None)
    return order


def simple_bot(view: dict[str, Any], seat: str, kind: str, rng: Drbg) -> dict[str, Any]:
    """A plain strategy: build troops, fight when Scotland needs it, betray when Scotland wins anyway."""
    me = _me(view, seat)
    base: dict[str, Any] = {"kind": kind, "round": view["round"]}
    levies = [{"card": c, "n": 3} for c in _cards(view, "axe") if c.startswith("sample-levy")]
    if kind == "plan":
        card = view["round_card"]
        strong = {"guard": {"strength_at_least": 10}, "turn": {"replenish": "raise_militia", "relocate": "all",
                                                                 "cards": levies}}
        hire = {"guard": {"gold_at_least": 2}, "turn": {"replenish": "hire_mercenaries", "relocate": 3,
                                                        "order": ["cards", "replenish", "relocate"]}}
        base["program"] = [strong, hire, {"turn": {"replenish": "assemble_troops", "relocate": 2}}]
        del card
        camps = sorted(view["seats"], key=lambda s: (-s["camp"], s["id"]))
        base["badge"] = {"prefer": [s["id"] for s in camps if s["id"] != seat]}
        richest = sorted(view["seats"], key=lambda s: (-s["gold"], s["id"]))
        base["stay_home"] = {"prefer": [s["id"] for s in richest if s["id"] != seat]}
        base["if_sent_home"] = ["hire_mercenaries" if me["gold"] >= 1 else "assemble_troops", "collect_taxes",
                                "collect_taxes"]
    elif kind == "turn":
        base["turn"] = {"replenish": "assemble_troops", "relocate": "all"}
    elif kind in ("badge", "stay_home"):
        base["to"] = view["asking"]["candidates"][0]
    elif kind == "home_actions":
        base["replenish"] = ["collect_taxes", "collect_taxes", "collect_taxes"]
    elif kind == "choice":
        if _chooses(view, seat):
            card = view["round_card"]
            others = sum(s["camp"] for s in view["seats"] if s["id"] != seat)
            scots_without_me = others + view["fields"] + view["scottish_modifier"]
            english = card["english_strength"] + view["english_modifier"] + me["camp"]
            near = view["defeats"] + 1 >= view["defeats_to_lose"]
            base["loyalty"] = "england" if scots_without_me >= english + 2 and not near else "scotland"
        if view["players"] == 2:
            base["dagger"] = sorted(view["my_dagger_hand"], key=lambda c: (-int(c[1]), c))[0]
        base["tokens"] = {"play": [_fixed(view, seat, c, rng) for c in _cards(view, "tokens")
                                   if c.startswith("sample-rally") and me["gold"] >= 2]}
        base["purse"] = {"play": [_fixed(view, seat, c, rng, "scotland_won") for c in _cards(view, "purse")
                                  if c.startswith("sample-spoils")]}
        base["giveaway_if_camp_at_least"] = 4
    elif kind == "window":
        base["cards"] = []
    elif kind == "giveaway":
        base["giveaway"] = "keep"
    return fit(view, seat, base)


def referee_bot(view: dict[str, Any], seat: str, kind: str, rng: Drbg) -> dict[str, Any]:
    """The referee's ruling on a manual card in bot games: a written ruling with a small effect."""
    ruling = view["asking"].get("ruling", {})
    ops = [{"op": "fields_troops", "n": 1}] if rng.randbelow(2) else []
    return {"kind": "ruling", "round": view["round"],
            "ruling": f"Bot referee: {ruling.get('title', 'the card')} adds {len(ops)} troop(s) to Scotland's Fields.",
            "ops": ops}


BOTS: dict[str, Bot] = {"random": random_bot, "simple": simple_bot}


def asker_bot(view: dict[str, Any], seat: str, kind: str, rng: Drbg) -> dict[str, Any]:
    """Plays like ``simple`` but sends no standing decisions: every stop says "ask me" (faithful table order)."""
    body = simple_bot(view, seat, kind, rng)
    if kind == "plan":
        body["program"] = [{"ask": True}]
        body["badge"] = {"ask": True}
        body["stay_home"] = {"ask": True}
        body["home_ask"] = True
        body.pop("if_sent_home", None)
    elif kind == "choice":
        body["tokens"] = {"ask": True}
        body["purse"] = {"ask": True}
        body.pop("giveaway_if_camp_at_least", None)
        body["giveaway"] = "ask"
    return fit(view, seat, body)


BOTS["asker"] = asker_bot


def safe_order(view: dict[str, Any], seat: str, kind: str) -> dict[str, Any]:
    """The order a player can always send, built from its own view (what the deadline default would do)."""
    body: dict[str, Any] = {"kind": kind, "round": view["round"]}
    if kind in ("badge", "stay_home"):
        body["to"] = view["asking"]["candidates"][0]
    elif kind == "home_actions":
        body["replenish"] = ["collect_taxes"] * 3
    elif kind == "choice" and _chooses(view, seat):
        body["loyalty"] = "scotland"
    elif kind == "ruling":
        body["ruling"] = "No effect."
    return body
