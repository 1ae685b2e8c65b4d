"""The reveal bundle and the audit: replay the whole game and compare byte for byte (protocol §9).

The bundle (JSON) holds the dice secret (from which every step key derives), the state secret
(from which every salt derives), and for every consumed order its content key plus the
decrypted entropy proof, entropy and order. The auditor opens each order envelope with its key
(the header's key commitment binds the key), re-checks each entropy proof with the side's public
key, replays setup and every step through the ruleset, and checks each ledger entry's state and
item commitments, board, result, who owes what, and report commitments. Given the players'
receipts, it also holds the ledger to them (pbem.core.receipts).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pbem.core import beacon, commitments, inputs, receipts
from pbem.core import components as components_mod
from pbem.core import envelope as env_mod
from pbem.core import game as game_mod
from pbem.core import ledger as led
from pbem.core import lock as lock_mod
from pbem.core import ruleset as rs
from pbem.core.canonical import canonical_bytes, canonical_loads
from pbem.core.drbg import Drbg
from pbem.core.errors import AuditError, FormatError
from pbem.core.identity import PrivateIdentity, b64

REVEAL_FORMAT = "pbem-reveal-v2"
REVEAL_FIELDS = {"format", "game", "dice_secret", "state_secret", "joins", "lines", "orders", "reports", "states"}
MAX_REVEAL = 64 << 20  # every order of a game (each at most 1 MiB, protocol §3); real bundles are a few hundred KiB
STATE_LABEL = game_mod.STATE_LABEL


def make_reveal(game_dir: Path, referee: PrivateIdentity, now: int | None = None) -> dict[str, Any]:
    """The reveal bundle, built with the referee's key from the game folder, whose public record
    must verify first (§7, at the clock ``now``): a bundle of a damaged record would only fail its audit."""
    return reveal_and_record(game_dir, referee, now)[0]


@lock_mod.locked
def reveal_and_record(game_dir: Path, referee: PrivateIdentity,
                      now: int | None = None) -> tuple[dict[str, Any], led.Record]:
    """``make_reveal``, and the verified record it was built from (for an audit that follows,
    so the record is verified once)."""
    man = led.read_manifest(game_dir)
    game_mod._check_referee(man, referee)
    record = led.verify_record(game_dir, now)
    entries = record.entries
    last = entries[-1]
    secret = game_mod._load_state(game_dir, man, last, referee)
    def opened(path: Path) -> dict[str, Any]:
        env = env_mod.read_file(path)
        key = env_mod.content_key(env, referee, str(path))
        proof, body = game_mod.parse_order_payload(env_mod.open_with_key(env, key, str(path)), str(path))
        entropy = game_mod.order_entropy(man, env, proof, str(path))
        return {"key": key.hex(), "proof": b64(proof), "entropy": entropy.hex(), "order": body}

    joins = {side: opened(led.join_path(game_dir, side)) for side in sorted(entries[0].orders)}
    orders: dict[str, dict[str, Any]] = {}
    for entry in entries[1:]:
        for side in sorted(entry.orders):
            orders.setdefault(f"{entry.step:04d}", {})[side] = opened(led.order_path(game_dir, entry.step, side))
    reports = {f"{entry.number:04d}": {side: env_mod.content_key(env_mod.read_file(path), referee, str(path)).hex()
                                       for side in man.sides
                                       for path in [led.report_path(game_dir, entry.number, side)]}
               for entry in entries}
    states = {f"{entry.number:04d}": env_mod.content_key(env_mod.read_file(path), referee, str(path)).hex()
              for entry in entries for path in [led.state_path(game_dir, entry.number)] if path.exists()}
    bundle = {"format": REVEAL_FORMAT, "game": man.game, "dice_secret": secret["dice_secret"],
              "state_secret": secret["state_secret"], "joins": joins, "orders": orders, "reports": reports,
              "states": states}
    bundle["lines"] = _lines(game_dir, record, bundle)
    return bundle, record


def _lines(game_dir: Path, record: led.Record, bundle: dict[str, Any]) -> dict[str, dict[str, list[int]]]:
    """The bundle's ``lines`` (§9): for a ruleset that numbers each side's report lines apart (rs.log_order),
    entry NNNN -> side -> the step-log position of each line of that report, from a replay with the
    bundle's secrets and orders (an earlier state may be pruned); {} for any other ruleset."""
    man = record.manifest
    rules = _rules(game_dir, man)
    if getattr(rules, "log_order", None) is None:
        return {}
    return {f"{entry.number:04d}": order for entry, state, _ in _replay(game_dir, record, bundle, rules)
            for order in [rs.log_order(rules, state)] if order is not None}


def dump_reveal(bundle: dict[str, Any]) -> str:
    """The bundle's text: canonical JSON (§2), its one byte form once encoded in UTF-8 (no final line end)."""
    return canonical_bytes(bundle).decode("utf-8")


def read_reveal(path: Path) -> dict[str, Any]:
    try:
        data = canonical_loads(inputs.read_input(path, MAX_REVEAL, "a reveal bundle (protocol §9)"))
    except FormatError as exc:
        if isinstance(exc, inputs.Missing) or "§3.1" in str(exc):
            raise
        why = str(exc).removesuffix(" (protocol §2).").replace("payload JSON ", "it ").replace("payload ", "it ")
        raise FormatError(f"{path} is not a JSON reveal bundle in canonical JSON, one byte form ({why}) "
                          "(protocol §9, §2).") from None
    if not isinstance(data, dict) or data.get("format") != REVEAL_FORMAT:
        raise FormatError(f"{path}: format must be {REVEAL_FORMAT!r} (protocol §9).")
    if set(data) != REVEAL_FIELDS:
        odd = sorted(set(data) ^ REVEAL_FIELDS)
        raise FormatError(f"{path}: a reveal bundle has exactly the fields {', '.join(sorted(REVEAL_FIELDS))}; "
                          f"{', '.join(odd)} is extra or missing (protocol §9).")
    return data


def _hex32(bundle: dict[str, Any], name: str) -> bytes:
    value = bundle.get(name)
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise FormatError(f"reveal bundle: {name} must be 64 hex digits (protocol §9).")
    return raw


def audit(game_dir: Path, bundle: dict[str, Any], rules: rs.Ruleset | None = None,
          receipt_files: Sequence[tuple[str, bytes]] = (), record: led.Record | None = None,
          now: int | None = None) -> dict[str, Any]:
    """Verify the public record, then replay every step; AuditError names the first divergence.

    ``receipt_files`` ((where, armored receipt) pairs, from the players) are then held against
    the ledger (§9.2): a receipted in-time order defaulted or replaced by an older one fails.
    ``record``: the record as ``ledger.verify_record`` has just returned it, when the caller
    verified it (``reveal_and_record``): it is not verified a second time. ``now``: the verifier's clock
    (unix seconds; None: the clock), which no entry may be written more than an hour after (§8.3).
    """
    record = record or led.verify_record(game_dir, now)  # verified once; its parsed entries are replayed below
    summary, man = record.summary, record.manifest
    if bundle.get("game") != man.game:
        raise AuditError(f"the reveal bundle is for game {bundle.get('game')!r}, not {man.game!r} (protocol §9).")
    state_secret = _hex32(bundle, "state_secret")
    rules = rules or _rules(game_dir, man)
    lines = bundle.get("lines")
    if not isinstance(lines, dict):
        raise FormatError("reveal bundle: lines must be a table (protocol §9).")
    for entry, state, reports in _replay(game_dir, record, bundle, rules):
        _compare(entry, str(entry.path), man, rules, state, reports, state_secret)
        _open_revealed(game_dir, man, entry, bundle, state_secret, entry.number == len(record.entries) - 1)
        if lines.get(f"{entry.number:04d}") != rs.log_order(rules, state):
            raise AuditError(f"reveal bundle: lines of entry {entry.number} do not match its replay (protocol §9).")
    _no_stray_keys(bundle, record.entries, man)
    held = [(where, receipts.parse(raw, man, where)) for where, raw in receipt_files]
    summary["lines"] += receipts.check(game_dir, man, held)
    summary["lines"].append(f"audit ok: {summary['entries']} entries replayed; dice, commitments, boards and "
                            "reports match; every report and kept state opened with the revealed keys"
                            + (f"; {len(held)} receipts honoured" if held else ""))
    return summary


def _rules(game_dir: Path, man: led.Manifest) -> rs.Ruleset:
    return rs.load(man.ruleset, man.options, components_mod.in_game(game_dir, man.options))


def _replay(game_dir: Path, record: led.Record, bundle: dict[str, Any],
            rules: rs.Ruleset) -> Iterator[tuple[led.Entry, dict[str, Any], dict[str, Any]]]:
    """(entry, replayed state, replayed reports) for every entry of ``record`` in turn: set-up with
    ``seed_0``, then each step with the bundle's orders (each opened and checked, §9) and ``seed_e``."""
    man = record.manifest
    dice_secret = _hex32(bundle, "dice_secret")
    if beacon.anchor(dice_secret, man.chain_length) != man.anchor:
        raise AuditError("reveal bundle: the dice secret does not hash to the manifest's dice anchor (protocol §8).")
    if str(rules.version) != man.ruleset_version:
        raise AuditError(f"the game used {man.ruleset} version {man.ruleset_version}; version {rules.version} "
                         "is installed and cannot replay it (protocol §10).")
    bundle_orders, bundle_joins = bundle.get("orders"), bundle.get("joins")
    if not isinstance(bundle_orders, dict) or not isinstance(bundle_joins, dict):
        raise FormatError("reveal bundle: joins and orders must be tables (protocol §9).")
    state: dict[str, Any] = {}
    for entry in record.entries:
        n = entry.number
        if n == 0:
            entropies = _revealed(man, entry, bundle_joins, "join", lambda side: led.join_path(game_dir, side),
                                  record.consumed)
            seed = _seed(dice_secret, entry, man, [(s, entropies[s][0]) for s in man.sides if s in entropies])
            state = rules.setup(man.scenario, dict(man.options), Drbg(seed))
            reports = {s: rules.report(state, s, [], man.game, 0) for s in man.sides}
        else:
            revealed = _revealed(man, entry, bundle_orders.get(f"{entry.step:04d}", {}), "order",
                                 lambda side: led.order_path(game_dir, entry.step, side), record.consumed,
                                 record.entries[n - 1])
            for side in entry.defaulted:
                revealed[side] = (b"", rules.default_order(state, side))
            seed = _seed(dice_secret, entry, man, [(s, revealed[s][0]) for s in man.sides if s in revealed])
            orders = {s: body for s, (_, body) in revealed.items()}
            state, _, reports = rs.outcome_parts(rules.adjudicate(state, orders, Drbg(seed), game_id=man.game))
        yield entry, state, reports


def _key_of(table: Any, entry: int, side: str | None, what: str) -> bytes:
    """The revealed content key of one report (``side``) or state (``side`` None) of ``entry``."""
    item = table.get(f"{entry:04d}") if isinstance(table, dict) else None
    value = item.get(side) if side is not None and isinstance(item, dict) else item if side is None else None
    raw = bytes.fromhex(value) if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) else b""
    if len(raw) != 32:
        raise AuditError(f"reveal bundle: the content key of {what} is missing or not 64 hex digits (protocol §9).")
    return raw


def _open_revealed(game_dir: Path, man: led.Manifest, entry: led.Entry, bundle: dict[str, Any],
                   state_secret: bytes, latest: bool) -> None:
    """Open every report of ``entry`` and its sealed state (the latest always; an earlier one when the
    bundle gives its key, as the referee may have pruned it while a player's copy kept it) with the content
    keys the bundle reveals (each checked against its envelope's key commitment, §4.4), and hold what
    they hold to the entry's commitments: anyone can then read every die and draw a report shows,
    without any player's key (§9)."""
    n = entry.number
    salt = commitments.salts_for(state_secret, man.game, n)
    for side in man.sides:
        path = led.report_path(game_dir, n, side)
        payload = env_mod.open_with_key(env_mod.read_file(path), _key_of(bundle.get("reports"), n, side, str(path)),
                                        str(path))
        data = canonical_loads(payload)
        label = f"report.{side}"
        if not isinstance(data, dict) or set(data) != {"salt", "report"} or data["salt"] != salt(label).hex() \
                or commitments.commit(label, salt(label), data["report"]) != entry.reports.get(side):
            raise AuditError(f"{path}: opened with the revealed key, it does not hold the report entry {n} "
                             f"commits to (protocol §7.4, §9).")
    path = led.state_path(game_dir, n)
    states = bundle.get("states")
    if not path.exists() or (not latest and not (isinstance(states, dict) and f"{n:04d}" in states)):
        return  # an earlier state the referee pruned (§7) but this copy kept: the replay held it to `state`
    data = canonical_loads(env_mod.open_with_key(env_mod.read_file(path), _key_of(bundle.get("states"), n, None,
                                                                                   str(path)), str(path)))
    if not isinstance(data, dict) or set(data) != {"entry", "state", "dice_secret", "state_secret"} \
            or data["entry"] != n or data["dice_secret"] != bundle["dice_secret"] \
            or data["state_secret"] != bundle["state_secret"] \
            or commitments.commit(STATE_LABEL, salt(STATE_LABEL), data["state"]) != entry.state:
        raise AuditError(f"{path}: opened with the revealed key, it does not hold the state entry {n} commits to, "
                         "with the bundle's secrets (protocol §7.5, §9).")


def _no_stray_keys(bundle: dict[str, Any], entries: Sequence[led.Entry], man: led.Manifest) -> None:
    """The bundle's ``reports``, ``states`` and ``lines`` name only files of the record (a closed format, §9)."""
    numbers = {f"{e.number:04d}" for e in entries}
    reports, states, lines = bundle.get("reports"), bundle.get("states"), bundle.get("lines")
    if not isinstance(reports, dict) or not isinstance(states, dict) or not isinstance(lines, dict):
        raise FormatError("reveal bundle: reports, states and lines must be tables (protocol §9).")
    stray = sorted(set(reports) - numbers) + sorted(set(states) - numbers) + sorted(set(lines) - numbers) + sorted(
        f"{n}-{side}" for n, sides in reports.items() if isinstance(sides, dict) for side in sides
        if side not in man.sides)
    if stray:
        raise AuditError(f"reveal bundle: it gives keys for {', '.join(stray)}, which the record does not hold "
                         "(protocol §9).")


def _seed(dice_secret: bytes, entry: led.Entry, man: led.Manifest, entropies: list[tuple[str, bytes]]) -> bytes:
    """seed_e from the revealed dice secret: k_e, the entry's public r_e, the owing sides' entropy (§8)."""
    return beacon.step_seed(beacon.step_key(dice_secret, man.game, entry.number), man.game, entry.number, entry.dice,
                            entropies)


def _revealed(man: led.Manifest, entry: led.Entry, revealed: Any, what: str, path_of: Any,
              consumed: dict[Path, env_mod.Envelope],
              answered: led.Entry | None = None) -> dict[str, tuple[bytes, Any]]:
    """Side -> (entropy, order) of the envelopes ``entry`` consumed, opened with the bundle's keys.

    The key must match the envelope's key commitment (§4.4), the entropy proof must be the side's
    signature over the step (§8.2), and the bundle's copy of proof, entropy and order must be what
    the player signed. ``consumed``: the envelopes verify read and checked, by path (read again if absent).
    ``answered``: the entry the orders answered, whose writing and deadline their ``seen`` must fit (§8.3).
    """
    out: dict[str, tuple[bytes, Any]] = {}
    step = "the set-up" if entry.number == 0 else f"step {entry.step}"
    for side in sorted(entry.orders):
        item = revealed.get(side) if isinstance(revealed, dict) else None
        if not isinstance(item, dict):
            raise AuditError(f"reveal bundle: the {what} of {side} for {step} is missing (protocol §9).")
        path = path_of(side)
        env = consumed.get(path) or env_mod.read_file(path)
        payload = env_mod.open_with_key(env, _hex32(item, "key"), str(path))
        proof, body, seen = game_mod.parse_payload(payload, str(path))
        entropy = game_mod.order_entropy(man, env, proof, str(path))
        if answered is not None:  # an order consumed: its seen was the referee's to check (§8.3)
            if seen is None:
                raise AuditError(f"{path}: {side}'s order consumed at {step} carries no seen (protocol §7.3).")
            receipts.check_seen(str(path), side, entry.step, answered, seen.entry, seen.at, "consumed")
        if item.get("proof") != b64(proof) or item.get("entropy") != entropy.hex() \
                or canonical_bytes(item.get("order")) != canonical_bytes(body):
            raise AuditError(f"reveal bundle: the {what} of {side} for {step} differs from the signed {what} in "
                             f"{path} (protocol §9).")
        out[side] = (entropy, body)
    return out


def _compare(entry: led.Entry, where: str, man: led.Manifest, rules: rs.Ruleset, state: dict[str, Any],
             reports: dict[str, Any], secret: bytes) -> None:
    """The first field of ``entry`` that the replay does not reproduce."""
    n = entry.number
    salt = commitments.salts_for(secret, man.game, n)  # every salt of the entry from one keyed prefix
    if commitments.commit(STATE_LABEL, salt(STATE_LABEL), state) != entry.state:
        raise AuditError(f"{where}: field state does not match the replayed state of entry {n} (protocol §9).")
    expected = commitments.commit_all(secret, man.game, n, rules.secrets(state))
    for label in sorted(set(expected) | set(entry.commitments)):
        if expected.get(label) != entry.commitments.get(label):
            raise AuditError(f"{where}: commitment {label!r} does not match the replay of entry {n} (protocol §9).")
    if canonical_bytes(rules.public(state)) != canonical_bytes(entry.board):
        raise AuditError(f"{where}: field board does not match the replay of entry {n} (protocol §9).")
    result = rules.result(state)
    if canonical_bytes(result) != canonical_bytes(entry.result):
        raise AuditError(f"{where}: field result does not match the replay of entry {n} (protocol §9).")
    if dict(rules.owes(state)) != entry.owes:
        raise AuditError(f"{where}: field owes does not match the replay of entry {n} (protocol §9).")
    for side in man.sides:
        label = f"report.{side}"
        if commitments.commit(label, salt(label), reports[side]) != entry.reports.get(side):
            raise AuditError(f"{where}: the report for {side} does not match the replay of entry {n} (protocol §9).")


def audit_game(game_dir: Path, reveal: Any, receipt_files: Sequence[tuple[str, bytes]] = (),
          now: int | None = None) -> dict[str, Any]:
    """Replay the game from a reveal bundle (a dict, a bundle file, or the referee's key), holding
    the ledger to the players' receipts ((where, armored receipt) pairs) when given; ``now``: the
    verifier's clock (None: the clock). Here, not in pbem.core.game, which this module reads from."""
    if isinstance(reveal, PrivateIdentity):  # the record verified to make the bundle is the one audited
        bundle, record = reveal_and_record(Path(game_dir), reveal, now)
        return audit(Path(game_dir), bundle, receipt_files=receipt_files, record=record)
    if isinstance(reveal, (str, Path)):
        reveal = read_reveal(Path(reveal))
    return audit(Path(game_dir), reveal, receipt_files=receipt_files, now=now)
