"""The peer record of a game with hidden facts (protocol §13.10): public entries, reveal questions, the audit.

Entries hold the PUBLIC state only. Each side publishes a handle per hidden fact in its start
message; a reveal (or ``open``, or ``final``) message opens handles, checked at once against
them. The ruleset adjudicates from the public state plus the facts revealed so far; when it needs
one still hidden, the record writes a ``pause`` entry holding the question and waits for the
owner's ``open`` message, then replays the step on the same stream. When the game is over every
side opens every handle (``final``) and the record replays the whole game with every fact known:
an order that broke a rule decided by a fact hidden until then convicts its side, with the step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import canonical_bytes, canonical_hash, sha256_hex
from pbem.core.errors import FormatError, LedgerError, PbemError
from pbem.core.peer import chain, deal, dealing, handles, marks, memo
from pbem.core.peer.message import Message
from pbem.core.peer.rounds import Cheat, Manifest, Outcome, claimed, entry_hash, get, lone, make_entry, order_round
from pbem.core.peer.rules import FactLie, Facts, HiddenRules, NeedReveal, asked_of, check_opened, owner_of, sealed
from pbem.core.plain import plain_copy


class _Book:
    """What the record knows of the hidden facts: the handles, their owners, the facts opened so far.

    ``owners`` and ``revealed`` change only through ``own`` and ``reveal``, which extend ``trail``: the hash
    of every change made to them, in order, from nothing. Two books with one trail hold the same facts, so
    the trail names them in the memo's keys (memo.py) rather than the facts themselves, which grow with the
    game and cost more to serialize than some calls."""

    def __init__(self, man: Manifest, rules: HiddenRules) -> None:
        self.man, self.rules = man, rules
        self.tag = f"{man.ruleset}:{man.hash}"  # the memo's key for this game's rules (memo.py)
        self.deck = rules.deck(man.scenario, dict(man.options))
        self.deals: list[dealing.Dealt] = []
        self.handles: dict[str, str] = {}
        self.owners: dict[str, str] = {}
        self.revealed: dict[str, Any] = {}
        self.fresh: dict[str, Any] = {}  # opened since the last entry was written
        self.trail = ""

    def own(self, label: str, side: str) -> None:
        """``label`` is a fact of ``side``."""
        self.owners[label] = side
        self.trail = sha256_hex(canonical_bytes([self.trail, "own", label, side]))

    def reveal(self, label: str, value: Any) -> bool:
        """The fact behind ``label`` is ``value``, unless it was revealed before; whether it is new."""
        if label in self.revealed:
            return False
        self.revealed[label] = value
        self.trail = sha256_hex(canonical_bytes([self.trail, "reveal", label, value]))
        return True

    def publish(self, m: Message) -> None:
        """A start message's handles: exactly one per label the rules give its side."""
        want = self.rules.hidden_labels(self.man.scenario, dict(self.man.options), m.side)
        got = m.body.get("handles", {})
        if sorted(got) != sorted(want):
            raise Cheat(m.side, 0, "its start does not publish exactly one handle per hidden fact of its side "
                        "(protocol §13.10)", [m.hash])
        self.handles.update(got)
        for label in want:
            self.own(label, m.side)

    def take(self, m: Message, openings: Any, step: int, proof: list[str], public: dict[str, Any]) -> None:
        """Open handles of ``m``'s side, each checked against its handle at once, and what they say against
        ``public``, the state of the entry they open in (protocol §13.10)."""
        opened: dict[str, Any] = {}
        for o in openings:
            label = o["label"]
            if self.owners.get(label) != m.side:
                raise Cheat(m.side, step, f"it opens {label!r}, which is not a handle of its side (protocol §13.10)",
                            [*proof, m.hash])
            if label.startswith("card."):
                assert self.deck is not None  # a card label has an owner only once a deal gave it
                dealt = next(d for d in self.deals if d.holds(label))
                lie = dealing.check_card(self.man.game, self.deck, dealt, label, m.side, o)
                if lie:
                    raise Cheat(m.side, step, lie, [*proof, m.hash])
            elif not handles.opens(self.handles[label], handles.Opening(label, o["salt"], o["value"])):
                raise Cheat(m.side, step, f"its opening of {label} does not open the handle it published "
                            "(protocol §13.10)", [*proof, m.hash])
            if self.reveal(label, o["value"]):
                self.fresh[label] = opened[label] = o["value"]
        self.check(m.side, step, [*proof, m.hash], complete=False)
        if opened:
            mine = {k: v for k, v in self.revealed.items() if self.owners[k] == m.side}
            try:
                check_opened(self.rules, public, m.side, opened, mine)
            except FactLie as exc:
                raise Cheat(m.side, step, f"its revealed facts break the rules: {exc}", [*proof, m.hash]) from None

    def check(self, side: str, step: int, proof: list[str], complete: bool) -> None:
        def call() -> None:
            mine = {k: v for k, v in self.revealed.items() if self.owners[k] == side and not k.startswith("card.")}
            self.rules.check_facts(self.man.scenario, dict(self.man.options), side, mine, complete)
        try:
            memo.check_facts(self.tag, f"trail:{self.trail}", side, complete, call)
        except FactLie as exc:
            raise Cheat(side, step, f"its revealed facts break the rules: {exc}", proof) from None

    def draws(self, public: dict[str, Any], at: str, step: int) -> None:
        """The cards the rules gave out of the last deal's stock: their positions now belong to the drawer,
        and every other side owes its key for them in its next commit (protocol §13.12)."""
        if self.deck is None or not self.deals:
            return
        for label in memo.cards_drawn(self.tag, self.rules, public, at):
            if label in self.owners:
                continue
            side = owner_of(label)
            why = dealing.give(self.deck, self.deals[-1], label, side) if side in self.man.sides else \
                f"the rules gave {label}, which names no side"
            if why:
                raise LedgerError(f"entry {step - 1}: {why} (the {self.man.ruleset} rules; protocol §13.12).")
            self.own(label, side)

    def deliver(self, held: Mapping[str, Message], step: int, prev: str, owner: str | None) -> None:
        """Each commit of ``step`` (where ``owner`` alone owes an order: its play and the others' reveals, which
        have no commits) delivers its sender's key for exactly the positions the others drew and it has not keyed
        yet (protocol §13.12); the drawer reads its card once every key is in."""
        for s in self.man.sides:
            c = get(held, step, "commit" if owner is None else "play" if s == owner else "reveal", s)
            if c is None or c.answers != prev:
                continue
            got = c.body.get("keys", {})
            want = dealing.delivery(self.deck, self.deals[-1], s) if self.deck is not None and self.deals else []
            if sorted(int(j) for j in got) != want:
                raise Cheat(s, step, f"its {c.phase} does not deliver its key for exactly the cards the other sides "
                            "drew since its last (protocol §13.12)", [c.hash])
            try:
                keys = {int(j): deal.check_key(dealing.key_of(v)) for j, v in got.items()}
            except FormatError:
                raise Cheat(s, step, f"a key its {c.phase} delivers is not a deal key (protocol §13.12)", [c.hash]) \
                    from None
            if keys:
                self.deals[-1].keys[s].update(keys)

    def seal(self, public: dict[str, Any], orders: Mapping[str, Any], step: int, used: list[Message]) -> None:
        """The facts the revealed orders seal: each a new handle of its side, opened when the rules ask
        (protocol §13.12)."""
        for side, order in orders.items():
            for label, handle in sorted(sealed(self.rules, public, side, order).items()):
                if owner_of(label) != side or label in self.handles or not isinstance(handle, str) \
                        or len(handle) != 64:
                    raise Cheat(side, step, f"its order seals {label!r}, which is not a new fact of its side "
                                "(protocol §13.12)", [m.hash for m in used if m.side == side])
                self.handles[label] = handle
                self.own(label, side)

    def facts(self) -> Facts:
        return Facts(self.revealed, self.owners, key=f"trail:{self.trail}")

    def copy(self) -> _Book:
        """A copy that changes apart from this one (a mark's, marks.py): the dicts and each deal's keys copied."""
        other = _Book.__new__(_Book)
        other.man, other.rules, other.tag, other.deck = self.man, self.rules, self.tag, self.deck
        other.deals = [dealing.copied(d) for d in self.deals]
        other.handles, other.owners = dict(self.handles), dict(self.owners)
        other.revealed, other.fresh, other.trail = dict(self.revealed), dict(self.fresh), self.trail
        return other

    def flush(self) -> dict[str, Any]:
        out, self.fresh = dict(sorted(self.fresh.items())), {}
        return out


def compute_hidden(man: Manifest, held: Mapping[str, Message], rules: HiddenRules, links: dict[str, bytes],
                   used: list[Message], entries: list[bytes]) -> Outcome:
    """The record from its set-up: entry 0 (the handles, the first deal), then every entry the messages allow."""
    book = _Book(man, rules)
    for m in used:
        if m.phase == "start":
            book.publish(m)
    seed_links = [(s, links[s]) for s in man.sides]
    public = rules.public_setup(man.scenario, dict(man.options), chain.stream(man.game, 0, seed_links))
    dealt_fields: dict[str, Any] = {}
    if book.deck is not None:
        dealt = _deal(man, held, book, 0, "")
        if not isinstance(dealt, dealing.Dealt):
            return Outcome(entries, {}, dealt, "")
        used = [*used, *dealt.used]
        dealt_fields = {"deck": [v.hex() for v in dealt.locked], "dealt": dealt.labels()}
        public = rules.dealt(public, dealt.labels())
    entries.append(make_entry(man, 0, "setup", "", used, seed=chain.seed(man.game, 0, seed_links).hex(),
                              handles=dict(sorted(book.handles.items())), **dealt_fields, state=public))
    return _entries(man, held, rules, book, links, entries, public)


def resumed(man: Manifest, held: Mapping[str, Message], rules: HiddenRules, entries: list[bytes]) -> Outcome | None:
    """The record computed on from the latest mark ``held`` bears out (marks.py), or None when there is none."""
    mark = marks.latest(_game_key(man, rules), held)
    if mark is None:
        return None
    before: list[bytes] = mark.state[0]
    public: dict[str, Any] = plain_copy(mark.state[1])
    book: _Book = mark.state[2].copy()
    entries.extend(before)
    return _entries(man, held, rules, book, dict(mark.state[3]), entries, public)


def _game_key(man: Manifest, rules: HiddenRules) -> str:
    return f"{man.hash}:{type(rules).__module__}.{type(rules).__qualname__}"


def _entries(man: Manifest, held: Mapping[str, Message], rules: HiddenRules, book: _Book, links: dict[str, bytes],
             entries: list[bytes], public: dict[str, Any]) -> Outcome:
    """Every entry from the head of the next one (the set-up written, or a mark resumed): each head is marked,
    so the next message resumes at the latest entry rather than at the set-up (marks.py)."""
    game = _game_key(man, rules)
    while True:
        step = len(entries)
        marks.keep(game, step, held, (list(entries), plain_copy(public), book.copy(), dict(links)))
        at = entry_hash(entries[-1])  # the entry whose state ``public`` is (memo.py)
        book.draws(public, at, step)
        owes = rules.owes(public)
        resign = _resigned(man, held, step, at)
        if not owes or resign is not None:
            return _final(man, held, rules, book, entries, public, resign)
        if set(owes.values()) == {"deal"} and book.deck is not None:  # a new deal (Hammer's each year)
            dealt = _deal(man, held, book, step, entry_hash(entries[-1]))
            if not isinstance(dealt, dealing.Dealt):
                return _with(claimed(man, entries, public, step, dealt, held), book)
            public = rules.dealt(public, dealt.labels())
            entries.append(make_entry(man, step, "deal", entry_hash(entries[-1]), dealt.used,
                                      deck=[v.hex() for v in dealt.locked], dealt=dealt.labels(), state=public))
            continue
        prev = entry_hash(entries[-1])
        owner = lone(man, list(owes))
        book.deliver(held, step, prev, owner)
        play = get(held, step, "play", owner) if owner is not None else None
        play = play if play is not None and play.answers == prev else None
        if play is not None:  # a play is its order in the clear: what it seals is known with it, and may open now
            book.seal(public, {play.side: play.body["order"]}, step, [play])
        for s in man.sides:  # openings are checked at once, before the round is complete
            for phase in ("play", "reveal") if s == owner else ("reveal",):
                r = get(held, step, phase, s)
                if r is not None and r.answers == prev:
                    book.take(r, r.body.get("openings", []), step, [], public)
        got = order_round(man, held, entries, public, step, links, lambda side, order: None, list(owes))
        if isinstance(got, Outcome):
            return _with(got, book)
        orders, round_used = got
        orders = {s: orders[s] for s in owes}
        if play is None:  # a play's seals were registered as it was taken, above
            book.seal(public, orders, step, round_used)
        _validate(rules, public, at, orders, book, step, round_used)
        seed_links = [(s, links[s]) for s in man.sides]
        seed = chain.seed(man.game, step, seed_links)
        waiting = _adjudicate(man, held, rules, book, entries, public, at, orders, seed, step, round_used)
        if isinstance(waiting, Outcome):
            return waiting
        result, opens = waiting
        entries.append(make_entry(man, len(entries), "step", entry_hash(entries[-1]), [*round_used, *opens],
                                  seed=seed.hex(), orders=orders, revealed=book.flush(), log=result.log,
                                  state=result.public))
        public = result.public


def _deal(man: Manifest, held: Mapping[str, Message], book: _Book, step: int,
          prev: str) -> dealing.Dealt | dict[str, str]:
    """The deal of ``step`` (13.11), its messages answering ``prev``: finished (its cards' labels now owned),
    or who owes which pass."""
    assert book.deck is not None
    offset = sum(len(book.deck.cards) for _ in book.deals)

    def held_pass(phase: str, side: str) -> Message | None:
        m = get(held, step, phase, side)
        return m if m is not None and m.answers == prev else None

    try:
        dealt = dealing.progress(man.game, book.deck, man.sides, held_pass, step, offset)
    except dealing.DealCheat as exc:
        raise Cheat(exc.side, step, exc.reason, exc.proof) from None
    if isinstance(dealt, dealing.Dealt):
        book.deals.append(dealt)
        for s, labels in dealt.labels().items():
            for label in labels:
                book.own(label, s)
    return dealt


def _validate(rules: HiddenRules, public: dict[str, Any], at: str, orders: Mapping[str, Any], book: _Book, step: int,
              used: list[Message]) -> None:
    """Each order against the rules as far as the facts revealed tell: a fact revealed now checks what
    depended on it (a block's allowance) at once."""
    for side, order in orders.items():
        try:
            memo.validate(book.tag, rules, public, at, side, order, book.facts())
        except NeedReveal:
            continue  # the rule waits for a fact still hidden: checked when it opens, or at the final audit
        except PbemError as exc:
            raise Cheat(side, step, f"its order breaks the rules: {exc}", [m.hash for m in used if m.side == side]) \
                from None


def _adjudicate(man: Manifest, held: Mapping[str, Message], rules: HiddenRules, book: _Book, entries: list[bytes],
                public: dict[str, Any], at: str, orders: dict[str, Any], seed: bytes, step: int,
                used: list[Message]) -> Outcome | tuple[Any, list[Message]]:
    """The step on its stream, pausing for each reveal question until the owner's ``open`` answers it."""
    opens: list[Message] = []
    while True:
        try:
            return memo.adjudicate(book.tag, rules, public, at, orders, book.facts(), seed), opens
        except NeedReveal as q:
            for _, label in q.asked:
                if label not in book.owners or label in book.revealed:  # a handle, or a card dealt (§13.12)
                    raise LedgerError(f"the {man.ruleset} rules asked for {label!r}, which is no hidden fact "
                                      "of this game (protocol §13.10).") from None
            question: dict[str, Any] = {"owner": q.owner, "label": q.label, "rule": q.rule}
            if q.also:  # more owners the same rule asks at once: each owes its open of this pause
                question["also"] = [{"owner": o, "label": label} for o, label in q.also]
            entries.append(make_entry(man, len(entries), "pause", entry_hash(entries[-1]), [], question=question,
                                  resumes=step))
            n, prev = len(entries), entry_hash(entries[-1])
            asked = {o: asked_of(question, o) for o, _ in q.asked}
            got: list[Message] = []
            for side in (s for s in man.sides if s in asked):  # each open checked at once, as it comes
                m = get(held, n, "open", side)
                if m is None or m.answers != prev:
                    continue
                book.take(m, m.body["openings"], n, [], public)
                for label in asked[side]:
                    if label not in book.revealed:
                        raise Cheat(side, n, f"its open message does not open {label}, which the rules ask "
                                    f"({q.rule}; protocol §13.10)", [m.hash])
                got.append(m)
            if len(got) < len(asked):
                out = claimed(man, entries, public, n, {s: "open" for s in man.sides
                                                        if s in asked and s not in {m.side for m in got}}, held)
                return _with(out, book, {"question": question, "public": public, "orders": orders,
                                         "seed": seed.hex()})
            opens.extend(got)
            _validate(rules, public, at, orders, book, n, [*used, *got])


def _resigned(man: Manifest, held: Mapping[str, Message], step: int, prev: str) -> Message | None:
    """The resign that ends a two-seat game at the head of ``step`` (protocol §13.13), if one is held
    answering this record; a resign beside its side's commit, play or reveal of the same step convicts the signer."""
    if len(man.sides) != 2:
        return None
    for s in man.sides:
        m = get(held, step, "resign", s)
        if m is None or m.answers != prev:
            continue
        for phase in ("commit", "play", "reveal"):
            c = get(held, step, phase, s)
            if c is not None:
                raise Cheat(s, step, f"it signed a resign and a {phase} for one step (protocol §13.13)",
                            [m.hash, c.hash])
        return m
    return None


def _final(man: Manifest, held: Mapping[str, Message], rules: HiddenRules, book: _Book, entries: list[bytes],
           public: dict[str, Any], resign: Message | None = None) -> Outcome:
    """The game is over (its end, or a resign, protocol §13.13): every side opens every handle, and the
    whole game is replayed with every fact."""
    n, prev = len(entries), entry_hash(entries[-1])
    finals = [get(held, n, "final", s) for s in man.sides]
    finals = [m if m is not None and m.answers == prev else None for m in finals]
    if any(m is None for m in finals):
        out = claimed(man, entries, public, n, {s: "final" for s, m in zip(man.sides, finals) if m is None}, held)
        return _with(out, book)
    for m in finals:
        assert m is not None
        book.take(m, m.body["openings"], n, [], public)
        unopened = sorted(k for k, s in book.owners.items() if s == m.side and k not in book.revealed
                          and not k.startswith("card."))
        if unopened:
            raise Cheat(m.side, n, f"its final message leaves {', '.join(unopened)} unopened (protocol §13.10)",
                        [m.hash])
        book.check(m.side, n, [m.hash], complete=True)
    for index, dealt in enumerate(book.deals):
        assert book.deck is not None
        try:
            cards = dealing.audit(man.game, book.deck, man.sides, dealt, {m.side: m for m in finals if m is not None},
                                  index)
        except dealing.DealCheat as exc:
            raise Cheat(exc.side, n, exc.reason, exc.proof) from None
        for label, card in cards.items():
            book.reveal(label, card)
    replay(man, rules, entries, book.revealed, book.owners, held)
    result = rules.result(public)
    if resign is not None:
        other = next(s for s in man.sides if s != resign.side)
        result = {"winner": other, "resigned": resign.side, "step": n}
    used = [*([resign] if resign is not None else []), *(m for m in finals if m is not None)]
    entries.append(make_entry(man, n, "end", prev, used, revealed=book.flush(), audit="ok", result=result))
    return _with(Outcome(entries, public, {}, ""), book)


def replay(man: Manifest, rules: HiddenRules, entries: list[bytes], facts: Mapping[str, Any],
           owners: Mapping[str, str], held: Mapping[str, Message]) -> None:
    """The final audit: every step again with every fact known. An order that breaks a rule a fact
    hidden until now decides convicts its side; a public state the replay does not reach convicts
    the owners of the facts the replay read that were hidden at that step."""
    by_hash = {m.hash: m for m in held.values()}
    tag = f"{man.ruleset}:{man.hash}"
    key = f"full:{canonical_hash([dict(facts), dict(owners)])}"  # names every fact in the memo's keys
    public: dict[str, Any] = {}
    at = ""  # the hash of the entry whose state ``public`` is (memo.py)
    for raw in entries:
        e = json.loads(raw)
        if e["kind"] == "setup":
            public, at = e["state"], entry_hash(raw)
            continue
        if e["kind"] == "deal":  # the public state the deal's labels make (checked by its own computation)
            public, at = rules.dealt(public, e["dealt"]), entry_hash(raw)
            continue
        if e["kind"] != "step":
            continue
        full = Facts(facts, owners, everything=True, key=key)
        for side, order in sorted(e["orders"].items()):
            try:
                memo.validate(tag, rules, public, at, side, order, full)
            except NeedReveal as q:
                raise _unknown(man, e["entry"], q) from None
            except PbemError as exc:
                proof = [h for h in e["messages"] if by_hash[h].side == side]
                raise Cheat(side, e["entry"], f"its order broke a rule its hidden facts decide, shown when "
                            f"every handle opened: {exc} (protocol §13.10)", proof) from None
        try:
            result = memo.adjudicate(tag, rules, public, at, e["orders"], full, bytes.fromhex(e["seed"]))
        except NeedReveal as q:
            raise _unknown(man, e["entry"], q) from None
        if canonical_bytes(result.public) != canonical_bytes(e["state"]):
            raise LedgerError(f"entry {e['entry']}: the replay with every fact known does not reach the public "
                              f"state the record holds: the {man.ruleset} rules read a hidden fact without "
                              "asking for it (protocol §13.10).")
        public, at = result.public, entry_hash(raw)


def _unknown(man: Manifest, entry: int, q: NeedReveal) -> LedgerError:
    return LedgerError(f"entry {entry}: the {man.ruleset} rules asked for {q.label!r}, which no handle of this "
                       "game hides (protocol §13.10).")


def _with(out: Outcome, book: _Book, resume: dict[str, Any] | None = None) -> Outcome:
    """The outcome with what a client needs to write its next message: the facts revealed and the
    handles' owners, and, while a reveal question waits, the step it resumes."""
    return Outcome(out.entries, out.state, out.owes, out.verdict, dict(book.revealed), dict(book.owners),
                   resume or {}, list(book.deals))
