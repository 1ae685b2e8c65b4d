"""A tiny game with hidden blocks, used only in tests of the peer record's hidden-fact seam (protocol §13.10).

Each side (north, south) owns four blocks, ``X1``..``X4`` (X = n or s), of strength 1..4: which
block stands behind which of its four handles is hidden. Handles 0 and 1 start on the field,
2 and 3 in the side's pool. Each round both sides order at once: ``attack`` (a field handle),
``charge`` (rule 3: only a block of strength 3 or more may charge; a charge scores double) and
``rest`` ("" or another field handle; rule 4: only a block of strength 1 or 2 may rest, and a rest
shows nothing, so it is checked at the final audit). The battle reveals both attackers (rule 2);
the stronger wins (a tie: a d6 each, again while equal); the loser's block dies. A side left with
one block on the field draws another from its own pool by the joint stream (rule 5: a handle,
not a block, is drawn). After ``rounds`` rounds (or a side without a block on the field) the
higher score wins. With the option ``cards``, a deck of four (``plus1``, ``plus2``, ``plus3``,
``zero``) is dealt by the mental deal, two to each side; an order may play one (``card``: its
label), adding its number to the attacker's strength (rule 6: a card played is revealed). With
``redeal = R`` the deck is dealt again before round R+1, the new cards replacing the hands (rule 7).
With ``raids``, every second round (the 2nd, 4th...) is north's raid: north alone orders, and south's first
block on the field defends (rule 8: a step one side owes, played with no commit, protocol §13.4). With
``stock`` (and ``cards``) the deck holds two more cards (``zero2``, ``zero3``) left in a stock, and the winner of
each round draws the next while any is left (rule 9: a draw from the stock, protocol §13.12).
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import IllegalOrder, InvalidOrder
from pbem.core.peer import handles
from pbem.core.peer.rules import Deck, FactLie, Facts, PeerStep, owners
from pbem.core.ruleset import StepResult

SIDES = ("north", "south")
HANDLES = 4
CARDS = ["plus1", "plus2", "plus3", "zero"]
STOCK = ["zero2", "zero3"]


def labels(side: str) -> list[str]:
    return [handles.hidden_label(side, n) for n in range(HANDLES)]


def blocks(side: str) -> list[str]:
    return [f"{side[0]}{n}" for n in range(1, HANDLES + 1)]


def strength(block: str) -> int:
    return int(block[1:])


class DuelPeer:
    """The hidden-fact seam of the duel: every rule once, over public state plus ``Facts``."""

    def deck(self, scenario: str, options: dict[str, Any]) -> Deck | None:
        if not options.get("cards"):
            return None
        return Deck([*CARDS, *(STOCK if options.get("stock") else [])], {s: 2 for s in SIDES})

    def drawn(self, public: dict[str, Any]) -> list[str]:
        return list(public.get("drawn", []))

    def public_setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        if scenario != "standard":
            raise InvalidOrder(f"unknown scenario {scenario!r}")
        return {"round": 0, "rounds": int(options.get("rounds", 3)), "score": {s: 0 for s in SIDES},
                "field": {s: labels(s)[:2] for s in SIDES}, "pool": {s: labels(s)[2:] for s in SIDES},
                "dead": {s: [] for s in SIDES}, "rests": {s: 0 for s in SIDES}, "first": rng.d6(),
                "hands": {s: [] for s in SIDES}, "deals": 0, "redeal": int(options.get("redeal", 0)),
                **({"raids": True} if options.get("raids") else {}),
                **({"drawn": []} if options.get("stock") else {})}

    def dealt(self, public: dict[str, Any], hands: dict[str, list[str]]) -> dict[str, Any]:
        """A deal's cards replace the hands (rule 7: unplayed cards are gone, as Hammer's each year)."""
        return {**public, "hands": {s: list(hands[s]) for s in SIDES}, "deals": public["deals"] + 1}

    def hidden_labels(self, scenario: str, options: dict[str, Any], side: str) -> list[str]:
        return labels(side)

    def private_setup(self, scenario: str, options: dict[str, Any], side: str, rng: Drbg) -> dict[str, Any]:
        return dict(zip(labels(side), rng.shuffled(blocks(side))))

    def check_facts(self, scenario: str, options: dict[str, Any], side: str, facts: Mapping[str, Any],
                    complete: bool) -> None:
        values = list(facts.values())
        if any(v not in blocks(side) for v in values) or len(set(values)) != len(values):
            raise FactLie(f"{side}'s handles must hide its blocks {', '.join(blocks(side))}, each once (rule 1)")
        if complete and sorted(values) != blocks(side):
            raise FactLie(f"{side}'s handles do not hide all its blocks (rule 1)")

    def owes(self, public: dict[str, Any]) -> dict[str, str]:
        if public["round"] >= public["rounds"] or not all(public["field"][s] for s in SIDES):
            return {}
        if public["redeal"] and public["round"] == public["redeal"] and public["deals"] < 2:
            return {s: "deal" for s in SIDES}
        if public.get("raids") and public["round"] % 2 == 1:
            return {"north": "raid"}
        return {s: "attack" for s in SIDES}

    def validate(self, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
        if not isinstance(order, dict) or set(order) != {"side", "attack", "charge", "rest", "card"}:
            raise InvalidOrder(f"order from {side}: expected side, attack, charge, rest and card")
        if order["card"] and order["card"] not in public["hands"][side]:
            raise IllegalOrder(f"order from {side}: play one of the cards in its hand, or none (rule 6)")
        field = public["field"][side]
        if order["side"] != side or order["attack"] not in field or not isinstance(order["charge"], bool):
            raise IllegalOrder(f"order from {side}: attack one of its blocks on the field ({', '.join(field)})")
        if order["rest"] and (order["rest"] not in field or order["rest"] == order["attack"]):
            raise IllegalOrder(f"order from {side}: rest another of its blocks on the field, or none (rule 4)")
        if order["charge"] and facts.is_public(order["attack"]) \
                and strength(facts.get(order["attack"], "rule 3")) < 3:
            raise IllegalOrder(f"{order['attack']} is {facts.get(order['attack'], 'rule 3')}: only a block of "
                               "strength 3 or more may charge (rule 3)")
        if order["rest"] and facts.is_public(order["rest"]) and strength(facts.get(order["rest"], "rule 4")) > 2:
            raise IllegalOrder(f"{order['rest']} is {facts.get(order['rest'], 'rule 4')}: only a block of "
                               "strength 1 or 2 may rest (rule 4)")

    def foresee(self, public: dict[str, Any], side: str, order: Any) -> list[str]:
        return [order["attack"], *([order["card"]] if order["card"] else [])]

    def adjudicate(self, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Drbg) -> PeerStep:
        new = copy.deepcopy(public)
        attackers = {s: orders[s]["attack"] if s in orders else public["field"][s][0] for s in SIDES}  # rule 8
        fighters = {s: facts.get(attackers[s], "rule 2: a battle reveals the blocks that fight") for s in SIDES}
        played = {s: facts.get(orders[s]["card"], "rule 6: a card played is revealed") for s in orders
                  if orders[s]["card"]}
        power = {s: strength(fighters[s]) + (int(played[s][-1]) if played.get(s, "").startswith("plus") else 0)
                 for s in SIDES}
        for s in played:
            new["hands"][s].remove(orders[s]["card"])
        dice: list[list[int]] = []
        while power["north"] == power["south"]:  # a tie: a d6 each, again while equal
            roll = [rng.d6(), rng.d6()]
            dice.append(roll)
            power = {"north": roll[0], "south": roll[1]}
        winner = "north" if power["north"] > power["south"] else "south"
        loser = "south" if winner == "north" else "north"
        new["score"][winner] += 2 if winner in orders and orders[winner]["charge"] else 1
        if "drawn" in new and len(new["drawn"]) < len(STOCK):  # rule 9: the winner draws from the stock
            label = f"card.{winner}.{len(CARDS) + len(new['drawn'])}"
            new["drawn"].append(label)
            new["hands"][winner].append(label)
        new["field"][loser].remove(attackers[loser])
        new["dead"][loser].append(attackers[loser])
        for s in orders:
            new["rests"][s] += 1 if orders[s]["rest"] else 0
        levy = {}
        for s in SIDES:
            if len(new["field"][s]) < 2 and new["pool"][s]:
                drawn = new["pool"][s].pop(handles.draw_from_pool(new["pool"][s], rng))
                new["field"][s].append(drawn)
                levy[s] = drawn
        new["round"] += 1
        log = [{"round": new["round"], "fighters": fighters, "cards": played, "dice": dice, "winner": winner,
                "levy": levy}]
        return PeerStep(new, log)

    def result(self, public: dict[str, Any]) -> dict[str, Any]:
        if self.owes(public):
            return {"winner": "", "reason": ""}
        a, b = (public["score"][s] for s in SIDES)
        return {"winner": "" if a == b else SIDES[0] if a > b else SIDES[1], "reason": "score"}


class DuelDraft:
    """One side's order as a player writes it (TOML: attack, charge, rest, card)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.side, self.step, self.kind, self.game = data["side"], 0, "attack", ""

    def body(self) -> dict[str, Any]:
        return {"side": self.side, "attack": self.data["attack"], "charge": bool(self.data.get("charge", False)),
                "rest": self.data.get("rest", ""), "card": self.data.get("card", "")}


class DuelPlayer:
    """What the CLI's verbs need of the duel's player side: typed options and the draft's parser."""

    default_scenario = "standard"

    def options_from_text(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        return {k: (v == "yes") if v in ("yes", "no") else int(v) for k, v in pairs.items()}

    def parse_draft(self, text: str, source: str) -> DuelDraft:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"{source}: not valid TOML ({exc})") from None
        if not {"side", "attack"} <= set(data) <= {"side", "attack", "charge", "rest", "card"}:
            raise InvalidOrder(f"{source}: a draft holds side and attack, and may hold charge, rest and card")
        return DuelDraft(data)


class DuelRuleset:
    """The duel on the protocol's ``Ruleset`` seam: its states are the public ones (it plays only with no referee)."""

    id = "duel"
    version = "1"
    sides = SIDES

    def peer(self) -> DuelPeer:
        return DuelPeer()

    def player(self) -> DuelPlayer:
        return DuelPlayer()

    def scenarios(self) -> tuple[str, ...]:
        return ("standard",)

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        return DuelPeer().public_setup(scenario, options, rng)

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        return DuelPeer().owes(state)

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        return DuelPeer().result(state)

    def validate(self, state: dict[str, Any], side: str, body: Any) -> None:
        DuelPeer().validate(state, side, body, Facts({}, owners([*labels("north"), *labels("south")])))

    def adjudicate(self, state: dict[str, Any], orders: dict[str, Any], rng: Drbg, game_id: str = "") -> StepResult:
        raise InvalidOrder("the duel plays only with no referee (protocol §13.10)")

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        return {}

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        return state

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        return {"game": game_id, "side": side, "step": step, "view": state, "log": log}

    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        return {"side": side, "attack": state["field"][side][0], "charge": False, "rest": "", "card": ""}
