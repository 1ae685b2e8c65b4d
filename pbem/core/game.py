"""The referee's flow over a game folder (docs/protocol.md §7, §9).

::

    GAME/game.toml             manifest, referee-signed
    GAME/ledger/NNNN.toml      entry N: setup (0) or the adjudication of step N-1
    GAME/orders/NNNN-SIDE.pbem order of SIDE for step N (signed by the side, sealed to the referee)
    GAME/reports/NNNN-SIDE.pbem report after entry N, asking for step N (sealed to SIDE)
    GAME/state/NNNN.pbem       secret state after entry N (sealed to the referee)
    GAME/joins/SIDE.pbem       SIDE's set-up entropy, in games opened for joins (protocol §8.1)
    GAME/.pbem/                the referee's private area, never published: pending orders,
                               receipts issued, the secrets between game open and game start

Every step is written to temporary names first and renamed into place with the ledger entry
last: the entry is the commit point, so a crash never leaves a half-written step.
"""

from __future__ import annotations

import dataclasses
import os
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.core import armor, beacon, commitments, inputs, receipts
from pbem.core import components as components_mod
from pbem.core import envelope as env_mod
from pbem.core import ledger as led
from pbem.core import lock as lock_mod
from pbem.core import ruleset as rs
from pbem.core.atomic import write_temp as _write_temp
from pbem.core.canonical import canonical_bytes, canonical_loads
from pbem.core.drbg import Drbg
from pbem.core.errors import (
    ArmorError,
    EnvelopeError,
    FormatError,
    GameBusy,
    LedgerError,
    PbemError,
    ReplayError,
    SignatureError,
)
from pbem.core.identity import PrivateIdentity, PublicIdentity, b64, check_name, unb64
from pbem.core.standing import status  # where the game stands; apart so that ``pbem status`` loads little

report_path = led.report_path
order_path = led.order_path
pending_path = led.pending_path
receipt_path = led.receipt_path
state_path = led.state_path
STATE_LABEL = "$state"
DEADLINE_POLICY = led.DEADLINE_POLICY
DEFAULT_DEADLINE_HOURS = led.DEFAULT_DEADLINE_HOURS


def _now(now: int | None) -> int:
    """The protocol edge's clock (receipt times, deadlines); injectable so games stay reproducible."""
    return int(time.time()) if now is None else int(now)


def _written(previous: led.Entry | None, now: int) -> int:
    """The write time of the next entry (§8.3): the clock, or one second after the previous entry's when
    the clock has not moved past it (write times strictly increase); refused when the clock reads more
    than the slack before the previous entry, as a clock set back would."""
    if previous is None:
        return now
    if now + led.CLOCK_SLACK < previous.written:
        raise LedgerError(f"the clock reads {led.when(now)}, before entry {previous.number} was written "
                          f"({led.when(previous.written)}): a clock set back cannot write the next entry "
                          "(protocol §8.3).", hint="set the clock right, then run the command again")
    return max(now, previous.written + 1)


def _rules(rules: rs.Ruleset | str) -> rs.Ruleset:
    return rs.load(rules) if isinstance(rules, str) else rules


def _write_all(files: Sequence[tuple[Path, bytes]]) -> None:
    """Write every file under a temporary name, then rename each into place in the given order.

    All or nothing: if anything fails (a full disk, an interrupt), the files already renamed get
    their old bytes back, new folders and temporary files are removed, and the error goes on.
    """
    made: list[Path] = []
    temps: list[tuple[Path, Path]] = []
    done: list[tuple[Path, bytes | None]] = []
    path = Path()
    try:
        for path, data in files:
            for folder in reversed([path.parent, *path.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    made.append(folder)
            temps.append((_write_temp(path, data), path))
        for tmp, path in temps:
            old = inputs.read_input(path, inputs.MAX_FILE, "a file of the record") if os.path.lexists(path) else None
            os.replace(tmp, path)
            done.append((path, old))
    except BaseException as exc:
        failed = path
        for path, old in reversed(done):
            if old is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(old)
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
        for folder in reversed(made):
            if folder.exists() and not any(folder.iterdir()):
                folder.rmdir()
        if isinstance(exc, OSError):  # a full disk: name the file being written, not a temporary name
            raise OSError(exc.errno, exc.strerror or str(exc), str(failed)) from None
        raise


def _check_referee(man: led.Manifest, referee: PrivateIdentity) -> None:
    if referee.public != man.referee:
        raise SignatureError(f"the key of {referee.name} ({referee.fingerprint}) is not this game's referee "
                             f"({man.referee.fingerprint}) (protocol §7.1).")


def _manifest(game_dir: Path, rules: rs.Ruleset, scenario: str, options: Mapping[str, Any],
              referee: PrivateIdentity, sides: Mapping[str, PublicIdentity], game_id: str | None,
              chain_length: int, deadline: str, setup: str, deadline_hours: int) -> tuple[str, bytes, bytes, bytes]:
    """(game id, manifest bytes, dice secret, state secret) of a new game; checks folder and sides."""
    if game_dir.exists() and not game_dir.is_dir():
        raise FormatError(f"{game_dir} is a file; a new game needs an empty or new folder (protocol §7).")
    if game_dir.exists() and any(p.name != lock_mod.PRIVATE for p in game_dir.iterdir()):
        raise FormatError(f"{game_dir} is not empty; a new game needs an empty or new folder (protocol §7).")
    order = tuple(rules.sides)
    if set(sides) != set(order):
        raise FormatError(f"sides must be exactly {', '.join(order)}, not {', '.join(sorted(sides)) or 'none'} "
                          "(protocol §7.1).")
    if not isinstance(deadline_hours, int) or isinstance(deadline_hours, bool) or not 0 <= deadline_hours <= 100_000:
        raise FormatError(f"deadline hours must be a whole number from 0 to 100000, not {deadline_hours!r} "
                          "(protocol §8.3).")
    game_id = game_id or f"{rules.id}-{secrets.token_hex(8)}"
    check_name(game_id, "the game id")
    dice_secret, state_secret = secrets.token_bytes(32), secrets.token_bytes(32)
    anchor = beacon.anchor(dice_secret, chain_length)
    man_bytes = led.dump_signed(led.manifest_body(game_id, rules.id, str(rules.version), scenario, dict(options), order,
                                                  dict(sides), referee.public, anchor, chain_length, deadline, setup,
                                                  deadline_hours),
                                referee, led.MANIFEST_DOMAIN)
    return game_id, man_bytes, dice_secret, state_secret


def _setup_files(game_dir: Path, man: led.Manifest, rules: rs.Ruleset, referee: PrivateIdentity,
                 dice_secret: bytes, state_secret: bytes, joins: Mapping[str, tuple[str, bytes]], now: int
                 ) -> list[tuple[Path, bytes]]:
    """Entry 0: set-up keyed by seed_0 = k_0 and every side's join entropy when there are joins (§8)."""
    r = beacon.reveal(dice_secret, man.chain_length, 0)
    entropies = [(s, joins[s][1]) for s in man.sides if s in joins]
    state = rules.setup(man.scenario, dict(man.options),
                        Drbg(beacon.seed_for(dice_secret, man.chain_length, man.game, 0, entropies)))
    reports = {s: rules.report(state, s, [], man.game, 0) for s in man.sides}
    return _step_files(game_dir, man, 0, man.hash, rules, state, reports, {s: joins[s][0] for s in joins}, [],
                       r, referee, dice_secret, state_secret, _written(None, now), {})


def new_game(game_dir: Path, rules: rs.Ruleset | str, scenario: str, options: Mapping[str, Any],
             referee: PrivateIdentity, sides: Mapping[str, PublicIdentity], *, game_id: str | None = None,
             chain_length: int = beacon.DEFAULT_LENGTH, deadline: str = DEADLINE_POLICY,
             deadline_hours: int = DEFAULT_DEADLINE_HOURS, now: int | None = None,
             components: bytes | None = None) -> dict[str, Any]:
    """Create a game in one go: manifest, dice anchor, setup entry 0, first reports and sealed state.

    Set-up draws from the referee's secret alone (the known limit of protocol §8.1: the referee
    could deal until it likes a set-up); ``open_game``, ``write_join`` and ``start_game`` let the
    players' entropy into the set-up as well.
    """
    game_dir, rules = Path(game_dir), _rules(rules)
    _, man_bytes, dice_secret, state_secret = _manifest(game_dir, rules, scenario, options, referee, sides, game_id,
                                                        chain_length, deadline, led.SETUP_REFEREE, deadline_hours)
    man = led.parse_manifest(man_bytes, str(game_dir / "game.toml"))
    files = _setup_files(game_dir, man, rules, referee, dice_secret, state_secret, {}, _now(now))
    _write_new_game(game_dir, [(game_dir / "game.toml", man_bytes), *_component_file(game_dir, options, components),
                               *files])
    return status(game_dir)


def open_game(game_dir: Path, rules: rs.Ruleset | str, scenario: str, options: Mapping[str, Any],
              referee: PrivateIdentity, sides: Mapping[str, PublicIdentity], *, game_id: str | None = None,
              chain_length: int = beacon.DEFAULT_LENGTH, deadline: str = DEADLINE_POLICY,
              deadline_hours: int = DEFAULT_DEADLINE_HOURS, components: bytes | None = None) -> str:
    """First half of an unbiased set-up (§8.1): publish the manifest and its dice anchor, keep the secrets sealed.

    The players then send joins (``write_join``) answering the manifest's hash, and ``start_game``
    runs the set-up with their entropy. Returns the game id.
    """
    game_dir, rules = Path(game_dir), _rules(rules)
    rules.setup(scenario, dict(options), Drbg(bytes(32)))  # set-up is pure: a trial run refuses bad options now
    game_id, man_bytes, dice_secret, state_secret = _manifest(game_dir, rules, scenario, options, referee, sides,
                                                              game_id, chain_length, deadline, led.SETUP_PLAYERS,
                                                              deadline_hours)
    secret = canonical_bytes({"entry": -1, "dice_secret": dice_secret.hex(), "state_secret": state_secret.hex()})
    sealed = env_mod.seal(referee, [referee.public], secret, game=game_id, kind="state", side="", step=0,
                          answers=led.record_hash(man_bytes))
    _write_new_game(game_dir, [(game_dir / "game.toml", man_bytes), *_component_file(game_dir, options, components),
                               (led.opening_path(game_dir), armor.armor(sealed).encode("ascii"))])
    return game_id


def _component_file(game_dir: Path, options: Mapping[str, Any], data: bytes | None) -> list[tuple[Path, bytes]]:
    """``GAME/components.toml``, a public file of the record (§10.3), when the game has its own component file;
    refused unless the options record its hash, so the manifest names the very bytes published."""
    if data is None:
        return []
    want = options.get(components_mod.OPTION)
    if want != components_mod.digest(data):
        raise FormatError(f"the options record {components_mod.OPTION} = {want!r}, not the SHA-256 of the component "
                          f"file given ({components_mod.digest(data)}) (protocol §10.3).")
    return [(game_dir / components_mod.NAME, data)]


def _write_new_game(game_dir: Path, files: Sequence[tuple[Path, bytes]]) -> None:
    """The first files of a game, written under its lock (§7.5) with the ``.gitignore`` that keeps the
    referee's private area out of a published folder; a failed write leaves no folder behind."""
    made = not game_dir.exists()
    try:
        with lock_mod.game_lock(game_dir):
            if any(p.name != lock_mod.PRIVATE for p in game_dir.iterdir()):
                raise FormatError(f"{game_dir} is not empty; a new game needs an empty or new folder (protocol §7).")
            _write_all([*files, (game_dir / ".gitignore", lock_mod.GITIGNORE.encode("ascii"))])
    except GameBusy:
        raise
    except BaseException:
        if made:
            private = lock_mod.private_dir(game_dir)
            (private / lock_mod.LOCK_NAME).unlink(missing_ok=True)
            for folder in (private, game_dir):
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()
        raise


def _opened(game_dir: Path) -> led.Manifest:
    """The manifest of a game opened for joins and not yet started."""
    man = led.read_manifest(game_dir)
    if man.setup != led.SETUP_PLAYERS:
        raise FormatError(f"game {man.game} was made with game new; it takes no joins (protocol §8.1).")
    if (game_dir / "ledger").exists() and any(game_dir.joinpath("ledger").iterdir()):
        raise ReplayError(f"game {man.game} has already started; joins are closed (protocol §8.1).")
    return man


def write_join(game_dir: Path, player: PrivateIdentity, side: str) -> str:
    """A side's armored join: its entropy proof (§8.2), signed by the side, sealed to the referee,
    bound to the manifest."""
    game_dir = Path(game_dir)
    man = _opened(game_dir)
    if man.options.get(components_mod.OPTION):  # a player joins knowing the game's cards: its file is at hand (§10.3)
        rs.load(man.ruleset, man.options, components_mod.in_game(game_dir, man.options))
    if side not in man.identities:
        raise EnvelopeError(f"side {side!r} is not in game {man.game} (sides: {', '.join(man.sides)}) (protocol §8.1).")
    if player.public != man.identities[side]:
        raise SignatureError(f"the key of {player.name} ({player.fingerprint}) is not {side}'s identity "
                             f"({man.identities[side].fingerprint}) (protocol §8.1).")
    proof = beacon.entropy_proof(player, man.game, 0, man.hash)
    payload = canonical_bytes({"proof": b64(proof), "order": None})
    return armor.armor(env_mod.seal(player, [man.referee], payload, game=man.game, kind="join", side=side, step=0,
                                    answers=man.hash))


def _check_join(man: led.Manifest, referee: PrivateIdentity, raw: bytes | str, where: str
                ) -> tuple[env_mod.Envelope, str, bytes]:
    env = env_mod.read(raw, where)
    env_mod.expect(env, where, kind="join", game=man.game)
    side = env.header.side
    if side not in man.identities:
        raise EnvelopeError(f"{where} is for side {side!r}, which is not in game {man.game} (protocol §4.5).")
    env_mod.expect(env, where, signer=man.identities[side], step=0, answers=man.hash,
                   to=referee.public)
    proof, body, seen = parse_payload(env_mod.open_sealed(env, referee, where), where)
    entropy = beacon.check_entropy_proof(man.identities[side], man.game, 0, man.hash, proof, where)
    if body is not None or seen is not None:
        raise FormatError(f"{where}: a join holds entropy and no order (protocol §8.1).")
    return env, side, entropy


@lock_mod.locked
def start_game(game_dir: Path, referee: PrivateIdentity, join_files: Sequence[Path | str | bytes],
               rules: rs.Ruleset | None = None, now: int | None = None) -> dict[str, Any]:
    """Second half of an unbiased set-up: every side's join in, run the set-up, write entry 0 (§8.1)."""
    game_dir = Path(game_dir)
    man = _opened(game_dir)
    _check_referee(man, referee)
    rules = _installed_rules(man, rules, game_dir)
    path = led.opening_path(game_dir)
    env = env_mod.read_file(path)
    env_mod.expect(env, str(path), signer=man.referee, game=man.game, kind="state", step=0, answers=man.hash)
    opening = canonical_loads(env_mod.open_sealed(env, referee, str(path)))
    joins: dict[str, tuple[env_mod.Envelope, bytes]] = {}
    for item in join_files:
        where, raw = _input(item, "join")
        env, side, entropy = _check_join(man, referee, raw, where)
        if side in joins:
            raise EnvelopeError(f"{where} is a second join from {side}; send only the one you mean (protocol §8.1).")
        joins[side] = (env, entropy)
    missing = [s for s in man.sides if s not in joins]
    if missing:
        raise PbemError(f"the game cannot start: {', '.join(missing)} sent no join (protocol §8.1).",
                        hint="every side's entropy goes into the set-up; wait for their joins")
    files = [(led.join_path(game_dir, s), armor.armor(joins[s][0].raw).encode("ascii")) for s in man.sides]
    files += _setup_files(game_dir, man, rules, referee, bytes.fromhex(opening["dice_secret"]),
                          bytes.fromhex(opening["state_secret"]), {s: (joins[s][0].hash, joins[s][1]) for s in joins},
                          _now(now))
    _write_all(files)
    return status(game_dir)


def _input(item: Path | str | bytes, what: str) -> tuple[str, bytes]:
    """(where, bytes) of an input given as a path, armored text or raw envelope bytes."""
    if isinstance(item, (str, Path)) and not (isinstance(item, str) and armor.BEGIN in item):
        return str(item), read_input(Path(item))
    return what, item if isinstance(item, bytes) else item.encode("utf-8")


def _step_files(game_dir: Path, man: led.Manifest, number: int, prev: str, rules: rs.Ruleset, state: dict[str, Any],
                reports: Mapping[str, Any], orders: Mapping[str, str], defaulted: list[str], r: bytes,
                referee: PrivateIdentity, dice_secret: bytes, state_secret: bytes, written: int,
                received: Mapping[str, int], board: Mapping[str, Any] | None = None) -> list[tuple[Path, bytes]]:
    """Reports, sealed state and the ledger entry of one step (ledger entry last).

    The seats are the manifest's (``identities``, in manifest order), not a fixed attribute of the
    ruleset: a game whose seats depend on its options has them recorded there (protocol §10.1).
    ``board``: the public board the ruleset gave with the state (``StepResult.public``); without
    one (the set-up) it is the ruleset's ``public(state)``. ``written``: the entry's write time, from
    which its deadline follows (§8.3)."""
    game, identities = man.game, man.identities
    items = dict(rules.secrets(state))
    if STATE_LABEL in items:
        raise FormatError(f"a ruleset may not use the reserved secret label {STATE_LABEL!r} (protocol §6).")
    commits = commitments.commit_all(state_secret, game, number, items)
    state_commit = commitments.commit_all(state_secret, game, number, {STATE_LABEL: state})[STATE_LABEL]
    report_commits, payloads = {}, {}
    for side in identities:
        label = f"report.{side}"
        salt = commitments.salt_for(state_secret, game, number, label)
        report_commits[side] = commitments.commit(label, salt, reports[side])
        payloads[side] = canonical_bytes({"salt": salt.hex(), "report": reports[side]})
    result, owes = rules.result(state), dict(rules.owes(state))
    body = led.entry_body(game, number, prev, owes, dict(orders), defaulted, r, state_commit, commits,
                          report_commits, rules.public(state) if board is None else dict(board), result,
                          led.deadline_of(man, owes, written), dict(received), written)
    entry_bytes = led.dump_signed(body, referee, led.ENTRY_DOMAIN)
    entry_hash = led.record_hash(entry_bytes)
    files = []
    for side in identities:
        sealed = env_mod.seal(referee, report_recipients(identities[side], referee), payloads[side], game=game,
                              kind="report", side=side,
                              step=number, answers=entry_hash)
        files.append((led.report_path(game_dir, number, side), armor.armor(sealed).encode("ascii")))
    secret = canonical_bytes({"entry": number, "state": state, "dice_secret": dice_secret.hex(),
                              "state_secret": state_secret.hex()})
    sealed_state = env_mod.seal(referee, [referee.public], secret, game=game, kind="state", side="",
                                step=number, answers=entry_hash)
    files.append((led.state_path(game_dir, number), armor.armor(sealed_state).encode("ascii")))
    files.append((led.entry_path(game_dir, number), entry_bytes))
    return files


def report_recipients(side: PublicIdentity, referee: PrivateIdentity) -> list[PublicIdentity]:
    """A report is sealed to its side and to the referee (§7.4), so the referee can reveal its content
    key in the bundle (§9) and anyone can then open it; one stanza when the referee is the side."""
    return [side] if side.encrypt_key == referee.public.encrypt_key else [side, referee.public]


def write_order(game_dir: Path, player: PrivateIdentity, side: str, step: int, body: Any,
                now: int | None = None) -> str:
    """An armored order: signed by ``player`` as ``side``, sealed to the referee, bound to the step.

    Its entropy is fixed by the side's key and the step (§8.2): sealing again gives the same. It
    carries ``seen``: the entry it answers and when this folder first saw it (its record of first
    sights, else ``now``; None: the clock), so the referee and the audit can hold the deadline to it (§8.3).
    """
    game_dir = Path(game_dir)
    man = led.read_manifest(game_dir)
    if side not in man.identities:
        raise EnvelopeError(f"side {side!r} is not in game {man.game} (sides: {', '.join(man.sides)}) (protocol §7.3).")
    if player.public != man.identities[side]:
        raise SignatureError(f"the key of {player.name} ({player.fingerprint}) is not {side}'s identity "
                             f"({man.identities[side].fingerprint}) (protocol §7.3).")
    entry = led.latest(game_dir, man)
    if not entry.owes:
        raise ReplayError(f"game {man.game} is over; it takes no more orders (protocol §7.2).")
    if step != entry.number:
        raise ReplayError(f"orders for step {step} are not wanted: the game is at step {entry.number} (protocol §7.3).")
    if side not in entry.owes:
        raise EnvelopeError(f"{side} owes no orders at step {step} (protocol §7.3).")
    from pbem.core import seen
    at = seen.first_seen(game_dir, entry)
    proof = beacon.entropy_proof(player, man.game, step, entry.hash)
    payload = canonical_bytes({"proof": b64(proof), "order": body,
                               "seen": {"entry": entry.hash, "at": _now(now) if at is None else at}})
    sealed = env_mod.seal(player, [man.referee], payload, game=man.game, kind="order", side=side, step=step,
                          answers=entry.hash)
    return armor.armor(sealed)


@dataclasses.dataclass(frozen=True)
class Seen:
    """An order's ``seen``: the entry it answers (hex record hash) and when the player first saw it (§8.3)."""

    entry: str
    at: int


def parse_order_payload(payload: bytes, where: str) -> tuple[bytes, Any]:
    """(entropy proof, order body) from an order's or join's decrypted payload (§7.3, §8.2)."""
    proof, body, _ = parse_payload(payload, where)
    return proof, body


def parse_payload(payload: bytes, where: str) -> tuple[bytes, Any, Seen | None]:
    """(entropy proof, order body, seen) of a decrypted payload: an order holds exactly proof, order
    and seen (§7.3); a join exactly proof and order (null), and no seen (§8.1)."""
    data = canonical_loads(payload)
    if not isinstance(data, dict) or set(data) not in ({"proof", "order"}, {"proof", "order", "seen"}) \
            or not isinstance(data["proof"], str):
        raise FormatError(f"{where}: the payload must hold exactly proof, order and (in an order) seen "
                          "(protocol §7.3).")
    seen = data.get("seen")
    if "seen" in data and not (isinstance(seen, dict) and set(seen) == {"entry", "at"}
                               and isinstance(seen["entry"], str) and re.fullmatch(r"[0-9a-f]{64}", seen["entry"])
                               and isinstance(seen["at"], int) and not isinstance(seen["at"], bool)
                               and seen["at"] >= 0):
        raise FormatError(f"{where}: field seen must be {{entry: the hex hash of the entry answered, at: unix "
                          "seconds}} (protocol §7.3).")
    return (unb64(data["proof"], f"{where}: proof", 64), data["order"],
            Seen(seen["entry"], seen["at"]) if isinstance(seen, dict) else None)


def check_seen(seen: Seen | None, entry: led.Entry, now: int, where: str) -> None:
    """The referee's check of an order's ``seen`` (§7.3, §8.3): it names the entry answered, and its
    time is neither before that entry was written nor ahead of the referee's clock (an hour's slack
    each way), nor more than the slack after the step's deadline."""
    slack = led.CLOCK_SLACK
    if seen is None:
        raise FormatError(f"{where}: an order carries seen, the entry it answers and when its player first saw "
                          "it (protocol §7.3).")
    if seen.entry != entry.hash:
        raise ReplayError(f"{where}: field seen names entry {seen.entry[:16]}…, not entry {entry.number} "
                          f"({entry.hash[:16]}…) that the order answers (protocol §8.3).")
    if seen.at < entry.written - slack or seen.at > now + slack \
            or (entry.deadline and seen.at > entry.deadline + slack):
        raise ReplayError(f"{where}: field seen says its player first saw entry {entry.number} at "
                          f"{led.when(seen.at)}, but the entry was written at {led.when(entry.written)}"
                          + (f", its deadline is {led.when(entry.deadline)}" if entry.deadline else "")
                          + f" and the referee's clock reads {led.when(now)}; a first sight must fall between the "
                          "entry's writing and the deadline, within an hour (protocol §8.3).")


def order_entropy(man: led.Manifest, env: env_mod.Envelope, proof: bytes, where: str) -> bytes:
    """The entropy of an order or join, once its proof checks against the side's key (§8.2)."""
    h = env.header
    return beacon.check_entropy_proof(man.identities[h.side], man.game, h.step, h.answers, proof, where)


def check_order_public(game_dir: Path, raw: bytes | str, where: str) -> env_mod.Envelope:
    """What a player can check of a sealed order before sending it, by git or by mail: signed by the
    side it names, for this game, its latest entry and its referee (protocol §4.5, §7.3)."""
    man = led.read_manifest(Path(game_dir))
    entry = led.latest(Path(game_dir), man)
    env = env_mod.read(raw, where)
    env_mod.expect(env, where, kind="order", game=man.game)
    side = env.header.side
    if side not in man.identities:
        raise EnvelopeError(f"{where} is for side {side!r}, which is not in game {man.game} (protocol §4.5).")
    env_mod.expect(env, where, signer=man.identities[side], step=entry.number, answers=entry.hash, to=man.referee)
    return env


def _check_order(man: led.Manifest, entry: led.Entry, referee: PrivateIdentity, raw: bytes | str,
                 where: str, now: int) -> tuple[env_mod.Envelope, str, bytes, Any, Seen]:
    """Verify one received order against the game and the latest entry at the referee's clock ``now``;
    returns (envelope, side, entropy, body, seen)."""
    env = env_mod.read(raw, where)
    env_mod.expect(env, where, kind="order", game=man.game)
    side = env.header.side
    if side not in man.identities:
        raise EnvelopeError(f"{where} is for side {side!r}, which is not in game {man.game} (protocol §4.5).")
    env_mod.expect(env, where, signer=man.identities[side])
    if env.header.step < entry.number:
        raise ReplayError(f"{where} is for step {env.header.step}, which was already adjudicated; the game is at "
                          f"step {entry.number} (protocol §4.5).")
    env_mod.expect(env, where, step=entry.number, answers=entry.hash, to=referee.public)
    if side not in entry.owes:
        raise EnvelopeError(f"{where}: {side} owes no orders at step {entry.number} (protocol §7.3).")
    proof, body, seen = parse_payload(env_mod.open_sealed(env, referee, where), where)
    entropy = order_entropy(man, env, proof, where)
    _check_body_binding(body, env.header, where)
    check_seen(seen, entry, now, where)
    assert seen is not None
    return env, side, entropy, body, seen


def _check_body_binding(body: Any, header: env_mod.Header, where: str) -> None:
    """An order whose own text names another game, side or step than its envelope is refused (§7.3).

    The envelope's signed header is what binds an order; a body that says otherwise was sealed
    from a draft meant for somewhere else. An empty game (a draft written offline) binds nothing.
    """
    if not isinstance(body, dict):
        return
    for name, value in (("game", header.game), ("side", header.side), ("step", header.step)):
        if name in body and body[name] != value and not (name == "game" and body[name] == ""):
            raise ReplayError(f"{where}: the order inside names {name} {body[name]!r}, but its envelope is for "
                              f"{name} {value!r} (protocol §7.3).")


def _load_state(game_dir: Path, man: led.Manifest, entry: led.Entry, referee: PrivateIdentity) -> dict[str, Any]:
    path = led.state_path(game_dir, entry.number)
    env = env_mod.read_file(path)
    env_mod.expect(env, str(path), signer=man.referee, game=man.game, kind="state", step=entry.number,
                   answers=entry.hash)
    data = canonical_loads(env_mod.open_sealed(env, referee, str(path)))
    if not isinstance(data, dict) or data.get("entry") != entry.number:
        raise FormatError(f"{path}: the sealed state is not the state of entry {entry.number} (protocol §7.5).")
    return data


@lock_mod.locked
def receive_order(game_dir: Path, referee: PrivateIdentity, raw: bytes | str, where: str = "order",
                  rules: rs.Ruleset | None = None, now: int | None = None,
                  deadline: int | None = None) -> receipts.Receipt:
    """Check an order as it arrives, keep it in the private area and issue its receipt (§7.3, §9.2).

    The order is checked in full now (binding, entropy proof, the game's rules), so the player
    hears at once, and nothing is kept when it is refused. A later valid order of the same side
    replaces the kept one and gets the next seq; an identical resend gets the receipt first issued
    (``identical`` True), unopened when that receipt answers the same entry (it was checked in full
    then, against the same state; a git referee's pass takes its whole inbox in again). The pending
    order stays out of the public record until its step closes.
    An order arriving after the step's deadline is refused before it is opened (§8.3), so every
    receipt is in time; ``deadline``: the step's deadline as a host extended it (a mail judge), never
    earlier than the ledger's.
    """
    game_dir = Path(game_dir)
    man = led.read_manifest(game_dir)
    _check_referee(man, referee)
    entry = led.latest(game_dir, man)
    try:
        received = _received_at(man, entry, _now(now), deadline)
    except ReplayError:
        kept = _resent(game_dir, man, entry, raw, where)
        if kept is None:
            raise
        return kept  # the order kept, sent again: it was received in time, its receipt says so
    kept = _resent(game_dir, man, entry, raw, where)
    if kept is not None and kept.answers == entry.hash:
        return kept  # the very order kept, checked in full when this receipt was issued against this entry
    env, side, _, body, seen = _check_order(man, entry, referee, raw, where, received)
    rules = _installed_rules(man, rules, game_dir)
    state = _load_state(game_dir, man, entry, referee)["state"]
    try:
        rules.validate(state, side, body)
    except PbemError as exc:
        refused = _located(exc, where)
        if led.pending_path(game_dir, entry.number, side).exists():  # tell the sender nothing was replaced
            refused.hint = (f"the order {side} sent earlier for step {entry.number} stays in force; "
                            "send a corrected order to replace it")
        raise refused from None
    receipt, files = _receive(game_dir, man, entry, referee, env, received, seen)
    _write_all(files)
    return receipt


def _resent(game_dir: Path, man: led.Manifest, entry: led.Entry, raw: bytes | str,
            where: str) -> receipts.Receipt | None:
    """The receipt first issued, when ``raw`` is the very order kept for its side (compared by hash,
    unopened); None otherwise. A referee that reads its inbox again after the deadline (a git
    referee's pass) finds the orders it took in time, not late ones."""
    env = env_mod.read(raw, where)
    side = env.header.side
    if side not in man.identities or not led.pending_path(game_dir, entry.number, side).exists():
        return None
    issued = receipts.kept(game_dir, man, entry.number, side)
    return dataclasses.replace(issued[-1], identical=True) if issued and issued[-1].order == env.hash else None


def _received_at(man: led.Manifest, entry: led.Entry, now: int, extended: int | None = None) -> int:
    """The time an order arriving ``now`` is received: never before its entry was written (a clock a
    second behind the last write), and refused when the step's deadline (or its extension) has passed:
    honest code refuses a late order before opening it, so a receipt is always in time (§8.3, §9.2)."""
    received = max(now, entry.written)
    until = max(entry.deadline, extended or 0) if entry.deadline else 0
    if until and received > until:
        raise ReplayError(f"the deadline of step {entry.number} of game {man.game} was {led.when(until)}; an order "
                          f"arriving at {led.when(received)} is too late and was not opened (protocol §8.3).",
                          hint="the referee gives the default orders to a side that sent none in time")
    return received


def _receive(game_dir: Path, man: led.Manifest, entry: led.Entry, referee: PrivateIdentity, env: env_mod.Envelope,
             now: int, seen: Seen) -> tuple[receipts.Receipt, list[tuple[Path, bytes]]]:
    """The receipt of a checked order and the files that keep it (pending order, receipt copy).

    An identical resend of the pending order gets the receipt first issued and writes nothing.
    """
    side, step = env.header.side, entry.number
    issued = receipts.kept(game_dir, man, step, side)
    pending = led.pending_path(game_dir, step, side)
    if issued and issued[-1].order == env.hash and pending.exists():
        return dataclasses.replace(issued[-1], identical=True), []
    older = [r.seq for r in issued[:-1] if r.order == env.hash]
    if older:
        raise ReplayError(f"this order was receipted as order {older[0]} of {side} for step {step} and has been "
                          "replaced since; an older order cannot come back (protocol §9.2).",
                          hint="to play it after all, seal it again: that makes a new order")
    seq = issued[-1].seq + 1 if issued else 1
    receipt = receipts.issue(referee, man.game, step, side, entry.hash, seq, env.hash, now, entry.deadline,
                             issued[-1].order if issued else "", seen.entry, seen.at)
    return receipt, [(pending, armor.armor(env.raw).encode("ascii")),
                     (led.receipt_path(game_dir, step, side, seq), receipt.armored.encode("ascii"))]


def _installed_rules(man: led.Manifest, rules: rs.Ruleset | None, game_dir: Path) -> rs.Ruleset:
    """The game's ruleset (with the game's component file, §10.3), refused when the installed version
    is not the one the game uses (§10)."""
    rules = rules or rs.load(man.ruleset, man.options, components_mod.in_game(game_dir, man.options))
    if str(rules.version) != man.ruleset_version:
        raise FormatError(f"this game uses {man.ruleset} version {man.ruleset_version}, but version "
                          f"{rules.version} is installed (protocol §10).")
    return rules


def installed_rules(game_dir: Path) -> rs.Ruleset:
    """The ruleset of the game in ``game_dir`` as installed here, refused when its version is not the
    game's (§10): a referee checks this before it takes any order, so no order is refused for it."""
    game_dir = Path(game_dir)
    return _installed_rules(led.read_manifest(game_dir), None, game_dir)


@lock_mod.locked
def adjudicate(game_dir: Path, referee: PrivateIdentity, order_files: Sequence[Path | str | bytes],
               deadline_passed: bool = False, rules: rs.Ruleset | None = None,
               now: int | None = None) -> dict[str, Any]:
    """Receive the orders given, adjudicate the step from the pending orders, write entry, reports and state.

    ``order_files`` are paths (armored or binary) or the envelopes themselves; each is received
    first (receipts issued, returned under ``"receipts"``), replacing the pending order of its
    side. Default orders for silent sides only with ``deadline_passed`` and only once ``now`` is
    at or past the deadline the latest entry recorded (§8.3). A refused step writes nothing.
    """
    game_dir = Path(game_dir)
    now = _now(now)
    man = led.read_manifest(game_dir)
    _check_referee(man, referee)
    rules = _installed_rules(man, rules, game_dir)
    entry = led.latest(game_dir, man)
    if not entry.owes:
        raise PbemError(f"game {man.game} is over; nobody owes orders (protocol §7.2).")
    secret = _load_state(game_dir, man, entry, referee)
    state = secret["state"]
    given: dict[str, tuple[env_mod.Envelope, bytes, Any, Seen]] = {}
    received_at = _received_at(man, entry, now) if order_files else now
    for item in order_files:
        where, raw = _input(item, "order")
        env, side, ent, body, seen = _check_order(man, entry, referee, raw, where, received_at)
        if side in given:
            raise EnvelopeError(f"{where} is a second order from {side} for step {entry.number} in one batch; "
                                "send only the one you mean (protocol §7.3).")
        try:
            rules.validate(state, side, body)
        except PbemError as exc:
            raise _located(exc, where) from None
        given[side] = (env, ent, body, seen)
    covered = set(given) | {s for s in man.sides if led.pending_path(game_dir, entry.number, s).exists()}
    missing = [s for s in man.sides if s in entry.owes and s not in covered]
    written = _written(entry, now)
    if missing:
        _check_deadline_passed(man, entry, missing, deadline_passed, written)
    issued: list[receipts.Receipt] = []
    receipt_files: list[tuple[Path, bytes]] = []
    received: dict[str, tuple[env_mod.Envelope, bytes, Any, int]] = {}
    for side in man.sides:
        kept = led.pending_path(game_dir, entry.number, side)
        if side in given:  # received now: its receipt is written with the step, the order goes straight to orders/
            env, ent, body, seen = given[side]
            receipt, files = _receive(game_dir, man, entry, referee, env, received_at, seen)
            issued.append(receipt)
            receipt_files += [f for f in files if f[0] != kept]
            received[side] = (env, ent, body, receipt.seq)
            continue
        if not kept.exists():
            continue
        env, s, ent, body, _ = _check_order(man, entry, referee, read_input(kept, root=game_dir), str(kept), now)
        last = receipts.kept(game_dir, man, entry.number, side)
        if s != side or not last or last[-1].order != env.hash:
            raise LedgerError(f"{kept} is not the order of {side} last receipted for step {entry.number} "
                              "(protocol §9.2).")
        try:
            rules.validate(state, side, body)
        except PbemError as exc:
            raise _located(exc, str(kept)) from None
        received[side] = (env, ent, body, last[-1].seq)
    orders: dict[str, Any] = {s: received[s][2] for s in sorted(received)}
    for side in missing:
        orders[side] = rules.default_order(state, side)
    entropies = [(s, received[s][1] if s in received else b"") for s in man.sides if s in entry.owes]
    number = entry.number + 1
    dice_secret = bytes.fromhex(secret["dice_secret"])
    r = beacon.reveal(dice_secret, man.chain_length, number)
    rng = Drbg(beacon.seed_for(dice_secret, man.chain_length, man.game, number, entropies))
    result = rules.adjudicate(state, orders, rng, game_id=man.game)
    new_state = result.state
    files = receipt_files + [(led.order_path(game_dir, entry.number, s),
                              armor.armor(received[s][0].raw).encode("ascii")) for s in sorted(received)]
    files += _step_files(game_dir, man, number, entry.hash, rules, new_state, result.reports,
                         {s: received[s][0].hash for s in received}, missing, r, referee,
                         dice_secret, bytes.fromhex(secret["state_secret"]), written,
                         {s: received[s][3] for s in received}, board=result.public)
    _write_all(files)
    for side in man.sides:  # the step is closed: its orders are public now, none pending
        led.pending_path(game_dir, entry.number, side).unlink(missing_ok=True)
    # Only the latest sealed state is ever read again (the next step, the reveal bundle); an
    # earlier one MAY be absent (§7.5), and pruning it keeps a game folder about a third smaller.
    led.state_path(game_dir, entry.number).unlink(missing_ok=True)
    return {**status(game_dir), "receipts": issued}


def _check_deadline_passed(man: led.Manifest, entry: led.Entry, missing: Sequence[str], deadline_passed: bool,
                           now: int) -> None:
    """Default orders only when asked for, and only once the recorded deadline has passed (§8.3)."""
    if not deadline_passed:
        raise PbemError(f"step {entry.number} is incomplete: {', '.join(missing)} still "
                        f"{'owes' if len(missing) == 1 else 'owe'} orders (protocol §7.3).",
                        hint="wait for them, or pass --deadline-passed after the deadline to give them the "
                             "default orders")
    if not entry.deadline:
        raise PbemError(f"game {man.game} has no deadline (deadline hours = 0), so {', '.join(missing)} cannot be "
                        "given default orders (protocol §8.3).", hint="wait for their orders")
    if now < entry.deadline:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(entry.deadline))
        raise PbemError(f"the deadline of step {entry.number} is {when} ({entry.deadline}); it has not passed, so "
                        f"{', '.join(missing)} cannot be given default orders yet (protocol §8.3).",
                        hint="wait for their orders or for the deadline")


def _located(exc: PbemError, where: str) -> PbemError:
    """The same error with the file it came from in front."""
    try:
        new = type(exc)(f"{where}: {exc}")
    except TypeError:
        return exc
    new.hint = exc.hint
    return new


def read_input(path: Path, root: Path | None = None) -> bytes:
    """The bytes of an envelope file, by the one reader: a regular file of at most 1 MiB (protocol §3, §3.1)."""
    return inputs.read_input(path, armor.MAX_INPUT, "an envelope file", root=root, too_big=ArmorError)


def open_report(path: Path, me: PrivateIdentity, game_dir: Path | None = None) -> dict[str, Any]:
    """A report sealed to me, always checked against its game's manifest and ledger (protocol §7.4).

    ``game_dir`` defaults to the report's own game folder (``GAME/reports/NNNN-SIDE.pbem``). The
    report must be signed by the manifest's referee, answer the ledger entry of its step, and
    match that entry's commitment: an envelope the opponent forged and sealed to me is refused,
    wherever it was saved.
    """
    path = Path(path)
    env = env_mod.read(read_input(path), str(path))
    env_mod.expect(env, str(path), kind="report")
    game_dir = Path(game_dir) if game_dir is not None else path.parent.parent
    if not os.path.lexists(game_dir / "game.toml"):  # what is there is read by the one reader (§3.1)
        raise FormatError(f"{path}: a report is opened against its game's manifest and ledger, and "
                          f"{game_dir} holds no game.toml (protocol §7.4).",
                          hint="give the game folder with --game DIR (a copy of the public record will do)")
    man = led.read_manifest(game_dir)
    env_mod.expect(env, str(path), signer=man.referee, game=man.game)
    side = env.header.side
    if side not in man.identities:
        raise EnvelopeError(f"{path} is for side {side!r}, which is not in game {man.game} (protocol §4.5).")
    led.check_started(game_dir, man)
    entry_file = led.entry_path(game_dir, env.header.step)
    if not os.path.lexists(entry_file):
        raise LedgerError(f"{path} answers ledger entry {env.header.step}, which is not in {game_dir / 'ledger'}; "
                          "update your copy of the game's record (protocol §7.4).")
    entry = led.read_entry(game_dir, env.header.step, man)
    env_mod.expect(env, str(path), answers=entry.hash, to=me.public)
    data = canonical_loads(env_mod.open_sealed(env, me, str(path)))
    if not isinstance(data, dict) or set(data) != {"salt", "report"} or not isinstance(data["salt"], str) \
            or not re.fullmatch(r"[0-9a-f]{64}", data["salt"]):
        raise FormatError(f"{path}: a report payload holds exactly salt (64 hex digits) and report (protocol §7.4).")
    label = f"report.{side}"
    if commitments.commit(label, bytes.fromhex(data["salt"]), data["report"]) != entry.reports.get(side):
        raise LedgerError(f"{path}: the report does not match its commitment in {entry_file} (protocol §7.4).")
    report = data["report"]
    return report if isinstance(report, dict) else {"report": report}


def verify(game_dir: Path, now: int | None = None) -> dict[str, Any]:
    """Check the whole public record (pbem.core.ledger.verify_game)."""
    return led.verify_game(Path(game_dir), now=now)


__all__ = ["new_game", "open_game", "write_join", "start_game", "write_order", "receive_order", "adjudicate", "status",
           "open_report", "verify", "report_path", "order_path", "state_path", "read_input", "order_entropy",
           "parse_order_payload"]
