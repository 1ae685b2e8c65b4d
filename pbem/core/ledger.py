"""The public record: a referee-signed manifest and hash-linked, referee-signed ledger entries.

Files (docs/protocol.md §7): ``game.toml`` and ``ledger/NNNN.toml`` are TOML documents whose
every field but ``signature`` is the signed body; ``signature`` is Ed25519 over the domain and
the canonical JSON of the body (§2). A record's hash is H("pbem-record-v2" || canonical JSON of
the parsed document, signature included), so chain and signature cover the same thing and line
ends do not matter; entry 0 links to the manifest's hash, entry e to entry e-1's. Game data that
TOML cannot hold (``None``) travels as canonical JSON strings: ``options``, ``board``, ``result``.

``verify_game`` checks everything anyone can check without secrets.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pbem.core import inputs, on_manifest, toml_exact
from pbem.core.canonical import canonical_bytes, canonical_pair
from pbem.core.encoding import is_hex64
from pbem.core.errors import FormatError, LedgerError, PbemError
from pbem.core.identity import PrivateIdentity, PublicIdentity, b64, check_name, unb64
from pbem.core.lazy import lazy
from pbem.core.records import field, record

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import beacon
    from pbem.core import envelope as env_mod
    from pbem.core.envelope import Envelope
else:
    beacon = lazy("pbem.core.beacon")  # verify_game alone reads envelopes and dice reveals: status never loads them
    env_mod = lazy("pbem.core.envelope")

MANIFEST_FORMAT = "pbem-game-v2"
SETUP_REFEREE = "referee"  # set-up draws from the dice chain alone (game new)
SETUP_PLAYERS = "players"  # set-up also mixes every side's join entropy (game open / join / start)
ENTRY_FORMAT = "pbem-ledger-v2"
MANIFEST_DOMAIN = b"pbem-manifest-v2"
ENTRY_DOMAIN = b"pbem-ledger-entry-v2"
DEADLINE_POLICY = "default-orders"  # a side silent at the deadline gets the ruleset's default orders
DEFAULT_DEADLINE_HOURS = 72
PRIVATE_DIR = ".pbem"  # the referee's private area of a game folder: never published (protocol §7)
RECORD_DOMAIN = b"pbem-record-v2"


def record_hash_of(doc: dict[str, Any]) -> str:
    """The hash of a signed record: H("pbem-record-v2" || canonical_bytes(document with its signature)).

    What is chained is what is signed: CRLF line ends, re-wrapped TOML or another key order give
    the same hash, so a folder that went through git's autocrlf or a mail client still verifies.
    """
    return hashlib.sha256(RECORD_DOMAIN + canonical_bytes(doc)).hexdigest()


def record_hash(data: bytes, where: str = "record") -> str:
    """The record hash (§7) of the bytes of a manifest or ledger entry."""
    return record_hash_of(_parse_toml(data, where))


def _parse_toml(data: bytes, where: str) -> dict[str, Any]:
    """The document; the form the tools write is read by ``toml_exact`` (the same document, faster)."""
    try:
        return toml_exact.read(data.decode("utf-8"))
    except ValueError as exc:  # not UTF-8, or tomllib.TOMLDecodeError
        raise FormatError(f"{where} is not UTF-8 TOML ({exc}) (protocol §7).") from None


def dump_signed(body: dict[str, Any], signer: PrivateIdentity, domain: bytes) -> bytes:
    """TOML text of ``body`` plus its signature."""
    import tomli_w  # here: only writers need it (docs/architecture.md "Start-up")
    sig = signer.sign(domain + canonical_bytes(body))
    return tomli_w.dumps({**body, "signature": b64(sig)}).encode("utf-8")


def load_signed(data: bytes, where: str, domain: bytes, key: PublicIdentity | None) -> dict[str, Any]:
    """Parse a signed TOML document; checks the signature when ``key`` is given."""
    return load_record(data, where, domain, key)[0]


def load_record(data: bytes, where: str, domain: bytes, key: PublicIdentity | None) -> tuple[dict[str, Any], str]:
    """(body, record hash) of a signed TOML document; checks the signature when ``key`` is given."""
    doc, sig, message, digest = _signed(data, where, domain)
    if key is not None:
        _check_signature(key, sig, message, where)
    return doc, digest


def _signed(data: bytes, where: str, domain: bytes) -> tuple[dict[str, Any], bytes, bytes, str]:
    """A signed TOML document parsed once: (body, signature, signed message, record hash). The
    body's canonical JSON, signed, and the whole document's, hashed, are made in one encoding."""
    doc = _parse_toml(data, where)
    sig_text = doc.pop("signature", None)
    sig = unb64(sig_text, f"{where}: signature", 64)
    try:
        body_bytes, record_bytes = canonical_pair(doc, "signature", sig_text)
    except (FormatError, UnicodeEncodeError, RecursionError):
        raise FormatError(f"{where} holds a value with no canonical form (a float, a date or a lone surrogate) "
                          "(protocol §2).") from None
    return doc, sig, domain + body_bytes, hashlib.sha256(RECORD_DOMAIN + record_bytes).hexdigest()


def _check_signature(key: PublicIdentity, sig: bytes, message: bytes, where: str) -> None:
    if not key.verifies(sig, message):
        raise LedgerError(f"{where}: the referee's signature does not verify; the file was altered "
                          "(protocol §7.1).")


def json_field(doc: dict[str, Any], name: str, where: str) -> Any:
    """A field holding canonical JSON text."""
    text = doc.get(name)
    if not isinstance(text, str):
        raise FormatError(f"{where}: field {name} must be a JSON string (protocol §7).")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise FormatError(f"{where}: field {name} is not valid JSON (protocol §7).") from None
    if canonical_bytes(value).decode("utf-8") != text:
        raise FormatError(f"{where}: field {name} is not canonical JSON (protocol §2).")
    return value


def _str(doc: dict[str, Any], name: str, where: str) -> str:
    value = doc.get(name)
    if not isinstance(value, str):
        raise FormatError(f"{where}: field {name} must be a string (protocol §7).")
    return value


def _int(doc: dict[str, Any], name: str, where: str) -> int:
    value = doc.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"{where}: field {name} must be an integer (protocol §7).")
    return value


def _table(doc: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    value = doc.get(name, {})
    if not isinstance(value, dict):
        raise FormatError(f"{where}: field {name} must be a table (protocol §7).")
    return value


@record
class Manifest:
    """The parsed, signature-checked ``game.toml``."""

    game: str
    ruleset: str
    ruleset_version: str
    scenario: str
    options: dict[str, Any]
    sides: tuple[str, ...]
    identities: dict[str, PublicIdentity]
    referee: PublicIdentity
    anchor: bytes
    chain_length: int
    deadline: str  # the deadline policy, "default-orders"
    hash: str
    setup: str = SETUP_REFEREE  # who supplies set-up entropy (§8.1)
    deadline_hours: int = DEFAULT_DEADLINE_HOURS  # each step's deadline: entry written + hours (0: no deadline)


def manifest_body(game: str, ruleset: str, version: str, scenario: str, options: dict[str, Any],
                  sides: tuple[str, ...], identities: dict[str, PublicIdentity], referee: PublicIdentity,
                  anchor: bytes, length: int, deadline: str, setup: str = SETUP_REFEREE,
                  deadline_hours: int = DEFAULT_DEADLINE_HOURS) -> dict[str, Any]:
    body = {"format": MANIFEST_FORMAT, "game": game, "ruleset": ruleset, "ruleset_version": version,
            "scenario": scenario, "options": canonical_bytes(options).decode("utf-8"), "sides": list(sides),
            "deadline": {"policy": deadline, "hours": deadline_hours}, "referee": referee.to_dict(),
            "identities": {s: identities[s].to_dict() for s in sides},
            "dice": {"anchor": anchor.hex(), "length": length}}
    if setup != SETUP_REFEREE:  # absent means the referee-only set-up of games made before joins existed
        body["setup"] = setup
    return body


def read_manifest(game_dir: Path) -> Manifest:
    """Parse ``game.toml`` and check the referee's signature on it."""
    path = Path(game_dir) / "game.toml"
    if Path(game_dir).exists() and not Path(game_dir).is_dir():
        raise FormatError(f"{game_dir} is a file, not a game folder (protocol §7.1).")
    try:
        data = inputs.read_input(path, inputs.MAX_FILE, "a manifest", root=Path(game_dir))
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file, so {game_dir} is not a game folder (protocol §7.1).") from None
    man = parse_manifest(data, str(path))
    from pbem.core import components  # every verb that reads a game folder checks its component file (§10.3)
    components.in_game(Path(game_dir), man.options)
    on_manifest.manifest_read(Path(game_dir), man)  # a player's client notes the latest entry (seen.py, §8.3)
    return man


# A process that reads one folder again and again (the git referee's pass reads the manifest a dozen
# times, the latest entry ten) parses each file's exact bytes once: a parse is a function of the bytes
# (and the path, which an entry records), and records are frozen. Only what parsed and checked is kept.
_PARSED: dict[tuple[str, bytes, str, str], Any] = {}
_PARSED_MAX = 256  # files kept, each at most _PARSED_BYTES long: a long-running judge holds at most 16 MiB
_PARSED_BYTES = 64 << 10
_T = TypeVar("_T")


def _remember(key: tuple[str, bytes, str, str], value: _T) -> _T:
    if len(key[1]) > _PARSED_BYTES:
        return value
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[key] = value
    return value


def parse_manifest(data: bytes, where: str) -> Manifest:
    """Parse the bytes of a ``game.toml`` and check the referee's signature on them."""
    key = ("manifest", data, where, "")
    if key in _PARSED:
        man: Manifest = _PARSED[key]
        return man
    return _remember(key, _parse_manifest(data, where))


def _parse_manifest(data: bytes, where: str) -> Manifest:
    doc, sig, message, digest = _signed(data, where, MANIFEST_DOMAIN)
    if doc.get("format") != MANIFEST_FORMAT:
        raise FormatError(f"{where}: format must be {MANIFEST_FORMAT!r} (protocol §7.1).")
    referee = PublicIdentity.from_dict(doc.get("referee"), f"{where}: referee")
    _check_signature(referee, sig, message, where)  # the one parse of the file, checked once its signer is known
    sides = doc.get("sides")
    if not isinstance(sides, list) or not sides or not all(isinstance(s, str) and s for s in sides) \
            or len(set(sides)) != len(sides):
        raise FormatError(f"{where}: sides must be a list of distinct side names (protocol §7.1).")
    for i, s in enumerate(sides):
        check_name(s, f"{where}: sides[{i}]")
    check_name(doc.get("game"), f"{where}: game")
    ids = _table(doc, "identities", where)
    if set(ids) != set(sides):
        raise FormatError(f"{where}: identities must name exactly the sides {', '.join(sides)} (protocol §7.1).")
    dice = _table(doc, "dice", where)
    anchor_hex = dice.get("anchor")
    if not is_hex64(anchor_hex):
        raise FormatError(f"{where}: dice.anchor must be 64 hex digits (protocol §8).")
    length = _int(dice, "length", f"{where}: dice")
    options = json_field(doc, "options", where)
    if not isinstance(options, dict):
        raise FormatError(f"{where}: options must be a JSON object (protocol §7.1).")
    deadline = _table(doc, "deadline", where)
    hours = deadline.get("hours")
    if set(deadline) != {"policy", "hours"} or deadline.get("policy") != DEADLINE_POLICY \
            or not isinstance(hours, int) or isinstance(hours, bool) or not 0 <= hours <= 100_000:
        raise FormatError(f"{where}: field deadline must be a table with policy = {DEADLINE_POLICY!r} and "
                          "hours = a whole number from 0 to 100000 (protocol §7.1).")
    setup = doc.get("setup", SETUP_REFEREE)
    if setup not in (SETUP_REFEREE, SETUP_PLAYERS) or doc.get("setup") == SETUP_REFEREE:
        raise FormatError(f"{where}: field setup, when present, must be {SETUP_PLAYERS!r} (protocol §8.1).")
    return Manifest(_str(doc, "game", where), _str(doc, "ruleset", where), _str(doc, "ruleset_version", where),
                    _str(doc, "scenario", where), options, tuple(sides),
                    {s: PublicIdentity.from_dict(ids[s], f"{where}: identities.{s}") for s in sides},
                    referee, bytes.fromhex(anchor_hex), length, DEADLINE_POLICY,
                    digest, setup, hours)


@record
class Entry:
    """A parsed, signature-checked ledger entry."""

    number: int
    kind: str  # "setup" or "step"
    step: int  # the step adjudicated (-1 for setup)
    prev: str
    next_step: int
    owes: dict[str, str]
    orders: dict[str, str]
    defaulted: tuple[str, ...]
    dice: bytes
    state: str
    commitments: dict[str, str]
    reports: dict[str, str]
    board: Any
    result: Any
    hash: str
    path: Path
    deadline: int = 0  # unix seconds: the deadline of next_step (0 when none, §7.2)
    written: int = 0  # unix seconds: when the referee wrote the entry (§8.3)
    received: dict[str, int] = field(default_factory=dict)  # side -> receipt seq of each consumed order (§9.2)


def entry_path(game_dir: Path, number: int) -> Path:
    return Path(game_dir) / "ledger" / _entry_name(number)


# The names of the record's files in their folders (the paths below, and the listing that
# accounts for every file, ``_record_names``, use them).
def _entry_name(number: int) -> str:
    return f"{number:04d}.toml"


def _step_name(step: int, side: str) -> str:
    """An order's, a pending order's or a report's name: NNNN-side.pbem."""
    return f"{step:04d}-{side}.pbem"


def _state_name(number: int) -> str:
    return f"{number:04d}.pbem"


def _join_name(side: str) -> str:
    return f"{side}.pbem"


def entry_body(game: str, number: int, prev: str, owes: dict[str, str], orders: dict[str, str],
               defaulted: list[str], dice: bytes, state: str, commitments: dict[str, str],
               reports: dict[str, str], board: Any, result: Any, deadline: int = 0,
               received: dict[str, int] | None = None, written: int = 0) -> dict[str, Any]:
    return {"format": ENTRY_FORMAT, "game": game, "entry": number, "kind": "setup" if number == 0 else "step",
            "step": number - 1, "next_step": number, "prev": prev, "owes": dict(sorted(owes.items())),
            "orders": dict(sorted(orders.items())), "defaulted": sorted(defaulted), "dice": dice.hex(),
            "state": state, "commitments": dict(sorted(commitments.items())), "reports": dict(sorted(reports.items())),
            "board": canonical_bytes(board).decode("utf-8"), "result": canonical_bytes(result).decode("utf-8"),
            "deadline": deadline, "received": dict(sorted((received or {}).items())), "written": written}


# The fields of a ledger entry besides ``signature``: exactly those the writer puts in (§7.2,
# closed; the same list as schemas/ledger-entry.schema.json, which tests/core check against it).
ENTRY_FIELDS = tuple(entry_body("", 0, "", {}, {}, [], bytes(32), "", {}, {}, None, None))


def read_entry(game_dir: Path, number: int, manifest: Manifest) -> Entry:
    """Parse ``ledger/NNNN.toml`` and check its signature and own fields (not its links)."""
    path = entry_path(game_dir, number)
    try:
        data = inputs.read_input(path, inputs.MAX_FILE, "a ledger entry", root=Path(game_dir))
    except FileNotFoundError:
        raise LedgerError(f"{path}: ledger entry {number} is missing (protocol §7.2).") from None
    where = str(path)
    key = ("entry", data, where, manifest.hash)
    if key in _PARSED:
        entry: Entry = _PARSED[key]
        return entry
    return _remember(key, _parse_entry(data, path, number, manifest))


def _parse_entry(data: bytes, path: Path, number: int, manifest: Manifest) -> Entry:
    where = str(path)
    doc, digest = load_record(data, where, ENTRY_DOMAIN, manifest.referee)
    extra, missing = sorted(set(doc) - set(ENTRY_FIELDS)), [f for f in ENTRY_FIELDS if f not in doc]
    if extra or missing:
        raise LedgerError(f"{where}: " + (f"field {extra[0]} is not a ledger entry field" if extra else
                                         f"field {missing[0]} is missing") +
                          "; an entry has exactly the fields of §7.2, signed or not (protocol §7.2).")
    if doc.get("format") != ENTRY_FORMAT:
        raise FormatError(f"{where}: format must be {ENTRY_FORMAT!r} (protocol §7.2).")
    if doc.get("game") != manifest.game:
        raise LedgerError(f"{where}: field game is {doc.get('game')!r}, not {manifest.game!r} (protocol §7.2).")
    if _int(doc, "entry", where) != number:
        raise LedgerError(
            f"{where}: field entry is {doc.get('entry')}, but the file is entry {number} (protocol §7.2)."
        )
    if _int(doc, "next_step", where) != number or _int(doc, "step", where) != number - 1 \
            or doc.get("kind") != ("setup" if number == 0 else "step"):
        raise LedgerError(f"{where}: fields kind, step and next_step do not fit entry {number} (protocol §7.2).")
    dice_hex = _str(doc, "dice", where)
    if not is_hex64(dice_hex):
        raise FormatError(f"{where}: field dice must be 64 hex digits (protocol §8).")
    deadline, written = _int(doc, "deadline", where), _int(doc, "written", where)
    received = _table(doc, "received", where)
    if deadline < 0 or written < 0 \
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in received.values()):
        raise FormatError(f"{where}: fields deadline and written must be >= 0 and each received seq >= 1 "
                          "(protocol §7.2).")
    defaulted = doc.get("defaulted", [])
    if not isinstance(defaulted, list) or not all(isinstance(s, str) for s in defaulted):
        raise FormatError(f"{where}: field defaulted must be a list of sides (protocol §7.2).")
    return Entry(number, doc["kind"], number - 1, _str(doc, "prev", where), number, _table(doc, "owes", where),
                 _table(doc, "orders", where), tuple(defaulted), bytes.fromhex(dice_hex), _str(doc, "state", where),
                 _table(doc, "commitments", where), _table(doc, "reports", where), json_field(doc, "board", where),
                 json_field(doc, "result", where), digest, path, deadline, written, received)


def entry_numbers(game_dir: Path) -> list[int]:
    """Entry numbers present, checked to run 0, 1, 2, ... with no gap."""
    folder = Path(game_dir) / "ledger"
    if not folder.is_dir():
        raise LedgerError(f"{folder}: no ledger folder (protocol §7.2).")
    names = {name for name, _ in inputs.list_folder(folder, "the ledger folder")}  # no '.' names: temporary files
    if names and names == {f"{i:04d}.toml" for i in range(len(names))}:  # the usual case, checked at C speed
        return list(range(len(names)))
    numbers = []
    for name in sorted(names):
        m = re.match(r"^(\d{4,})\.toml$", name)  # the rare path: re compiles it here, once
        if not m:
            raise LedgerError(f"{folder / name}: not a ledger entry name (NNNN.toml) (protocol §7.2).")
        numbers.append(int(m.group(1)))
    numbers.sort()
    if not numbers:
        raise LedgerError(f"{folder}: the ledger is empty (protocol §7.2).")
    for i, n in enumerate(numbers):
        if n != i:
            raise LedgerError(f"{folder}: ledger entry {i} is missing (found {n:04d}.toml next) (protocol §7.2).")
    return numbers


def check_started(game_dir: Path, manifest: Manifest) -> None:
    """A game opened for joins has no ledger until ``game start``: say so, not that the ledger is missing."""
    if manifest.setup == SETUP_PLAYERS and not (Path(game_dir) / "ledger").exists():
        raise LedgerError(f"game {manifest.game} has not started yet: the referee starts it with every side's "
                          "join (protocol §8.1).")


def latest(game_dir: Path, manifest: Manifest) -> Entry:
    check_started(game_dir, manifest)
    return read_entry(game_dir, entry_numbers(game_dir)[-1], manifest)


def order_path(game_dir: Path, step: int, side: str) -> Path:
    return Path(game_dir) / "orders" / _step_name(step, side)


def join_path(game_dir: Path, side: str) -> Path:
    return Path(game_dir) / "joins" / _join_name(side)


def private_dir(game_dir: Path) -> Path:
    """The referee's private area (``GAME/.pbem``): pending orders, receipts, opening secrets (§7)."""
    return Path(game_dir) / PRIVATE_DIR


def opening_path(game_dir: Path) -> Path:
    """The referee's sealed secrets between ``game open`` and ``game start`` (§8.1)."""
    return private_dir(game_dir) / "opening.pbem"


def pending_path(game_dir: Path, step: int, side: str) -> Path:
    """A received order kept, out of the public record, until its step closes (§7.3)."""
    return private_dir(game_dir) / "pending" / _step_name(step, side)


def receipt_path(game_dir: Path, step: int, side: str, seq: int) -> Path:
    """The referee's copy of the receipt it issued for an order (§9.2)."""
    return private_dir(game_dir) / "receipts" / f"{step:04d}-{side}-{seq:03d}.pbem"


def report_path(game_dir: Path, step: int, side: str) -> Path:
    return Path(game_dir) / "reports" / _step_name(step, side)


def state_path(game_dir: Path, number: int) -> Path:
    return Path(game_dir) / "state" / _state_name(number)


@record
class Record:
    """A verified public record: the summary ``verify_game`` returns, and the manifest and the
    entries as verify parsed them, so a caller that goes on (the audit) reads no file twice."""

    summary: dict[str, Any]
    manifest: Manifest
    entries: list[Entry]
    consumed: dict[Path, Envelope] = field(default_factory=dict)  # path -> Envelope: the orders and joins verify
    # parsed and checked (hash, signature, header), so the audit opens them without reading them again


def verify_game(game_dir: Path, now: int | None = None) -> dict[str, Any]:
    """Check the whole public record; LedgerError (or a subclass of PbemError) names the first failure.

    ``now`` (unix seconds; None: the clock) bounds when entries may say they were written (§8.3).
    Returns a summary: game, entries, step, owes, result and readable lines.
    """
    return verify_record(game_dir, now).summary


def verify_record(game_dir: Path, now: int | None = None) -> Record:
    """``verify_game``, keeping what it parsed."""
    game_dir = Path(game_dir)
    now = int(time.time()) if now is None else int(now)
    man = read_manifest(game_dir)
    lines = [f"game {man.game}: ruleset {man.ruleset} {man.ruleset_version}, scenario {man.scenario}, "
             f"set-up entropy from {'the players and ' if man.setup == SETUP_PLAYERS else ''}the dice chain",
             f"referee {man.referee.name} ({man.referee.fingerprint})"]
    lines += [f"side {s}: {man.identities[s].name} ({man.identities[s].fingerprint})" for s in man.sides]
    prev_owes: dict[str, str] = {}
    prev_hash, prev_dice = man.hash, man.anchor
    previous: Entry | None = None
    check_started(game_dir, man)
    entries = entry_numbers(game_dir)
    if len(entries) > man.chain_length:
        raise LedgerError(
            f"{game_dir}: {len(entries)} entries exceed the dice chain of {man.chain_length} (protocol §8)."
        )
    entry: Entry | None = None
    read: list[Entry] = []
    consumed: dict[Path, Envelope] = {}
    for n in entries:
        entry = read_entry(game_dir, n, man)
        read.append(entry)
        where = str(entry.path)
        if entry.prev != prev_hash:
            raise LedgerError(f"{where}: field prev does not match the hash of "
                              f"{'game.toml' if n == 0 else f'entry {n - 1}'}; the chain is broken (protocol §7.2).")
        beacon.check_reveal(prev_dice, entry.dice, n, where)
        unknown = sorted(set(entry.owes) - set(man.sides))
        if unknown:
            raise LedgerError(f"{where}: field owes names unknown side {unknown[0]!r} (protocol §7.2).")
        if n > 0:
            _verify_orders(game_dir, man, entry, prev_owes, prev_hash, consumed)
        else:
            _verify_joins(game_dir, man, entry, consumed)
        verify_times(man, entry, previous, now)
        _verify_reports(game_dir, man, entry)
        prev_hash, prev_dice, prev_owes, previous = entry.hash, entry.dice, entry.owes, entry
        lines.append(f"entry {n:04d}: {'setup' if n == 0 else f'step {n - 1}'}"
                     + (f", {'joins' if n == 0 else 'orders'} from {', '.join(sorted(entry.orders))}"
                        if entry.orders else "")
                     + (f", defaults for {', '.join(entry.defaulted)}" if entry.defaulted else "")
                     + f"; next: {', '.join(f'{s} owes {k}' for s, k in sorted(entry.owes.items())) or 'nobody owes'}")
    assert entry is not None
    listings = _listings(game_dir)
    _verify_nothing_after(listings, entry.number)
    _verify_record_files(game_dir, man, read, listings)
    _verify_state_files(game_dir, man, read)
    lines.append(f"ok: {len(entries)} entries, signatures, chain links, dice reveals, orders and reports check out")
    return Record({"game": man.game, "entries": len(entries), "step": entry.number, "owes": entry.owes,
                   "result": entry.result, "board": entry.board, "lines": lines}, man, read, consumed)


RECORD_FOLDERS = ("ledger", "orders", "reports", "state", "joins")


# A record folder as listed once: (folder, its path, its (name, is a file) sorted by name,
# or None when the folder is a file).
Listing = tuple[str, Path, list[tuple[str, bool]] | None]


def _listings(game_dir: Path) -> list[Listing]:
    """Each record folder that exists, listed once; a link, device or FIFO in it is refused (§3.1)."""
    listings: list[Listing] = []
    for folder in RECORD_FOLDERS:
        where = game_dir / folder
        if not os.path.lexists(where):
            continue
        if inputs.is_file(where):
            listings.append((folder, where, None))
            continue
        listings.append((folder, where, inputs.list_folder(where, f"the {folder} folder")))
    return listings


def _verify_nothing_after(listings: list[Listing], last: int) -> None:
    """No report, state or order belongs to an entry past the last one: the ledger was cut short (§7.2)."""
    by_folder = {folder: (where, found) for folder, where, found in listings}
    for folder in ("reports", "state", "orders"):
        where, found = by_folder.get(folder, (Path(), None))
        for name, _ in found or ():
            head = name[:4]
            if len(head) == 4 and head.isascii() and head.isdigit() and int(head) > last:
                raise LedgerError(f"{where / name} belongs to entry {int(head)}, but the ledger ends at entry {last}: "
                                  "an entry was removed (protocol §7.2).")


CLOCK_SLACK = 3600  # seconds a referee's clock may run ahead of a verifier's (or a player's of the referee's)


def deadline_of(man: Manifest, owes: dict[str, str], written: int) -> int:
    """The deadline an entry written at ``written`` must record: written + the game's hours whenever
    anyone owes and the game has a deadline, else 0 (§8.3)."""
    return written + man.deadline_hours * 3600 if owes and man.deadline_hours else 0


def when(t: int) -> str:
    """A unix time as people read it (UTC), with the number itself."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t)) + f" ({t})"


def verify_times(man: Manifest, entry: Entry, previous: Entry | None, now: int) -> None:
    """The clock rules of an entry (§8.3): its write time follows the previous entry's and is not
    ahead of the verifier's clock; its deadline is exactly its write time plus the game's hours
    whenever anyone owes (0 only when nobody owes or the game has none); and it defaults a side
    only if written at or after the step's deadline."""
    where = str(entry.path)
    if entry.written > now + CLOCK_SLACK:
        raise LedgerError(f"{where}: field written says the entry was written at {when(entry.written)}, more than "
                          f"an hour after now, {when(now)}: the referee's clock is wrong or it claimed a deadline "
                          "had passed early (protocol §8.3).")
    if previous is not None and entry.written <= previous.written:
        raise LedgerError(f"{where}: field written ({entry.written}) is not after entry {previous.number}'s "
                          f"({previous.written}); write times strictly increase along the chain (protocol §8.3).")
    want = deadline_of(man, entry.owes, entry.written)
    if entry.deadline != want:
        why = (f"written + {man.deadline_hours} hours = {want}, since {', '.join(sorted(entry.owes))} "
               f"{'owes' if len(entry.owes) == 1 else 'owe'}" if want else
               "0, since nobody owes" if not entry.owes else "0, since the game has no deadline (hours = 0)")
        raise LedgerError(f"{where}: field deadline is {entry.deadline}, but must be {why} (protocol §8.3).")
    if not entry.defaulted or previous is None:
        return
    if not previous.deadline:
        raise LedgerError(f"{where}: defaults {', '.join(entry.defaulted)}, but the step it adjudicates had no "
                          "deadline (protocol §8.3).")
    if entry.written < previous.deadline:
        raise LedgerError(f"{where}: defaults {', '.join(entry.defaulted)}, but was written before the step's "
                          f"deadline: field written is {when(entry.written)}, the deadline "
                          f"{when(previous.deadline)}; the deadline had not passed (protocol §8.3).")


def _verify_orders(game_dir: Path, man: Manifest, entry: Entry, owed: dict[str, str], answered: str,
                   consumed: dict[Path, Envelope]) -> None:
    where = str(entry.path)
    if set(entry.received) != set(entry.orders):
        raise LedgerError(f"{where}: field received must give the receipt seq of exactly the orders consumed "
                          "(protocol §7.2).")
    given = set(entry.orders) | set(entry.defaulted)
    if set(entry.orders) & set(entry.defaulted):
        raise LedgerError(f"{where}: a side is listed both in orders and in defaulted (protocol §7.2).")
    if given != set(owed):
        raise LedgerError(f"{where}: orders and defaults cover {', '.join(sorted(given)) or 'nobody'}, but "
                          f"{', '.join(sorted(owed)) or 'nobody'} owed orders (protocol §7.2).")
    for side, digest in sorted(entry.orders.items()):
        path = order_path(game_dir, entry.step, side)
        consumed[path] = _verify_consumed(path, digest, man, entry, side, kind="order", step=entry.step,
                                          answers=answered, rule="§7.3")


def _verify_consumed(path: Path, digest: str, man: Manifest, entry: Entry, side: str, *, kind: str, step: int,
                     answers: str, rule: str) -> Envelope:
    """An envelope an entry consumed (an order, or a join for entry 0): present, the hash the
    entry names, signed by the side, bound to this game, step and answered file, sealed to the referee.
    Returns the envelope, checked."""
    try:
        raw = env_mod.decode(inputs.read_input(path, inputs.MAX_FILE, f"the {kind}", root=path.parents[1]), str(path))
    except FileNotFoundError:
        raise LedgerError(
            f"{path}: the {kind} consumed by entry {entry.number} is missing (protocol {rule})."
        ) from None
    env = env_mod.parse(raw, str(path))  # the signature first (§4.3): a flipped byte is a signature error
    if hashlib.sha256(raw).hexdigest() != digest:
        raise LedgerError(f"{path}: its hash does not match field orders.{side} of {entry.path} (protocol {rule}).")
    env_mod.expect(env, str(path), signer=man.identities[side], game=man.game, kind=kind, side=side,
                   step=step, answers=answers, to=man.referee)
    return env


def _verify_joins(game_dir: Path, man: Manifest, entry: Entry, consumed: dict[Path, Envelope]) -> None:
    """Entry 0 consumes every side's join when the players supply set-up entropy, else nothing (§8.1)."""
    where = str(entry.path)
    wanted = set(man.sides) if man.setup == SETUP_PLAYERS else set()
    if set(entry.orders) != wanted or entry.defaulted:
        raise LedgerError(f"{where}: field orders of the setup entry must name "
                          f"{', '.join(sorted(wanted)) or 'nobody'}, every side's join (protocol §8.1).")
    for side, digest in sorted(entry.orders.items()):
        path = join_path(game_dir, side)
        consumed[path] = _verify_consumed(path, digest, man, entry, side, kind="join", step=0,
                                          answers=man.hash, rule="§8.1")


def _verify_reports(game_dir: Path, man: Manifest, entry: Entry) -> None:
    where = str(entry.path)
    if set(entry.reports) != set(man.sides):
        raise LedgerError(f"{where}: field reports must name every side (protocol §7.2).")
    for side in man.sides:
        path = report_path(game_dir, entry.number, side)
        try:
            env = env_mod.read_file(path, root=game_dir)
        except inputs.Missing:
            raise LedgerError(f"{path}: the report of entry {entry.number} for {side} is missing "
                              "(protocol §7.4).") from None
        env_mod.expect(env, str(path), signer=man.referee, game=man.game, kind="report", side=side,
                       step=entry.number, answers=entry.hash, to=man.identities[side])
        env_mod.expect(env, str(path), to=man.referee)  # so the reveal bundle can give its key (§7.4, §9)


def _record_names(man: Manifest, entries: list[Entry]) -> set[tuple[str, str]]:
    """Every file the record may hold in its folders (§7), as (folder, name): the entries, the
    orders they consumed, their reports and sealed states, the joins of entry 0, and the
    referee's opening secrets. Built from the ledger alone."""
    known: set[tuple[str, str]] = {(PRIVATE_DIR, "opening.pbem")}
    for n, entry in enumerate(entries):
        known.add(("ledger", _entry_name(n)))
        known.update(("reports", _step_name(n, s)) for s in man.sides)
        known.add(("state", _state_name(n)))
        if n == 0:
            known.update(("joins", _join_name(s)) for s in entry.orders)
        else:
            known.update(("orders", _step_name(entry.step, s)) for s in entry.orders)
    return known


def _verify_record_files(game_dir: Path, man: Manifest, entries: list[Entry], listings: list[Listing]) -> None:
    """Nothing in a record folder that the ledger does not account for (§7): an order no entry
    consumed (a copy of an old order under the next step's name, a kept order published before
    its step closed), a stray report or state, a sub-folder. Names starting with ``.`` are the
    temporary files of an interrupted write and are not part of the record; nor is anything
    outside the record folders."""
    known = _record_names(man, entries)
    # The listing refused every link (§3.1), so a file is accounted for exactly when its name is one
    # the ledger names in its folder.
    for folder, where, found in listings:
        if found is None:
            raise LedgerError(f"{where} is a file; {folder}/ is a folder of the public record (protocol §7).")
        for name, is_file in found:
            if not is_file:
                raise LedgerError(f"{where / name} is a folder; the record folders hold only regular files "
                                  "(protocol §7, §3.1).")
            if (folder, name) not in known:
                p = where / name
                what = ("an order no ledger entry consumed" if folder == "orders" else
                        "a file the ledger does not account for")
                raise LedgerError(f"{p} is {what}; the record folders hold only the files of §7 "
                                  "(protocol §7).")


def _verify_state_files(game_dir: Path, man: Manifest, entries: list[Entry]) -> None:
    """The sealed state of the latest entry is required (the referee continues from it); an earlier
    one may be absent, and when present must be that entry's (§7.5)."""
    last = entries[-1].number
    if not state_path(game_dir, last).exists():
        raise LedgerError(f"{state_path(game_dir, last)}: the sealed state of the latest entry is missing "
                          "(protocol §7.5).")
    for n, entry in enumerate(entries):
        path = state_path(game_dir, n)
        if n < last and not path.exists():
            continue
        env = env_mod.read_file(path, root=game_dir)
        env_mod.expect(env, str(path), signer=man.referee, game=man.game, kind="state", step=n,
                       answers=entry.hash, to=man.referee)


__all__ = ["Manifest", "Entry", "Record", "PbemError", "verify_game", "verify_record", "read_manifest", "read_entry",
           "latest"]
