"""Hammer of the Scots on the peer record's hidden-fact seam (docs/protocol.md §13.10, docs/hammer-peer.md).

``HammerPeer`` gives the record Hammer's handles, each side's private set-up, the check of its facts,
the public set-up with the English levy drawn as handles, the year's 25-card deal (pbem/hammer/
peer_setup.py), and the Game Turns: the refereed engine (engine.py) runs unchanged on the public state,
whose hidden blocks are keyed by handle, under a ``hidden.Resolver`` over the core's ``Facts``: a card
played is opened with its order (3.1), a battle asks its blocks (5.1, 5.32), a move allowance (2.13)
waits for the block's reveal or the final audit. Orders: ``{"card": LABEL}`` for the card (Player 1's
moves may ride in ``if_player1``), the refereed moves table (docs/orders.md, blocks named by handle,
``battle_order`` beside it) for a Move Phase; either may carry a standing battle plan, sealed (peer_plans.py):
decisions in battle follow it, or the defaults (battle.py) for a side with none.

The Winter Turn is peer_winter.py's (three rounds of claims and seals, 7.1-7.7); the next year is dealt again by
the mental deal (``owes`` gives every side "deal", 7.8). Events (3.12) resolve in the same engine, reading hidden
blocks as the table shows them (peer_events.py), and so does a coronation announced with one (6.21, 6.22: the Scots'
reveal opens ahead what it reads, kings.py).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.core.peer.rules import Deck, Facts, PeerStep
from pbem.hammer import peer_drafts, peer_orders, peer_own, peer_reveal, peer_setup, peer_winter
from pbem.hammer.play import peer_bot
from pbem.hammer.rules import engine, peer_events, peer_plans
from pbem.hammer.rules.blocks import SIDES, spec
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.hidden import PREFIX, Resolver, resolving
from pbem.hammer.rules.log import LogEntry, Seen, to_data
from pbem.hammer.rules.movement import check_moves
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.scenario import HAND_SIZE, scenario
from pbem.hammer.rules.state import POOL, BlockState, GameState, Turn, parse_options

CARD_RULE = "3.1: the cards played are revealed"
PASS = peer_events.PASS  # an Event passed (3.12): what a card order without ``event`` means
MOVE_KEYS = ("moves", "pins", "main_attack", "battle_order")
CARD_KEYS = ("card", "if_player1", "event", peer_plans.KEY)  # and the answers its client seals (peer_events.py)


def turn_public(setup: Mapping[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The set-up's public state (peer_setup) as the Game Turns keep it: the engine's game keyed by handle
    (an unseen block on the map at strength 0, "hidden"), the handles seen, each side's unseen nobles on
    the map (the scenario card's, public: 8.0), the levy."""
    sc = scenario(setup["scenario"])
    g = GameState(scenario=sc.id, year=setup["year"], turn=0, phase="card", options=parse_options(options),
                  king=setup["king"])
    for area, by in setup["areas"].items():
        for side, labels in by.items():
            for label in labels:
                g.blocks[label] = BlockState(side, area, 0)
    for side, labels in setup["pool"].items():
        for label in labels:
            g.blocks[label] = BlockState(side, POOL, 0)
    for name, where in setup["open_blocks"].items():
        g.blocks[name] = BlockState(spec(name).sides[0], where, 0)
    nobles = {s: sum(spec(n).is_noble for where, names in peer_setup.places(sc, s, g.options) if where != POOL
                     for n in names) for s in SIDES}
    return {"game": g.to_dict(), "seen": {}, "unseen_nobles": nobles, "levy": list(setup["levy"])}


def public_log(log: list[LogEntry]) -> list[dict[str, Any]]:
    """What every side may read of the step's log: public lines whole, redacted lines without their hidden
    fields, a side's private lines not at all (log.py's visibility)."""
    out: list[dict[str, Any]] = []
    for line in log:
        if line.visibility.seen is Seen.ACTOR:
            continue
        hidden = line.visibility.hidden if line.visibility.seen is Seen.REDACTED else ()
        data = to_data([LogEntry(line.what, line.actor, line.visibility,
                                 {k: v for k, v in line.facts.items() if k not in hidden})])[0]
        out.append(data)
    return out


class _Orders:
    """The engine's ``OrderSource`` for one peer step: the orders of the sides that owe, each used once."""

    def __init__(self, orders: Mapping[str, Any], facts: Facts) -> None:
        self.orders, self.facts, self.used = dict(orders), facts, False
        self.events = {s: o.get("event", PASS) for s, o in orders.items() if isinstance(o, dict) and "card" in o}

    def cards(self, g: GameState) -> dict[str, str] | None:
        if self.used or not all("card" in self.orders.get(s, {}) for s in SIDES):
            return None
        self.used = True
        return {s: str(self.facts.get(self.orders[s]["card"], CARD_RULE)) for s in SIDES}

    def event(self, g: GameState, side: str) -> dict[str, Any] | None:
        return peer_events.still_legal(g, side, self.events.get(side))

    def moves(self, g: GameState, side: str) -> Any:
        order = self.orders.get(side)
        if isinstance(order, dict) and "card" in order and g.current.player1 == side and order.get("if_player1"):
            self.orders[side] = {}
            return _moves(order["if_player1"])
        if self.used or not isinstance(order, dict) or "card" in order:
            return None
        self.used = True
        return _moves(order)

    def battle_order(self, g: GameState, side: str) -> list[str]:
        return []

    def winter(self, g: GameState) -> bool:
        return False


def _moves(order: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in order.items() if k in MOVE_KEYS and k != "battle_order"}


def _game(public: Mapping[str, Any], orders: Mapping[str, Any], facts: Facts) -> GameState:
    """The engine's game for this step: each card played stands in its hand by its id (opened, 3.1)."""
    g = GameState.from_dict(public["game"])
    for side, order in orders.items():
        label = order.get("card") if isinstance(order, dict) else None
        if label in g.hands.get(side, []):
            g.hands[side] = [str(facts.get(label, CARD_RULE)) if c == label else c for c in g.hands[side]]
    return g


def _after_moves(g: GameState, side: str, order: Any) -> GameState:
    """The board after ``side``'s moves (raising where the engine refuses them), on a copy."""
    return check_moves(g, side, parse_moves(order, "moves", also=("battle_order", peer_plans.KEY)))


def _fights(g: GameState, side: str) -> bool:
    """Whether ``side`` has a block in a battle of this turn: Player 2's play then opens its standing plan, which
    almost every battle reads (hits, retreats, regroups: docs/hammer-peer.md §4)."""
    return any(g.blocks_in(area, side) for area in g.current.battles)


def _in_line(g: GameState, side: str) -> list[str]:
    """The side's unseen handles that stand in line in a battle of this turn (reserves wait for round 2, 5.32)."""
    out: list[str] = []
    for area, battle in sorted(g.current.battles.items()):
        reserves = set(battle.attacker_reserves) | set(battle.defender_reserves)
        out += [b for b in g.blocks_in(area, side) if b.startswith(PREFIX) and b not in reserves]
    return sorted(out)


class HammerPeer:
    """Hammer's ``HiddenRules``: the set-up, each year's deal, the Game Turns and the Winter Turns, to the end."""

    def parse_order(self, text: str, source: str) -> dict[str, Any]:
        """A draft as a player writes it with no referee: TOML, ``card = LABEL`` (and ``[if_player1]`` moves),
        or a moves table (docs/orders.md, blocks by handle); an empty draft when the side owes nothing."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"{source}: not valid TOML ({exc}) (docs/hammer-peer.md)") from None
        unknown = sorted(set(data) - {*CARD_KEYS, *MOVE_KEYS, "plan"})
        if unknown:
            raise InvalidOrder(f"{source}: unknown key {unknown[0]!r}: a draft holds card and if_player1, or "
                               f"{', '.join(MOVE_KEYS)}, and plans; or a winter's plan (docs/hammer-peer.md)")
        return data

    def deck(self, scenario: str, options: dict[str, Any]) -> Deck | None:
        return peer_setup.card_deck(parse_options(options))

    def dealt(self, public: dict[str, Any], hands: dict[str, list[str]]) -> dict[str, Any]:
        """The year's hands by label (3.0); last year's cards are gone."""
        out = turn_public(public, public.get("options", {})) if "areas" in public else dict(public)
        out["game"] = {**out["game"], "hands": {s: list(hands[s]) for s in SIDES}}
        return out

    def public_setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        return {**peer_setup.public_setup(scenario, parse_options(options), rng), "options": dict(options)}

    def hidden_labels(self, scenario: str, options: dict[str, Any], side: str) -> list[str]:
        return peer_setup.hidden_labels(scenario, parse_options(options), side)

    def private_setup(self, scenario: str, options: dict[str, Any], side: str, rng: Drbg) -> dict[str, Any]:
        return dict(peer_setup.private_setup(scenario, parse_options(options), side, rng))

    def check_facts(self, scenario: str, options: dict[str, Any], side: str, facts: Mapping[str, Any],
                    complete: bool) -> None:
        peer_setup.check_facts(scenario, parse_options(options), side, facts, complete)

    def check_opened(self, public: dict[str, Any], side: str, opened: Mapping[str, Any],
                     revealed: Mapping[str, Any]) -> None:
        """Blocks opened before the end against the public state, at once: one key per block, a winter's seals
        against what its builds made public (peer_reveal.py)."""
        peer_reveal.check_opened(public, side, opened, revealed)

    def own_lines(self, public: dict[str, Any], side: str, own: Mapping[str, Any]) -> list[str]:
        """The side's own hidden facts said plainly (``pbem status`` in its own folder; peer_own.py)."""
        return peer_own.own_lines(public, side, own)

    def draft_hint(self, public: dict[str, Any], side: str) -> str:
        """What the side's next draft holds (``pbem status``): with no referee nobody else tells it (peer_drafts.py)."""
        return peer_drafts.draft_hint(self.owes(public).get(side), public, side)

    def owes(self, public: dict[str, Any]) -> dict[str, str]:
        """Who owes what (the engine's ``next_call``); the winter's rounds (peer_winter.py); every side "deal"
        once a new year has no hands yet (7.8: the mental deal, protocol §13.11)."""
        if "game" not in public:
            return {s: "card" for s in SIDES}
        g = GameState.from_dict(public["game"])
        if g.phase == "winter":
            return peer_winter.owes(public)
        if g.phase == "card" and g.turn == 0 and not any(g.hands.get(s) for s in SIDES):
            return {s: "deal" for s in SIDES}
        step = engine.next_call(g, _Orders({}, Facts({}, {})))
        return dict(sorted(step.owes.items())) if isinstance(step, engine.Waiting) else {}

    def validate(self, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
        """The order's shape, and its rules as far as ``facts`` tell: the card in the side's hand and no
        Event's parameters (peer_events.py); the moves by the engine on a copy, an unseen block's allowance waiting."""
        owed = self.owes(public).get(side)
        if owed is None and order == {}:
            return  # a side that owes nothing commits an empty order: its reveal carries its chain link (§13.3)
        if owed is None or not isinstance(order, dict):
            raise InvalidOrder(f"order from {side}: {side} owes no order now, so its order is empty ({{}}) (3.0)")
        if owed == "winter":
            peer_winter.check(public, side, order, facts)
            return
        peer_orders.check_plan(side, order)
        g = GameState.from_dict(public["game"])
        with resolving(Resolver.of(public, facts)):
            if owed == "card":
                sealed_keys = {*CARD_KEYS, peer_events.ANSWERS, peer_events.OPENS}  # what its client adds
                if set(order) - sealed_keys or order.get("card") not in g.hands.get(side, []):
                    raise IllegalOrder(f"card from {side}: play one of the card labels in its hand "
                                       f"({', '.join(g.hands.get(side, []))}), with if_player1 its moves (3.1)")
                played = card(str(facts.get(order["card"], CARD_RULE)))
                peer_events.check_opens(side, order)
                if played.is_event:
                    peer_events.check(g, side, played.id, order.get("event", PASS))
                peer_orders.check_answers(g, public, side, order, facts)
                if order.get("if_player1") and not played.is_event:  # checked as if this side is Player 1 (4.1)
                    g.current = Turn(cards={side: played.id}, player1=side)
                    _after_moves(g, side, order["if_player1"])
                return
            _after_moves(g, side, order)

    def foresee(self, public: dict[str, Any], side: str, order: Any) -> list[str]:
        """What the side's reveal opens ahead (no extra exchange): the card it plays (3.1) and what a coronation
        announced with it reads (6.21, 6.22, listed by the side's client: ``opens``); in a Move round, its
        blocks in line in every battle of the board after its own moves (or after Player 1's, already made,
        for the side that owes nothing): an attacked area keeps its pinned defenders (4.6), so the battle is
        fought (5.1). Not Player 1's ``if_player1`` attacks: whether it is Player 1 is not known yet."""
        if not isinstance(order, dict):
            return []
        owed = self.owes(public).get(side)
        if owed == "card":  # and what a coronation reads of the side's facts (6.21, 6.22), listed by its client
            opens = order.get(peer_events.OPENS)
            return [*([order["card"]] if "card" in order else []), *(opens if isinstance(opens, list) else [])]
        if owed == "winter":
            return peer_winter.foresee(public, side, order)
        g = GameState.from_dict(public["game"])
        with resolving(Resolver.of(public, Facts({}, {}))):
            if owed == "moves":
                try:
                    g = _after_moves(g, side, order)
                except PbemError:
                    return []
            line = _in_line(g, side)
            plan = peer_orders.plans(public, {side: order}).get(side) if owed == "moves" else None
            return [*line, plan] if plan and _fights(g, side) else line

    def adjudicate(self, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Drbg) -> PeerStep:
        """One step of the engine's turn sequence on the public state; ``NeedReveal`` where it reads a hidden fact."""
        if public["game"]["phase"] == "winter":
            return peer_winter.adjudicate(public, orders, facts, rng)
        resolver = peer_orders.resolver(public, orders, facts)
        with resolving(resolver):
            g = _game(public, orders, facts)
            log: list[LogEntry] = []
            decider = peer_orders.decider(public, orders, facts)

            def run(game: GameState, step: engine.StepCall) -> GameState:
                log.extend(step.run(game, rng, decider))
                return game

            g, _ = engine.drive(g, _Orders(orders, facts), run)
        return PeerStep({**public, "game": g.to_dict(), "seen": dict(sorted(resolver.seen.items())),
                         "unseen_nobles": resolver.unseen_nobles, **peer_orders.after(public, orders, resolver)},
                        public_log(log))

    def sealed(self, public: dict[str, Any], side: str, order: Any) -> dict[str, str]:
        """The facts an order seals (protocol §13.12): a winter order's pool or map again and its noble index
        (peer_winter.py); any other order's plan and Pillage answers (peer_orders.py)."""
        if self.owes(public).get(side) == "winter":
            return peer_winter.sealed(public, side, order)
        return peer_orders.sealed(public, side, order)

    def prepare(self, public: dict[str, Any], side: str, order: Any, own: Mapping[str, Any],
                hide: Callable[[str, Any], str]) -> Any:
        """The draft as committed: a winter draft (``plan``, docs/orders.md "Winter", blocks by name) into its
        claims and seals (peer_winter.py); any other, its plan and Pillage answers sealed (peer_orders.py)."""
        owed = self.owes(public).get(side)
        if owed == "winter":
            return peer_winter.prepare(public, side, order, own, hide)
        return peer_orders.prepare(public, side, order, own, hide, owed == "card")

    def bot_order(self, public: dict[str, Any], side: str, facts: Facts) -> Any:
        """The demo's bot (peer_bot.py): its order from its own folder's knowledge."""
        return peer_bot.bot_order(self, public, side, facts)

    def game_turns(self, public: dict[str, Any]) -> int:
        """Game Turns played so far (five a year, 3.0): the demo's exchanges are counted per Game Turn."""
        if "game" not in public:
            return 0
        g = public["game"]
        return int(g["turn"]) + HAND_SIZE * (int(g["year"]) - scenario(g["scenario"]).first_year)

    def turn_part(self, public: dict[str, Any]) -> str:
        """The part of the game apart from the Game Turns a step at ``public`` belongs to ("" for a Game Turn):
        the demo counts a Winter Turn's exchanges apart (docs/round-trips.md, peer mode)."""
        return "winter" if public.get("game", {}).get("phase") == "winter" else ""

    def result(self, public: dict[str, Any]) -> dict[str, Any]:
        """The refereed result's shape: nobody has won until the rules say so."""
        if "game" not in public:
            return {"winner": "", "reason": "", "year": public["year"]}
        g = public["game"]
        return {"winner": g["winner"], "reason": g["win_reason"], "year": g["year"]}

