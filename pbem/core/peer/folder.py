"""A peer game's folder: ``game.toml``, ``messages/``, ``ledger/NNNN.json``, and the side's private area.

Layout (protocol §13.1): ``game.toml`` (format ``pbem-peer-game-v1``), ``messages/NNNN-PHASE-SIDE.pbem``
(every signed message, joins included), ``ledger/NNNN.json`` (the computed entries, canonical JSON),
``proofs/`` (the conviction, when there is one) and ``.pbem/peer-SIDE/`` (this player's secrets: chain
secret, salts and values; never published). Every read goes through the one reader (protocol §3.1);
every write is atomic and under the game lock.
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from pbem.core import inputs
from pbem.core import ruleset as rs
from pbem.core.atomic import write_atomic
from pbem.core.canonical import canonical_bytes, sha256_hex
from pbem.core.drbg import Drbg
from pbem.core.errors import EnvelopeError, FormatError, LedgerError, PbemError
from pbem.core.identity import PrivateIdentity, PublicIdentity
from pbem.core.lock import game_lock
from pbem.core.peer import chain, dealing, handles, looks, message, secrets_file
from pbem.core.peer.message import Message
from pbem.core.peer.record import compute, rules_of
from pbem.core.peer.rounds import MANIFEST_FORMAT, Manifest, Outcome, entry_hash, lone, round_started
from pbem.core.peer.rules import Facts, HiddenRules, NeedReveal, asked_of, card_label, hidden_rules, prepare
from pbem.core.peer.secrets_file import private

MANIFEST = "game.toml"
# What a side owes when its order is due: its commitment to it, or, at a step only it owes, the order itself
# (protocol §13.4); a driver asks its player or bot for a draft then.
ORDERED = frozenset({"commit", "play"})
LIMIT = 1 << 20


def open_game(game_dir: Path, ruleset: str, scenario: str, options: dict[str, Any],
              sides: dict[str, PublicIdentity], hours: int, length: int = chain.DEFAULT_LENGTH) -> str:
    """Write a peer game's manifest; the game's name is its folder's."""
    import tomli_w

    game_dir = Path(game_dir)
    if (game_dir / MANIFEST).exists():
        raise FormatError(f"{game_dir} already holds a game; open a new game in a new folder.")
    rules = rs.load(ruleset, options)
    hidden = hidden_rules(rules)
    if hidden is None and not getattr(rules, "open_facts", False):
        raise FormatError(f"the {ruleset} rules do not play with no referee yet: they hide facts, and a peer "
                          "record would publish them (protocol §13.10); play it with a referee.")
    seats: Any = getattr(hidden, "sides", None) or getattr(rules, "sides", ())  # the seats with no referee
    names = tuple(str(s) for s in seats)
    if sorted(names) != sorted(sides):
        raise FormatError(f"the {ruleset} game here seats {', '.join(names)}, but --side gave "
                          f"{', '.join(sorted(sides))} (protocol §10.1).")
    doc = {"format": MANIFEST_FORMAT, "game": game_dir.name, "ruleset": ruleset, "scenario": scenario,
           "options": options, "sides": list(names), "chain_length": length, "deadline_hours": hours,
           "keys": {s: sides[s].to_dict() for s in names}}
    game_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(game_dir / MANIFEST, tomli_w.dumps(doc))
    return game_dir.name


def manifest(game_dir: Path) -> Manifest:
    path = Path(game_dir) / MANIFEST
    raw = inputs.read_input(path, LIMIT, "a game manifest", root=Path(game_dir))
    known = _MANIFESTS.get((str(path), raw))
    if known is not None:
        return known
    where = str(path)
    try:
        d = tomllib.loads(raw.decode("utf-8"))
        keys = {s: PublicIdentity.from_dict(d["keys"][s], f"{where} keys.{s}") for s in d["sides"]}
        made = Manifest(d["game"], d["ruleset"], d["scenario"], dict(d["options"]), tuple(d["sides"]), keys,
                        int(d["chain_length"]), int(d["deadline_hours"]), sha256_hex(raw))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        raise FormatError(f"{where} is not a peer game manifest (protocol §13.1).") from None
    if len(_MANIFESTS) >= 64:
        _MANIFESTS.clear()
    _MANIFESTS[(str(path), raw)] = made
    return made


# Manifests already parsed in this process, by path and bytes (the file is read each time; only its parse
# is kept: no caller changes a manifest's options or keys).
_MANIFESTS: dict[tuple[str, bytes], Manifest] = {}
FOLDERS_KEPT = 16


def messages(game_dir: Path, man: Manifest, fresh: bool = False) -> list[Message]:
    """Every message of the folder, each checked (protocol §13.2). A look reads only the files new or replaced
    since this process's last look at the folder (looks.py), unless ``fresh`` (verify): then every file."""
    folder = Path(game_dir) / "messages"
    if not folder.is_dir():
        return []

    def read(name: str, is_file: bool) -> Message:
        if not is_file or not name.endswith(".pbem"):
            raise FormatError(f"{folder / name} does not belong in a peer game's messages folder (protocol §13.1).")
        return _read_message(game_dir, man, folder, name)

    listing = inputs.list_folder_ids(folder, "the messages folder")
    return looks.look(_look_key(man, folder), listing, read, fresh)


def _look_key(man: Manifest, folder: Path) -> str:
    return f"{man.hash}:{os.fspath(folder)}"


def _read_message(game_dir: Path, man: Manifest, folder: Path, name: str) -> Message:
    data = inputs.read_input(folder / name, LIMIT, "a peer message", root=Path(game_dir))
    m = message.read(data, str(folder / name), man.game, man.keys)
    if m.slot != name and not name.startswith(m.slot[:-5] + "."):
        raise FormatError(f"{folder / name} holds the message {m.slot} (protocol §13.1).")
    return m


def outcome(game_dir: Path) -> Outcome:
    """The record the folder's messages compute."""
    man = manifest(game_dir)
    return compute(man, messages(game_dir, man))


def side_of(man: Manifest, me: PrivateIdentity) -> str:
    for s in man.sides:
        if man.keys[s].sign_key == me.public.sign_key:
            return s
    raise EnvelopeError(f"this key ({me.public.fingerprint}) is not the key of any side of game {man.game} "
                        "(protocol §13.1).")


def _secret(game_dir: Path, side: str, label: str = "") -> tuple[bytes, Any]:
    """This side's chain secret and, with ``label``, the opening it keeps for it; one sentence when missing."""
    data = secrets_file.load(game_dir, side)
    opening = data.get("openings", {}).get(label) if label else None
    if "chain" not in data or (label and opening is None):
        what = f"opening of {label!r}" if "chain" in data else "chain secret"
        raise LedgerError(f"{private(game_dir, side)} holds no {what} of {side}: seal from the folder that "
                          "joined and committed (protocol §13.1).")
    return bytes.fromhex(data["chain"]), opening


# Ledger files this process wrote or found right, by ledger folder and name, with their inode then: rebuild
# writes only the entries that are new or whose file was replaced since (one listing, no stat per file, as
# looks.py; verify reads every one, so a file changed in place is seen there).
_ENTRIES: dict[str, dict[str, tuple[int, bytes]]] = {}


def rebuild(game_dir: Path) -> Outcome:
    """Recompute the record from the messages and write every entry (and the proof, when one convicts)."""
    return _rebuild(game_dir, manifest(game_dir))


def _rebuild(game_dir: Path, man: Manifest) -> Outcome:
    out = compute(man, messages(game_dir, man))
    ledger = Path(game_dir) / "ledger"
    ledger.mkdir(exist_ok=True)
    inodes = {name: inode for name, _, inode in inputs.list_folder_ids(ledger, "the ledger folder")}
    where = os.fspath(ledger)
    if where not in _ENTRIES and len(_ENTRIES) >= FOLDERS_KEPT:
        _ENTRIES.pop(next(iter(_ENTRIES)))
    kept = _ENTRIES.setdefault(where, {})
    for n, e in enumerate(out.entries):
        name = f"{n:04d}.json"
        known = kept.get(name)
        inode = inodes.get(name, 0)
        if known is not None and inode and known[0] == inode and known[1] == e:
            continue  # written or read by this process, and not replaced since
        path = ledger / name
        if not inode or inputs.read_input(path, LIMIT, "a ledger entry", root=Path(game_dir)) != e:
            write_atomic(path, e)
            inode = os.lstat(path).st_ino
        kept[name] = (inode, e)
    if out.verdict and json.loads(out.entries[-1])["kind"] == "void":
        write_proof(game_dir, man, json.loads(out.entries[-1]))
    return out


def write_proof(game_dir: Path, man: Manifest, void: dict[str, Any]) -> Path:
    """The proof file: the manifest hash and the signed messages that convict, in canonical JSON."""
    held = sorted(messages(game_dir, man), key=lambda m: (m.step, m.slot, m.hash))
    shown = [m for m in held if m.hash in void["proof"] or m.step <= void["step"]]
    doc = {"format": "pbem-peer-proof-v1", "game": man.game, "manifest": man.hash, "cheater": void["cheater"],
           "step": void["step"], "reason": void["reason"], "messages": [m.armored for m in shown]}
    path = Path(game_dir) / "proofs" / f"{void['step']:04d}-{void['cheater']}.json"
    path.parent.mkdir(exist_ok=True)
    write_atomic(path, canonical_bytes(doc))
    return path


def take(game_dir: Path, data: bytes, where: str) -> tuple[Message, Outcome]:
    """Take one message into the record: checked, stored in its slot (a different one in a taken slot is
    kept beside it as evidence of equivocation), and the record recomputed."""
    with game_lock(game_dir):
        man = manifest(game_dir)
        m = message.read(data, where, man.game, man.keys)
        folder = Path(game_dir) / "messages"
        folder.mkdir(exist_ok=True)
        path = folder / m.slot
        if path.exists():
            old = message.read(inputs.read_input(path, LIMIT, "a peer message", root=Path(game_dir)), str(path),
                               man.game, man.keys)
            if old.hash == m.hash:
                return m, compute(man, messages(game_dir, man))
            path = folder / f"{m.slot[:-5]}.{m.hash[:16]}.pbem"
        write_atomic(path, m.armored)
        looks.wrote(_look_key(man, folder), path.name, os.lstat(path).st_ino, m)
        return m, _rebuild(game_dir, man)


def fork_note(game_dir: Path, m: Message) -> str:
    """A plain warning when a reveal lists commitments this folder does not hold: someone sent
    different messages to different players, and relaying what each holds will show who."""
    if m.phase != "reveal":
        return ""
    man = manifest(game_dir)
    held = _all(game_dir, man)
    mine = [held[f"{m.step:04d}-commit-{s}.pbem"].hash if f"{m.step:04d}-commit-{s}.pbem" in held else ""
            for s in man.sides]
    if m.body["commits"] == mine:
        return ""
    return (f"warning: the reveal of {m.side} answers commitments this folder does not hold: a side sent different "
            f"messages to different players; ask {m.side} for every commit of step {m.step} it holds and take "
            "them (protocol §13.6)")


def _all(game_dir: Path, man: Manifest) -> dict[str, Message]:
    return {m.slot: m for m in messages(game_dir, man)}


def write_join(game_dir: Path, me: PrivateIdentity, side: str, clock: int | None = None) -> str:
    """The side's join: it accepts the manifest's hash and publishes its chain anchor (the secret stays here)."""
    man = manifest(game_dir)
    if side_of(man, me) != side:
        raise EnvelopeError(f"this key is not {side}'s key in game {man.game} (protocol §13.4).")
    secrets = secrets_file.load(game_dir, side)
    secret = bytes.fromhex(secrets["chain"]) if "chain" in secrets else chain.fresh_secret()
    secrets_file.save(game_dir, side, {**secrets, "chain": secret.hex()})
    text = message.write(me, man.game, side, 0, "", "join", clock_now(clock),
                         {"manifest": man.hash, "anchor": chain.anchor(secret, man.chain_length).hex()})
    take(game_dir, text.encode("ascii"), "your join")
    return text


def clock_now(clock: int | None) -> int:
    """The time a message is signed at: ``clock`` when a test or the demo fixes it, else the machine's."""
    return int(time.time()) if clock is None else clock


def write_owed(game_dir: Path, me: PrivateIdentity, order: Any | None, clock: int | None = None,
               facts: dict[str, Any] | None = None) -> tuple[str, str]:
    """The message this side owes now (start, commit or reveal; open or final in a game with hidden
    facts; a forfeit claim once a deadline is past), taken into its own record; returns (what, armored
    text). ``facts``: the side's hidden facts to commit to at start (default: the rules' own set-up)."""
    man = manifest(game_dir)
    side = side_of(man, me)
    rules = rules_of(man)
    hidden = hidden_rules(rules)
    listed = messages(game_dir, man)  # one look for the whole message
    out = compute(man, listed)
    if out.verdict:
        raise LedgerError(f"game {man.game} is over: {out.verdict}.")
    every = {m.slot: m for m in listed}
    held = {slot: m for slot, m in every.items() if m.side == side}
    secrets = secrets_file.load(game_dir, side)
    step = len(out.entries)
    prev = entry_hash(out.entries[-1]) if out.entries else ""
    owed = out.owes.get(side)
    now = clock_now(clock)
    if owed == "join":
        raise LedgerError(f"{side} has not joined: pbem game join first (protocol §13.4).")
    if hidden is not None and owed in ("shuffle", "lock", "keys"):
        passed = _deal_pass(game_dir, man, hidden, side, owed, step, every)
        return owed, send_signed(game_dir, me, man, side, step, prev, owed, now, passed)
    if hidden is not None and out.deals:
        _read_hands(game_dir, man, hidden, side, out, secrets)
    if owed == "start" or (owed is None and not out.entries and out.owes):
        if owed is None:
            raise LedgerError(f"{side} owes nothing now: the others' start messages are awaited (protocol §13.4).")
        first = chain.link_at(_secret(game_dir, side)[0], man.chain_length, 1).hex()
        body: dict[str, Any] = {"link": first}
        if hidden is not None:
            body["handles"] = _hide(game_dir, man, hidden, side, secrets, facts)
        return "start", send_signed(game_dir, me, man, side, 0, "", "start", now, body)
    if owed in ("open", "final") and hidden is not None:
        body = {"openings": _openings(hidden, side, out, secrets, owed)}
        if owed == "final" and out.deals:
            mine = [secrets["deals"][str(dealt.step)] for dealt in out.deals]
            body["deals"] = [{"shuffle": d["shuffle"], "perm": d["perm"],
                              "keys": {j: k for j, k in d["keys"].items() if int(j) not in dealt.keys[side]}}
                             for d, dealt in zip(mine, out.deals)]
        return owed, send_signed(game_dir, me, man, side, step, prev, owed, now, body)
    if owed in ("commit", "play"):
        idle = hidden is not None and side not in hidden.owes(out.state)  # it commits to no order (§13.12)
        if hidden is not None and not idle:  # the rules fill an order that takes no choice (§13.12)
            order = _prepare(hidden, out, side, order, secrets)
        if order is None and not idle:
            raise LedgerError(f"{side} owes its {'commitment' if owed == 'commit' else 'order'} for step {step}: "
                              "seal a draft (protocol §13.4).")
        if hidden is not None and not idle:  # refused before it binds the side, as far as the facts known here tell
            _check_own(hidden, out, side, order, secrets)
        elif hidden is None:
            rules.validate(out.state, side, cast(dict[str, Any], order))  # an open game's order is a table
        else:
            order = None
        extra = _keys_due(man, hidden, out, side, secrets)
        if owed == "play":  # the one side owing at this step: its order in the clear, with its link (§13.4)
            body = {"order": order, "link": _next_link(game_dir, man, side, held, step), **extra}
            if hidden is not None:
                body["openings"] = _ahead(hidden, out, side, order, secrets)
            secrets_file.save(game_dir, side, secrets)
            return "play", send_signed(game_dir, me, man, side, step, prev, "play", now, body)
        label = handles.order_label(step)
        commitment, opening = handles.make(label, order)
        secrets.setdefault("openings", {})[label] = {"label": label, "salt": opening.salt, "value": opening.value}
        secrets_file.save(game_dir, side, secrets)
        return "commit", send_signed(game_dir, me, man, side, step, prev, "commit", now,
                               {"commitment": commitment, **extra})
    if owed == "reveal" and f"{step:04d}-reveal-{side}.pbem" not in held:
        link = _next_link(game_dir, man, side, held, step)
        owing = sorted(hidden.owes(out.state) if hidden is not None else rules.owes(out.state))
        owner = lone(man, owing)
        if owner is not None:  # a step one other side plays (§13.4): no order of its own, its link after the play
            play = every[f"{step:04d}-play-{owner}.pbem"]
            body = {"opening": None, "commits": [play.hash], "link": link,
                    **_keys_due(man, hidden, out, side, secrets)}
            if hidden is not None:
                body["openings"] = _answering(man, hidden, out, side, secrets, play, link, every)
            return "reveal", send_signed(game_dir, me, man, side, step, prev, "reveal", now, body)
        commits = [every[f"{step:04d}-commit-{s}.pbem"].hash for s in man.sides]
        label = handles.order_label(step)
        _, opening = _secret(game_dir, side, label)
        body = {"opening": opening, "commits": commits, "link": link}
        if hidden is not None:
            body["openings"] = _ahead(hidden, out, side, opening["value"], secrets) if side in owing else []
        return "reveal", send_signed(game_dir, me, man, side, step, prev, "reveal", now, body)
    if set(out.owes.values()) <= {"join", "start"}:
        raise LedgerError(f"{side} owes nothing now: {', '.join(sorted(out.owes))} owe their "
                          f"{next(iter(out.owes.values()))} (protocol §13.4).")
    if out.owes and side not in out.owes:
        started = round_started(every, step, next(iter(out.owes.values())))
        if now >= started + man.hours * 3600:
            against = {"against": sorted(out.owes)}
            return "claim", send_signed(game_dir, me, man, side, step, prev, "claim", now, against)
        raise LedgerError(f"{side} owes nothing now: {', '.join(sorted(out.owes))} owe "
                          f"{next(iter(out.owes.values()))} for step {step}; a forfeit may be claimed after "
                          f"the deadline ({man.hours} hours) (protocol §13.5).")
    raise LedgerError(f"{side} owes nothing now (protocol §13.4).")


def _next_link(game_dir: Path, man: Manifest, side: str, held: Mapping[str, Message], step: int) -> str:
    """This side's chain link for its next use: one per start, reveal and play it sent before (§13.3)."""
    uses = 1 + sum(1 for m in held.values() if m.phase in ("start", "reveal", "play") and m.step < step)
    return chain.link_at(_secret(game_dir, side)[0], man.chain_length, uses).hex()


def _keys_due(man: Manifest, hidden: HiddenRules | None, out: Outcome, side: str,
              secrets: dict[str, Any]) -> dict[str, Any]:
    """``{"keys": ...}``: this side's deal keys for the cards the others drew since its last delivery, in the
    first message it sends for a step (§13.12); nothing when none is due."""
    if hidden is None or not out.deals:
        return {}
    keys = secrets["deals"][str(out.deals[-1].step)]["keys"]
    deck = hidden.deck(man.scenario, dict(man.options))
    assert deck is not None  # a deal was made, so the rules have a deck
    due = {str(j): keys[str(j)] for j in dealing.delivery(deck, out.deals[-1], side)}
    return {"keys": due} if due else {}


def _ahead(hidden: HiddenRules, out: Outcome, side: str, order: Any, secrets: dict[str, Any]) -> list[dict[str, Any]]:
    """The side's own facts its order surely reveals, not revealed yet: sent with it (``foresee``, §13.10)."""
    return [_own(secrets, label) for label in hidden.foresee(out.state, side, order) if label not in out.revealed]


def _answering(man: Manifest, hidden: HiddenRules, out: Outcome, side: str, secrets: dict[str, Any], play: Message,
               link: str, held: Mapping[str, Message]) -> list[dict[str, Any]]:
    """What a side that owes no order opens with its link in a step another side plays (§13.4): once every link
    of the step is known to it (its own is the last, in a game of two), every fact of its own the step reads
    before it needs another side's, as an ``open`` would (§13.10); else nothing."""
    step = play.step
    links = {play.side: play.body["link"], side: link}
    for s in man.sides:
        r = held.get(f"{step:04d}-reveal-{s}.pbem")
        if s not in links and r is not None and r.answers == play.answers:
            links[s] = r.body["link"]
    if len(links) < len(man.sides):
        return []
    try:  # an order the rules refuse is never run here: the record convicts its player once this answer is in
        hidden.validate(out.state, play.side, play.body["order"], Facts(out.revealed, out.owners))
    except NeedReveal:
        pass  # a rule on a fact still hidden: the record checks it when the fact opens
    except PbemError:
        return []
    seed = chain.seed(man.game, step, [(s, bytes.fromhex(links[s])) for s in man.sides])
    return _read_ahead(hidden, out, side, secrets, out.state, {play.side: play.body["order"]}, seed, [])


def _hide(game_dir: Path, man: Manifest, hidden: HiddenRules, side: str, secrets: dict[str, Any],
          facts: dict[str, Any] | None) -> dict[str, str]:
    """The side's hidden facts behind fresh handles: the openings stay in its private area (§13.10)."""
    labels = hidden.hidden_labels(man.scenario, dict(man.options), side)
    if facts is None:
        facts = hidden.private_setup(man.scenario, dict(man.options), side, Drbg(os.urandom(32)))
    if sorted(facts) != sorted(labels):
        raise FormatError(f"the hidden facts of {side} are {', '.join(labels)}, not {', '.join(sorted(facts))} "
                          "(protocol §13.10).")
    hidden.check_facts(man.scenario, dict(man.options), side, facts, True)
    out: dict[str, str] = {}
    for label in labels:
        out[label], opening = handles.make(label, facts[label])
        secrets.setdefault("openings", {})[label] = {"label": label, "salt": opening.salt, "value": opening.value}
    secrets_file.save(game_dir, side, secrets)
    return out


def _deal_pass(game_dir: Path, man: Manifest, hidden: HiddenRules, side: str, owed: str, step: int,
               held: dict[str, Message]) -> dict[str, Any]:
    """This side's pass of the deal of ``step`` (protocol §13.11): its shuffle or lock over the deck the side
    before it sent, or its keys for the positions dealt to the others; its keys stay in its private area."""
    deck = hidden.deck(man.scenario, dict(man.options))
    assert deck is not None  # only a game with a deck owes a deal pass
    secrets = secrets_file.load(game_dir, side)
    i = man.sides.index(side)
    mine = secrets.setdefault("deals", {})
    if owed == "keys":
        others = dealing.others(deck, man.sides, side)
        return {"keys": {j: k for j, k in mine[str(step)]["keys"].items() if int(j) in others}}
    before = None
    if i or owed == "lock":
        given = held[f"{step:04d}-{owed if i else 'shuffle'}-{man.sides[i - 1]}.pbem"]
        before = [bytes.fromhex(v) for v in given.body["deck"]]
    if owed == "shuffle":
        values, private = dealing.my_shuffle(man.game, deck, before)
    else:
        assert before is not None
        values, private = dealing.my_lock(before, mine[str(step)])
    mine[str(step)] = private
    secrets_file.save(game_dir, side, secrets)
    return {"deck": [v.hex() for v in values]}


def _own(secrets: dict[str, Any], label: str) -> dict[str, Any]:
    opening = secrets.get("openings", {}).get(label)
    if not isinstance(opening, dict):
        raise LedgerError(f"this side's private area holds no opening of {label!r}: seal from the folder that "
                          "started the game (protocol §13.1).")
    return opening


def own_facts(secrets: dict[str, Any], out: Outcome, side: str) -> dict[str, Any]:
    """This side's hidden facts, from its private area (a card drawn and not yet readable is left out)."""
    openings = secrets.get("openings", {})
    mine: dict[str, Any] = {}
    for label, s in out.owners.items():
        if s != side:
            continue
        opening = openings.get(label)
        if type(opening) is not dict:  # a card not yet readable is left out; any other fact must be here
            if label.startswith("card.") and label not in openings:
                continue
            opening = _own(secrets, label)
        mine[label] = opening["value"]
    return mine


def _read_hands(game_dir: Path, man: Manifest, hidden: HiddenRules, side: str, out: Outcome,
                secrets: dict[str, Any]) -> None:
    """Read every card of this side whose other keys are all published (dealt, or drawn later, §13.12)."""
    deck = hidden.deck(man.scenario, dict(man.options))
    assert deck is not None  # a deal was made, so the rules have a deck
    openings = secrets.setdefault("openings", {})
    new: dict[str, Any] = {}
    for d in out.deals:
        if any(card_label(side, d.offset + j) not in openings for j in d.positions.get(side, [])):
            hand = dealing.my_hand(man.game, deck, d, side, secrets["deals"][str(d.step)])
            new.update({label: o for label, o in hand.items() if label not in openings})
            secrets.setdefault("hands", {})[str(d.step)] = sorted(hand)  # the labels read, per deal
    if new:
        openings.update(new)
        secrets_file.save(game_dir, side, secrets)


def own(game_dir: Path, me: PrivateIdentity, out: Outcome | None = None) -> dict[str, Any]:
    """This side's hidden facts now, its newly delivered cards read: what its player or bot may see. ``out``:
    the folder's outcome, when the caller has just computed it."""
    return own_of(game_dir, side_of(manifest(game_dir), me), out)


def own_of(game_dir: Path, side: str, out: Outcome | None = None) -> dict[str, Any]:
    """``own`` for the side named (its private area is in this folder)."""
    man = manifest(game_dir)
    hidden = hidden_rules(rules_of(man))
    out = compute(man, messages(game_dir, man)) if out is None else out
    secrets = secrets_file.load(game_dir, side)
    if hidden is not None and out.deals:
        _read_hands(game_dir, man, hidden, side, out, secrets)
    return own_facts(secrets, out, side)


def _prepare(hidden: HiddenRules, out: Outcome, side: str, order: Any, secrets: dict[str, Any]) -> Any:
    """The draft as committed: the rules name this side's hidden cards by label and seal what the order
    hides behind fresh handles, whose openings stay here until the rules ask (protocol §13.12)."""
    def hide(label: str, value: Any) -> str:
        commitment, opening = handles.make(label, value)
        secrets.setdefault("openings", {})[label] = {"label": label, "salt": opening.salt, "value": opening.value}
        return commitment
    return prepare(hidden, out.state, side, order, own_facts(secrets, out, side), hide)


def _check_own(hidden: HiddenRules, out: Outcome, side: str, order: Any, secrets: dict[str, Any]) -> None:
    """The order against the rules with this side's own facts known too: a player is told before it binds
    itself that its order breaks a rule only its hidden facts decide."""
    try:
        hidden.validate(out.state, side, order, Facts(out.revealed, out.owners, own_facts(secrets, out, side)))
    except NeedReveal:
        pass  # a rule on the other side's hidden facts: the record checks it when they open


def _openings(hidden: HiddenRules, side: str, out: Outcome, secrets: dict[str, Any], owed: str) -> list[dict[str, Any]]:
    """What an ``open`` (the asked fact, and every other fact of this side the paused step will read
    before it needs another side's: sent ahead) or a ``final`` (every fact) opens."""
    if owed == "final":
        return [_own(secrets, label) for label in sorted(own_facts(secrets, out, side))]
    r = out.resume
    return _read_ahead(hidden, out, side, secrets, r["public"], r["orders"], bytes.fromhex(r["seed"]),
                       asked_of(r["question"], side))


def _read_ahead(hidden: HiddenRules, out: Outcome, side: str, secrets: dict[str, Any], public: dict[str, Any],
                orders: dict[str, Any], seed: bytes, first: list[str]) -> list[dict[str, Any]]:
    """``first``, then every fact of this side the step reads, on its stream, before it needs another side's:
    the side's client runs the step itself with its own facts known."""
    facts = Facts(out.revealed, out.owners, own_facts(secrets, out, side))
    try:
        hidden.adjudicate(public, orders, facts, Drbg(seed))
    except (NeedReveal, PbemError):
        pass  # it needs another side's fact; or an order the record will refuse, convicting its side
    return [_own(secrets, label) for label in [*first, *(f for f in facts.foreseen if f not in first)]]


def send_signed(game_dir: Path, me: PrivateIdentity, man: Manifest, side: str, step: int, prev: str, phase: str,
                now: int, body: dict[str, Any]) -> str:
    """Sign ``me``'s message and take it into this folder first (a side's own record holds all it sent)."""
    text = message.write(me, man.game, side, step, prev, phase, now, body)
    take(game_dir, text.encode("ascii"), f"your {phase}")
    return text


def verify(game_dir: Path) -> list[str]:
    """Replay the record from the manifest and the messages; every ledger file must be what it computes.
    Every message file is read again and the record computed from the first message, with nothing this
    process kept (record.compute's ``fresh``): what a folder says is checked, never remembered."""
    return verified(game_dir)[0]


def verified(game_dir: Path) -> tuple[list[str], Outcome]:
    """verify's lines and the record it computed (``audited`` takes both: one replay for the two checks)."""
    man = manifest(game_dir)
    out = compute(man, messages(game_dir, man, fresh=True), fresh=True)
    ledger = Path(game_dir) / "ledger"
    names = sorted(n for n, _ in inputs.list_folder(ledger, "the ledger folder")) if ledger.is_dir() else []
    want = [f"{n:04d}.json" for n in range(len(out.entries))]
    if names != want:
        raise LedgerError(f"{ledger} holds {', '.join(names) or 'nothing'}, but the messages compute "
                          f"{', '.join(want) or 'nothing'} (protocol §13.4).")
    for name, e in zip(want, out.entries):
        if inputs.read_input(ledger / name, LIMIT, "a ledger entry", root=Path(game_dir)) != e:
            raise LedgerError(f"{ledger / name} is not the entry its messages compute (protocol §13.4).")
    lines = [f"verify ok: game {man.game}, peer mode, {len(out.entries)} entries replayed from "
             f"{len(messages(game_dir, man))} signed messages"]
    if out.verdict:
        lines.append(out.verdict)
    elif out.owes:
        lines.append(describe(out, len(out.entries)))
    else:
        end = json.loads(out.entries[-1])
        if end.get("kind") == "end" and "resigned" in end.get("result", {}):  # protocol §13.13
            r = end["result"]
            lines.append(f"{r['resigned']} resigned at step {r['step']}; {r['winner']} wins "
                         "(final audit: every commitment opened, every fact checked)")
        rules = rules_of(man)
        judge = hidden_rules(rules) or rules
        result = end["result"] if end.get("kind") == "end" else judge.result(out.state)
        lines.append(f"result: {json.dumps(result, sort_keys=True)}")
    return lines, out


def audit(game_dir: Path) -> list[str]:
    """The end of a game: the replay passes, the game is over, and every commitment was opened."""
    return audited(game_dir, *verified(game_dir))


def audited(game_dir: Path, lines: list[str], out: Outcome) -> list[str]:
    """audit's lines from what ``verified`` gave for the folder (the record it computed from the first message)."""
    man = manifest(game_dir)
    if out.verdict and json.loads(out.entries[-1])["kind"] == "void":
        raise LedgerError(out.verdict)
    if out.owes:
        raise LedgerError(f"game {man.game} is not over: {describe(out, len(out.entries))} (protocol §13.4).")
    return [*lines, "audit ok: every commitment opened and every chain link followed its anchor"]


def describe(out: Outcome, step: int) -> str:
    if out.verdict:
        return out.verdict
    if not out.owes:
        return "the game is over"
    said = f"step {step}: " + ", ".join(f"{s} owes {w}" for s, w in sorted(out.owes.items()))
    q = out.resume.get("question")
    if not q:
        return said
    asks = ", ".join(f"{a['owner']} to reveal {a['label']}" for a in [q, *q.get("also", [])])
    return f"{said} (the rules ask {asks}: {q['rule']})"


def check_proof(path: Path, man: Manifest) -> str:
    """A proof file convicts when its signed messages alone compute the void it names (protocol §13.6)."""
    try:
        doc = json.loads(inputs.read_text_input(path, LIMIT, "a peer proof"))
        texts, cheater, step = doc["messages"], doc["cheater"], doc["step"]
        if doc["format"] != "pbem-peer-proof-v1" or doc["manifest"] != man.hash or not isinstance(texts, list):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise FormatError(f"{path} is not a peer proof of this game (protocol §13.6).") from None
    msgs = [message.read(str(t), f"{path} message {i}", man.game, man.keys) for i, t in enumerate(texts)]
    out = compute(man, msgs, fresh=True)
    last = json.loads(out.entries[-1]) if out.entries else {}
    if last.get("kind") != "void" or (last["cheater"], last["step"]) != (cheater, step):
        raise LedgerError(f"{path} does not prove that {cheater} cheated at step {step}: its messages compute "
                          "no such void (protocol §13.6).")
    return out.verdict
