"""Swords and Bagpipes with no referee, in process (docs/bagpipes-peer.md): 2, 4, 5 or 6 seats, each its own client.

Each seat's hidden facts stay in its ``Secrets`` (its chain secret, its deal keys, the cards it
was dealt, its salts); the shared ``Record`` holds only messages and entries whose state is the
public projection (``views.public``) of the masked table (pbem.bagpipes.peergame). The bagpipe,
dagger and English Arms cards are dealt from one deck each by the N-party mental deal
(pbem.core.peer.hands); each order is committed then revealed (pbem.core.peer.handles), the
choice token inside it as a handle of its own, opened only when the Battle needs it [SB-5.5];
each step's random stream comes from the seats' hash chains (pbem.core.peer.chain). A card an
order names is opened with the order and checked against the deal at once; the final ``audit``
opens every deal key, replays every pass and the whole game with the full-information engine, and
checks each entry's public state against the replay's. A lie anywhere raises ``Cheat`` naming the
seat, the step and the rule.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.bagpipes import views
from pbem.bagpipes.components import Components, face_of
from pbem.bagpipes.engine import check as check_order
from pbem.bagpipes.model import REFEREE, Order, Phase, Table, order_data, parse_order
from pbem.bagpipes.peergame import NeedReveal, game, is_token, parse_token, reveal_loyalty, set_up, substitute, token
from pbem.bagpipes.ruleset import BagpipesRuleset
from pbem.core import envelope
from pbem.core.canonical import canonical_bytes, sha256_hex
from pbem.core.drbg import Drbg
from pbem.core.errors import AuditError, PbemError
from pbem.core.identity import PrivateIdentity, PublicIdentity
from pbem.core.peer import chain, handles, hands

CHAIN = chain.DEFAULT_LENGTH
RULING = {"ruling": "no referee: a manual card's text has no effect in a game without one (docs/bagpipes-peer.md)"}


class Cheat(PbemError):
    """A seat broke the protocol or the rules: who, at which step, and why (the rule named)."""

    def __init__(self, seat: str, step: int, reason: str) -> None:
        super().__init__(f"{seat} cheated at step {step}: {reason}")
        self.seat, self.step, self.reason = seat, step, reason


@dataclass
class Secrets:
    """What stays on one seat's machine: never in the record until the final audit opens it."""

    chain: bytes
    dealers: dict[str, hands.Dealer] = field(default_factory=dict)
    openings: dict[str, handles.Opening] = field(default_factory=dict)
    known: dict[str, str] = field(default_factory=dict)        # token -> card, for this seat's own cards


@dataclass
class Message:
    """One seat's message for a step and phase; ``body`` is what it publishes."""

    seat: str
    step: int
    phase: str
    body: dict[str, Any]
    signed: bytes = b""     # the sign-only envelope (protocol §4.2) of the payload, when the game has keys

    @property
    def slot(self) -> tuple[str, int, str]:
        return self.seat, self.step, self.phase

    def payload(self) -> bytes:
        """What the seat signs: the phase and the body, canonical JSON (an opening as label, salt, value)."""
        return canonical_bytes({"phase": self.phase, "body": body_data(self.body)})


def body_data(body: dict[str, Any]) -> dict[str, Any]:
    return {k: ({"label": v.label, "salt": v.salt, "value": v.value} if isinstance(v, handles.Opening) else v)
            for k, v in body.items()}


@dataclass
class Record:
    """The public record every client holds alike: set-up passes, messages, entries, opened facts."""

    game: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    keys: dict[str, PublicIdentity] = field(default_factory=dict)          # each seat's signing key, if any
    anchors: dict[str, bytes] = field(default_factory=dict)
    links: dict[str, bytes] = field(default_factory=dict)
    decks: dict[str, hands.DeckPasses] = field(default_factory=dict)
    delivered: dict[str, dict[str, int]] = field(default_factory=dict)   # token -> seat -> its lock key
    cards: dict[str, str] = field(default_factory=dict)                   # opened token -> card
    loyalty: dict[str, dict[str, str]] = field(default_factory=dict)      # "round.seat" -> opened choice
    handles: dict[str, str] = field(default_factory=dict)                 # "round.seat" -> choice handle
    messages: list[Message] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)            # per entry: the revealed orders
    table: Table | None = None                                            # the masked table after the last entry

    def owner(self, tok: str) -> str:
        """The seat whose hand or dagger pile holds a token on the masked table, or ""."""
        assert self.table is not None
        for s in self.table.seats:
            if tok in s.hand or tok in s.daggers:
                return s.id
        return ""


Bot = Callable[[dict[str, Any], str, str, Drbg], dict[str, Any]]


def open_cards(comps: Components, options: Any) -> dict[str, list[str]]:
    """Each dealt deck's open card list: the bagpipe copies, the dagger cards (3+ players), the grey and red
    English Arms cards left in the game after the player-count exclusions [SB-3], [SB-10], [SB-12.1]."""
    n = options.players
    kept = [c for c in comps.round_cards if n not in c.excluded_players]
    out = {"bagpipe": sorted(comps.bagpipe_copies()), "grey": sorted(c.id for c in kept if c.back == "grey"),
           "red": sorted(c.id for c in kept if c.back == "red")}
    if n > 2:
        out["dagger"] = sorted(comps.dagger_cards())
    return out


class Client:
    """One seat's client: it holds its own secrets and computes the same record as every other client."""

    def __init__(self, seat: str, bot: Bot, entropy: Callable[[int], bytes] = os.urandom) -> None:
        self.seat, self.bot, self.entropy = seat, bot, entropy
        self.secrets = Secrets(entropy(32))

    def dealer(self, size: int) -> hands.Dealer:
        from pbem.core.peer import deal
        perm = Drbg(self.entropy(32)).shuffled(list(range(size)))

        def key() -> int:
            return 1 + int.from_bytes(self.entropy(40), "big") % (deal.ORDER - 1)
        return hands.Dealer(key(), perm, [key() for _ in range(size)])

    def private_table(self, rec: Record) -> Table:
        """The masked table with this seat's own cards read: what its bot may see."""
        assert rec.table is not None
        t = copy.deepcopy(rec.table)
        substitute(t, self.secrets.known)
        me = t.seat(self.seat)
        me.hand = [c for c in me.hand if not is_token(c)]      # a card not yet delivered is not yet playable
        me.loot = [c for c in me.loot if not is_token(c)]
        me.daggers = [c for c in me.daggers if not is_token(c)]
        return t

    def read_cards(self, rec: Record) -> None:
        """Read every card dealt to this seat whose other keys are all delivered."""
        assert rec.table is not None
        mine = rec.table.seat(self.seat)
        for tok in mine.hand + mine.daggers:
            if not is_token(tok) or tok in self.secrets.known:
                continue
            keys = rec.delivered.get(tok, {})
            if set(keys) == set(rec.seats) - {self.seat}:
                deck, pos = parse_token(tok)
                own = self.secrets.dealers[deck].key(pos)
                self.secrets.known[tok] = hands.read(rec.game, rec.decks[deck], pos, [*keys.values(), own])

    def deliveries(self, rec: Record) -> dict[str, int]:
        """This seat's lock keys for every token another seat holds and has not yet had from it."""
        assert rec.table is not None
        out = {}
        for s in rec.table.seats:
            if s.id == self.seat:
                continue
            for tok in s.hand + s.daggers:
                if is_token(tok) and self.seat not in rec.delivered.get(tok, {}):
                    deck, pos = parse_token(tok)
                    out[tok] = self.secrets.dealers[deck].key(pos)
        return out

    def order(self, rec: Record, step: int, rng: Drbg) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """(the order to reveal, the choice to seal) when this seat owes, else (None, None)."""
        t = self.private_table(rec)
        kind = t.pending.owes.get(self.seat)
        if not kind:
            return None, None
        comps = BagpipesRuleset(t.options.players).components
        body = self.bot(views.view(t, comps, self.seat), self.seat, kind, rng)
        try:
            order = parse_order(body, f"order from {self.seat}")
            check_order(t, comps, self.seat, order)
        except PbemError:
            from pbem.bagpipes.engine import default_order
            order = default_order(t, self.seat, kind)
        data: dict[str, Any] = order_data(order)
        _name_dagger_picks(data, t.seat(self.seat).daggers, comps)
        sealed = None
        if kind == "choice" and (data.get("loyalty") or data.get("dagger")):
            sealed = {"loyalty": data.pop("loyalty", None) or "scotland", "dagger": data.pop("dagger", None)}
            if t.options.players == 2 and sealed["dagger"] not in t.seat(self.seat).dagger_hand:
                sealed["dagger"] = sorted(t.seat(self.seat).dagger_hand)[0]
        return data, sealed

    def card_openings(self, rec: Record, order: Mapping[str, Any] | None) -> dict[str, list[Any]]:
        """The tokens of every card of this seat the order names, with this seat's key: checked at once."""
        named = set(_named_cards(order))
        out = {}
        for tok, card in sorted(self.secrets.known.items()):
            if card in named and tok not in rec.cards and rec.owner(tok) == self.seat:
                deck, pos = parse_token(tok)
                out[tok] = [card, self.secrets.dealers[deck].key(pos)]
        return out


def _discards_dagger(effect: Any) -> bool:
    return effect != "manual" and any(op["op"] == "discard_dagger" or _discards_dagger(op.get("then", []))
                                      or _discards_dagger(op.get("else", [])) for op in effect)


def _name_dagger_picks(value: Any, daggers: list[str], comps: Components) -> None:
    """A card that makes its player discard a dagger card of its choice names the card in the order: the
    masked table cannot draw one at random among cards nobody else can read (docs/bagpipes-peer.md)."""
    if isinstance(value, dict):
        card = value.get("card")
        if isinstance(card, str) and "dagger" in value and value["dagger"] is None and daggers:
            try:
                if _discards_dagger(comps.bagpipe(face_of(card)).effect):
                    value["dagger"] = sorted(daggers)[0]
            except KeyError:
                pass
        for v in value.values():
            _name_dagger_picks(v, daggers, comps)
    elif isinstance(value, list):
        for v in value:
            _name_dagger_picks(v, daggers, comps)


def _named_cards(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        out = [v for k, v in value.items() if k in ("card", "dagger") and isinstance(v, str)]
        return out + [c for v in value.values() for c in _named_cards(v)]
    if isinstance(value, list):
        return [c for v in value for c in _named_cards(v)]
    return []


class PeerGame:
    """A whole no-referee game between clients, in process: every message goes into the one shared record,
    and every entry is computed from the record alone (what any client computes)."""

    def __init__(self, game_id: str, players: int, bots: Mapping[str, Bot], options: Mapping[str, Any] | None = None,
                 entropy: Callable[[str], Callable[[int], bytes]] | None = None,
                 keys: Mapping[str, PrivateIdentity] | None = None) -> None:
        if players == 3:
            raise PbemError("a 3-player Swords and Bagpipes game discards and redraws a drawn card that names the "
                            "Badge of Honour [SB-12.1], which a no-referee game cannot do without showing the card; "
                            "play it with a referee (docs/bagpipes-peer.md).")
        self.rules = BagpipesRuleset(players)
        self.comps = self.rules.components
        opts = self.rules.options(**dict(options or {}))
        seats = tuple(s for s in self.rules.sides if s != REFEREE)
        self.keys = dict(keys or {})
        self.rec = Record(game_id, seats, opts, {s: k.public for s, k in sorted(self.keys.items())})
        self.clients = {s: Client(s, bots[s], entropy(s) if entropy else os.urandom) for s in seats if s in bots}
        self.cheat_hooks: dict[str, Callable[[Message], None]] = {}
        self.replaying: list[Message] | None = None

    # -- messages -------------------------------------------------------------------------------
    def send(self, m: Message) -> None:
        hook = self.cheat_hooks.get(f"{m.step}.{m.phase}.{m.seat}") or self.cheat_hooks.get(f"*.{m.phase}.{m.seat}")
        if hook is not None:
            hook(m)
        if m.seat in self.keys:
            m.signed = envelope.sign_only(self.keys[m.seat], m.payload(), game=self.rec.game, kind=envelope.KINDS[-1],
                                          side=m.seat, step=m.step)
        self.rec.messages.append(m)

    def message(self, seat: str, step: int, phase: str, make: Callable[[], dict[str, Any]]) -> Message:
        """The seat's message for a step and phase: its client writes it, or, when the record is replayed from
        the messages alone (``replay``), the next message of the log, which must be that one."""
        if self.replaying is None:
            m = Message(seat, step, phase, make())
            self.send(m)
            return m
        if not self.replaying:
            raise PbemError(f"the record ends before the {phase} of {seat} for step {step} (docs/bagpipes-peer.md)")
        m = self.replaying.pop(0)
        if self.rec.keys:
            signed_by(m, self.rec)
        if (m.seat, m.step, m.phase) != (seat, step, phase):
            raise PbemError(f"the record holds the {m.phase} of {m.seat} for step {m.step} where the {phase} of "
                            f"{seat} for step {step} is due (docs/bagpipes-peer.md)")
        self.rec.messages.append(m)
        return m

    # -- set-up ---------------------------------------------------------------------------------
    def set_up(self) -> None:
        rec = self.rec
        for s in rec.seats:
            m = self.message(s, 0, "join", lambda: {"anchor": chain.anchor(self.clients[s].secrets.chain,
                                                                            CHAIN).hex()})
            rec.anchors[s] = bytes.fromhex(m.body["anchor"])
        for s in rec.seats:
            m = self.message(s, 0, "start", lambda: {"link": chain.link_at(self.clients[s].secrets.chain, CHAIN,
                                                                            1).hex()})
            self._open_link(s, 1, bytes.fromhex(m.body["link"]))
        options = _options(rec.options)
        cards = open_cards(self.comps, options)
        for name, deck_cards in cards.items():
            values = hands.open_deck(rec.game, deck_cards)
            passes: dict[str, list[list[str]]] = {"shuffle": [], "lock": []}
            for kind in ("shuffle", "lock"):
                for s in rec.seats:
                    m = self.message(s, 0, f"{kind}.{name}", lambda: {"deck": self._pass(s, name, kind, values)})
                    passes[kind].append(list(m.body["deck"]))
                    values = [bytes.fromhex(v) for v in m.body["deck"]]
            rec.decks[name] = hands.DeckPasses(name, deck_cards, passes["shuffle"], passes["lock"])
        decks = {name: [token(name, i) for i in range(len(c))] for name, c in cards.items()}
        decks["grey_cards"], decks["red_cards"] = cards["grey"], cards["red"]
        rng = self.stream(0)
        rec.table = set_up(options, self.comps, rng, decks, masked=True)
        self.deliver(0)
        self.run(0, lambda t, g: g.advance(), {})

    def _pass(self, seat: str, deck: str, kind: str, values: list[bytes]) -> list[str]:
        secrets = self.clients[seat].secrets
        if kind == "shuffle":
            secrets.dealers[deck] = self.clients[seat].dealer(len(values))
            return [v.hex() for v in secrets.dealers[deck].shuffle(values)]
        return [v.hex() for v in secrets.dealers[deck].lock(values)]

    def _open_link(self, seat: str, use: int, link: bytes) -> None:
        if not chain.follows(link, self.rec.links.get(seat, self.rec.anchors[seat])):
            raise Cheat(seat, use - 1, "its chain link does not hash to its previous link (protocol §13.3)")
        self.rec.links[seat] = link

    def stream(self, step: int) -> Drbg:
        return chain.stream(self.rec.game, step, [(s, self.rec.links[s]) for s in self.rec.seats])

    def deliver(self, step: int) -> None:
        """Every seat publishes its lock keys for the cards the others now hold; each owner reads its own."""
        for s in self.rec.seats:
            m = self.message(s, step, "deliver", lambda: {"keys": self.clients[s].deliveries(self.rec)})
            for tok, k in sorted(m.body["keys"].items()):
                self.rec.delivered.setdefault(tok, {})[s] = k
        if self.replaying is None:
            for c in self.clients.values():
                c.read_cards(self.rec)

    # -- one step -------------------------------------------------------------------------------
    def play_step(self, step: int, bot_rng: Callable[[str, int], Drbg]) -> None:
        rec = self.rec
        assert rec.table is not None
        commits: dict[str, str] = {}
        for s in rec.seats:
            m = self.message(s, step, "commit", lambda: {"commitment": self._commit(s, step, bot_rng(s, step))})
            commits[s] = m.body["commitment"]
        orders: dict[str, Any] = {}
        for s in rec.seats:
            m = self.message(s, step, "reveal", lambda: self._reveal(s, step))
            self.take_reveal(m, commits[s], orders)
        masked = self.stand_in(orders)
        self.run(step, lambda t, g: g.take(_typed(t, masked)), orders)
        self.deliver(step)

    def _commit(self, seat: str, step: int, rng: Drbg) -> str:
        """The seat's client writes its order (its choice token sealed apart) and commits to it."""
        assert self.rec.table is not None
        c = self.clients[seat]
        order, sealed = c.order(self.rec, step, rng)
        value: dict[str, Any] = {"order": order, "choice": ""}
        if sealed is not None:
            label = f"choice.{seat}.{self.rec.table.round}"
            value["choice"], c.secrets.openings[label] = handles.make(label, sealed)
        commitment, c.secrets.openings[handles.order_label(step)] = handles.make(handles.order_label(step), value)
        return commitment

    def _reveal(self, seat: str, step: int) -> dict[str, Any]:
        c = self.clients[seat]
        opening = c.secrets.openings[handles.order_label(step)]
        return {"opening": opening, "link": chain.link_at(c.secrets.chain, CHAIN, step + 1).hex(),
                "cards": c.card_openings(self.rec, opening.value["order"])}

    def stand_in(self, orders: Mapping[str, Any]) -> dict[str, Any]:
        """The orders the masked engine takes: a sealed choice stands in as Scotland until the Battle opens it."""
        assert self.rec.table is not None
        rnd = self.rec.table.round
        return {s: {"loyalty": "scotland", **o} if f"{rnd}.{s}" in self.rec.handles and o.get("kind") == "choice"
                else o for s, o in orders.items()}

    def take_reveal(self, m: Message, commitment: str, orders: dict[str, Any]) -> None:
        """Check one reveal at once: it opens its commitment, its chain link follows, its cards are dealt to it."""
        rec, s, step = self.rec, m.seat, m.step
        assert rec.table is not None
        o = m.body["opening"]
        if o.label != handles.order_label(step) or not handles.opens(commitment, o):
            raise Cheat(s, step, f"its reveal does not open its commitment {handles.order_label(step)!r} "
                        "(protocol §13.4)")
        self._open_link(s, step + 1, bytes.fromhex(m.body["link"]))
        for tok, (card, key) in sorted(m.body["cards"].items()):
            if not is_token(tok) or rec.owner(tok) != s:
                raise Cheat(s, step, f"it claims {card} from {tok}, a card it was not dealt (protocol §13.7)")
            deck, pos = parse_token(tok)
            try:
                hands.check_claim(rec.game, rec.decks[deck], pos, {**rec.delivered.get(tok, {}), s: key}, card, s,
                                  step)
            except AuditError as exc:
                raise Cheat(s, step, f"it claims a card it was not dealt: {exc} (protocol §13.7)") from None
            rec.cards[tok] = card
        value = o.value
        if value["order"] is not None:
            orders[s] = value["order"]
        if value["choice"]:
            rec.handles[f"{rec.table.round}.{s}"] = value["choice"]

    def run(self, step: int, act: Callable[[Table, Any], None], orders: dict[str, Any]) -> None:
        """Run the step on the masked table; open what it needs (NeedReveal) and run it again, then record."""
        rec = self.rec
        assert rec.table is not None
        opened: list[str] = []
        masked = self.stand_in(orders)
        while True:
            t = copy.deepcopy(rec.table)
            substitute(t, rec.cards)
            choices = {key.split(".", 1)[1]: c for key, c in rec.loyalty.items() if int(key.split(".")[0]) == t.round}
            for seat, choice in sorted(choices.items()):
                if seat in t.choices:      # laid in an earlier step; one laid in this step is opened as it is laid
                    reveal_loyalty(t, seat, choice["loyalty"], choice.get("dagger"))
            if step:
                t.step += 1
                t.log, t.mail = [], []
                for s in sorted(t.pending.owes):
                    try:
                        if s != REFEREE:
                            check_order(t, self.comps, s, parse_order(masked.get(s), f"order from {s}"))
                    except PbemError as exc:
                        raise Cheat(s, step, f"its revealed order breaks the rules: {exc}") from None
            try:
                act(t, game(t, self.comps, self.stream(step), masked=True, opened_choices=choices))
            except NeedReveal as need:
                again = [f"{k} {v}" for k, v in need.facts if f"{k} {v}" in opened]
                if again:
                    raise PbemError(f"step {step} still needs {', '.join(again)} once opened") from None
                opened += self.answer(step, need.facts)
                continue
            break
        rec.table = t
        rec.orders.append(dict(sorted(orders.items())))
        prev = sha256_hex(canonical_bytes(rec.entries[-1])) if rec.entries else ""
        rec.entries.append({"entry": step, "prev": prev, "seed": chain.seed(rec.game, step, [
            (s, rec.links[s]) for s in rec.seats]).hex(), "orders": rec.orders[-1], "opened": opened,
            "log": [e.text for e in t.log if e.visible == "all"], "public": views.public(t, self.comps)})

    def answer(self, step: int, facts: list[tuple[str, str]]) -> list[str]:
        """The owners open what the step needs; every client checks each opening at once."""
        rec = self.rec
        assert rec.table is not None
        done = []
        for kind, key in facts:
            if kind == "card":
                deck, pos = parse_token(key)
                keys = {}
                for s in rec.seats:
                    m = self.message(s, step, f"open.{key}", lambda: {
                        "card": {key: self.clients[s].secrets.dealers[deck].key(pos)}})
                    keys[s] = m.body["card"][key]
                rec.cards[key] = hands.read(rec.game, rec.decks[deck], pos, list(keys.values()))
            else:
                rnd = rec.table.round
                m = self.message(key, step, f"open.choice.{key}", lambda: {
                    "choice": self.clients[key].secrets.openings[f"choice.{key}.{rnd}"]})
                self.take_choice(m, rnd)
            done.append(f"{kind} {key}")
        return done

    def take_choice(self, m: Message, rnd: int) -> None:
        o = m.body["choice"]
        handle = self.rec.handles.get(f"{rnd}.{m.seat}", "")
        if o.label != f"choice.{m.seat}.{rnd}" or not handles.opens(handle, o):
            raise Cheat(m.seat, m.step, f"its choice token does not open its sealed choice {o.label!r} "
                        "(protocol §13.4, [SB-5.4])")
        probe = copy.deepcopy(self.rec.table)
        assert probe is not None
        probe.sides.pop(m.seat, None)
        why = reveal_loyalty(probe, m.seat, str(o.value.get("loyalty")), o.value.get("dagger"))
        if why:
            raise Cheat(m.seat, m.step, why)
        self.rec.loyalty[f"{rnd}.{m.seat}"] = dict(o.value)

    # -- a whole game ---------------------------------------------------------------------------
    def play(self, bot_rng: Callable[[str, int], Drbg], limit: int = 600) -> None:
        self.set_up()
        step = 1
        while self.rec.table is not None and self.rec.table.phase != Phase.OVER:
            if step > limit:
                raise PbemError(f"the game did not end in {limit} steps")
            self.play_step(step, bot_rng)
            step += 1

    def replay(self, messages: list[Message]) -> None:
        """Compute the record from the messages alone, as an observer or another seat's client does (verify):
        no seat's secrets are used; a message missing or out of its place is refused with one sentence."""
        self.replaying = list(messages)
        self.set_up()
        step = 1
        while self.rec.table is not None and self.rec.table.phase != Phase.OVER and self.replaying:
            self.play_step(step, lambda s, k: Drbg(b"unused: replayed orders come from the record"))
            step += 1
        if self.replaying:
            m = self.replaying[0]
            raise PbemError(f"the record holds the {m.phase} of {m.seat} for step {m.step} after the game's end "
                            "(docs/bagpipes-peer.md)")

    def audit(self) -> list[str]:
        """The final audit: every seat opens its deal keys; every pass is replayed; the whole game is replayed
        with the full-information engine and each entry's public state must be the replay's."""
        rec = self.rec
        for name, passes in rec.decks.items():
            try:
                hands.audit_deck(rec.game, passes, rec.seats, {s: c.secrets.dealers[name]
                                                               for s, c in self.clients.items()})
            except AuditError as exc:
                raise AuditError(f"{exc} (found at the final audit)") from None
        real = {name: [hands.read(rec.game, p, i, [c.secrets.dealers[name].key(i) for c in self.clients.values()])
                       for i in range(len(p.cards))] for name, p in rec.decks.items()}
        real["grey_cards"], real["red_cards"] = rec.decks["grey"].cards, rec.decks["red"].cards
        for tok, card in rec.cards.items():
            deck, pos = parse_token(tok)
            if real[deck][pos] != card:
                raise AuditError(f"{tok} was opened as {card} but the deal gives {real[deck][pos]} (protocol §13.7)")
        options = _options(rec.options)
        t = set_up(options, self.comps, self.seeded(0), real, masked=False)
        game(t, self.comps, self.seeded(0), masked=False).advance()
        self._compare(t, 0)
        for n in range(1, len(rec.entries)):
            orders = {s: dict(o) for s, o in rec.entries[n]["orders"].items()}
            for key, choice in rec.loyalty.items():
                rnd, seat = key.split(".", 1)
                if seat in orders and orders[seat].get("kind") == "choice" and int(rnd) == orders[seat]["round"]:
                    orders[seat]["loyalty"] = choice["loyalty"]
                    if choice.get("dagger"):
                        orders[seat]["dagger"] = choice["dagger"]
            t = copy.deepcopy(t)
            t.step += 1
            t.log, t.mail = [], []
            game(t, self.comps, self.seeded(n), masked=False).take(_typed(t, orders))
            self._compare(t, n)
        return [f"audit ok: {len(rec.entries)} entries replayed with every hidden fact open; every deal pass "
                f"followed its opened keys; every choice opened its handle"]

    def seeded(self, n: int) -> Drbg:
        """Entry ``n``'s random stream, from the seed its entry records (every client computed it from the links)."""
        return Drbg(bytes.fromhex(self.rec.entries[n]["seed"]))

    def _compare(self, t: Table, n: int) -> None:
        want, got = views.public(t, self.comps), self.rec.entries[n]["public"]
        if want != got:
            diff = sorted(k for k in want if want[k] != got.get(k))
            raise AuditError(f"entry {n}'s public state is not the full replay's (differs in {', '.join(diff)}): "
                             "a hidden fact was lied about (docs/bagpipes-peer.md)")


def signed_by(m: Message, rec: Record) -> None:
    """The message is the envelope its seat signed for this game, step and phase; one sentence otherwise."""
    where = f"the {m.phase} of {m.seat} for step {m.step}"
    env = envelope.parse(m.signed, where)
    envelope.expect(env, where, signer=rec.keys[m.seat], game=rec.game, kind=envelope.KINDS[-1], side=m.seat,
                    step=m.step)
    if env.body != m.payload():
        raise PbemError(f"{where} is not what {m.seat} signed (protocol §13.2).")


def equivocation(messages: list[Message]) -> None:
    """Two different signed messages of one seat for one step and phase prove equivocation (protocol §13.2)."""
    seen: dict[tuple[str, int, str], Message] = {}
    for m in messages:
        other = seen.setdefault(m.slot, m)
        if other.payload() != m.payload():
            raise Cheat(m.seat, m.step, f"it signed two different {m.phase} messages for one step (equivocation, "
                        "protocol §13.2)")


def verify(rec: Record) -> list[str]:
    """Replay the record from its messages alone, with nobody's secrets: every entry must be what they compute."""
    if rec.keys:
        for m in rec.messages:
            signed_by(m, rec)
    equivocation(rec.messages)
    observer = PeerGame(rec.game, int(rec.options["players"]), {}, options=rec.options)
    observer.rec.keys = dict(rec.keys)
    observer.replay(rec.messages)
    mine, theirs = observer.rec.entries, rec.entries
    for n, (a, b) in enumerate(zip(mine, theirs)):
        if canonical_bytes(a) != canonical_bytes(b):
            raise PbemError(f"entry {n} is not what the messages compute (docs/bagpipes-peer.md)")
    if len(mine) != len(theirs):
        raise PbemError(f"the record holds {len(theirs)} entries, but its messages compute {len(mine)} "
                        "(docs/bagpipes-peer.md)")
    return [f"verify ok: {len(mine)} entries replayed from {len(rec.messages)} messages, no secret used"]


def _typed(t: Table, orders: Mapping[str, Any]) -> dict[str, Order]:
    out = {s: parse_order(orders[s], f"order from {s}") for s in sorted(t.pending.owes) if s != REFEREE}
    if REFEREE in t.pending.owes:
        out[REFEREE] = parse_order({"kind": "ruling", "round": t.round, **RULING}, "the no-referee ruling")
    return out


def _options(data: Mapping[str, Any]) -> Any:
    from pbem.bagpipes.ruleset import parse_options
    return parse_options(data)
