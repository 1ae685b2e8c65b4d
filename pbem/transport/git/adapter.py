"""Every call the git transport makes into the protocol (pbem.core), and nothing else.

Receipts from ``receive_order``, deadlines in the ledger, pending orders and receipts in the
referee's private area (``GAME/.pbem``): keeping the calls here means a change of the protocol
touches this module only. The transport sees typed records, never core's own types.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pbem.core import armor, identity, inputs
from pbem.core import envelope as env_mod
from pbem.core import game as core_game
from pbem.core import ledger as led
from pbem.core import receipts as receipts_mod
from pbem.core.errors import FormatError, GameBusy, PbemError, SignatureError
from pbem.core.identity import PrivateIdentity
from pbem.core.lazy import lazy
from pbem.core.records import record

audit_mod = lazy("pbem.core.audit")  # the reveal and the audit only: a hook never loads it

Key = PrivateIdentity
Error = PbemError
Receipt = receipts_mod.Receipt


@record
class Position:
    """Where a game stands, from its public record."""

    game: str
    step: int
    owes: dict[str, str]
    result: Any
    sides: tuple[str, ...]
    entry_hash: str
    deadline: int  # unix seconds by which the owed orders are due (the ledger's); 0: none, never defaults

    @property
    def over(self) -> bool:
        return not self.owes


@record
class Received:
    """An order the referee took in: whose, for which step, and its receipt when the protocol gives one."""

    side: str
    step: int
    seq: int = 0
    identical: bool = False
    receipt: str = ""  # the armored receipt envelope, signed by the referee, for the player to keep


@record
class Header:
    """What anyone can read of an envelope without a key (its signature checked against its own signer)."""

    game: str
    kind: str
    side: str
    step: int
    hash: str  # hex H of the binary envelope: what the ledger records


def load_key(path: Path, passphrase: bytes | None = None) -> Key:
    return identity.load_private(Path(path), passphrase)


def key_from_text(text: str, where: str, passphrase: bytes | None = None) -> Key:
    """A private key given as text (a CI secret held in an environment variable)."""
    return identity.private_from_toml(text, where, passphrase)


def position(game_dir: Path) -> Position:
    man = led.read_manifest(Path(game_dir))
    entry = led.latest(Path(game_dir), man)
    return Position(man.game, entry.number, dict(entry.owes), entry.result, tuple(man.sides), entry.hash,
                    entry.deadline)


def check_ready(game_dir: Path) -> None:
    """Refuse to referee with the wrong rules installed: that is no fault of any order, so no order may
    be refused for it (protocol §10)."""
    try:
        core_game.installed_rules(Path(game_dir))
    except FormatError as exc:
        raise FormatError(f"{exc.message.removesuffix(' (protocol §10).')}; the referee stops until it is "
                          "(protocol §10).") from None


def is_verdict(exc: PbemError) -> bool:
    """Does this error judge the order (refuse it), rather than the moment (another writer busy)?"""
    return not isinstance(exc, GameBusy)


def check_referee(game_dir: Path, key: Key) -> str:
    """The game id, when ``key`` is this game's referee; a signature error otherwise."""
    man = led.read_manifest(Path(game_dir))
    if key.public != man.referee:
        raise SignatureError(f"the key of {key.name} ({key.fingerprint}) is not the referee of game {man.game} "
                             f"({man.referee.fingerprint}) (protocol §7.1).")
    return man.game


def header(raw: bytes, where: str) -> Header:
    """The envelope's header, its signature checked against the header's own signer (not yet who that is)."""
    env = env_mod.read(raw, where)
    h = env.header
    return Header(h.game, h.kind, h.side, h.step, env.hash)


def check_order_public(game_dir: Path, raw: bytes, where: str) -> Header:
    """What a player can check before sending (pbem.core.game.check_order_public)."""
    env = core_game.check_order_public(Path(game_dir), raw, where)
    return Header(env.header.game, env.header.kind, env.header.side, env.header.step, env.hash)


BUSY_TRIES = 25
BUSY_WAIT = 0.2  # seconds between tries while another pbem command writes the game (protocol §7.5)

T = TypeVar("T")


def _when_free(write: Callable[[], T]) -> T:
    """Run a writer of the game folder, waiting a few seconds while another holds its lock (GameBusy)."""
    for attempt in range(BUSY_TRIES):
        try:
            return write()
        except GameBusy:
            if attempt == BUSY_TRIES - 1:
                raise
            time.sleep(BUSY_WAIT)
    raise AssertionError("unreachable")


def receive(game_dir: Path, referee: Key, raw: bytes, where: str, now: int | None = None) -> Received:
    """Take in one order (protocol §7.3: binding and the game's rules); nothing is kept when it is refused."""
    got = _when_free(lambda: core_game.receive_order(Path(game_dir), referee, raw, where, now=now))
    return Received(got.side, got.step, got.seq, got.identical, got.armored)


def check_order(game_dir: Path, referee: Key, raw: bytes, where: str) -> Header:
    """The referee's full check of an order, on a throwaway copy of the record (nothing written here)."""
    import tempfile

    game_dir = Path(game_dir)
    with tempfile.TemporaryDirectory(prefix="pbem-check-") as tmp:
        copy = Path(tmp) / "game"
        _copy_record(game_dir, copy)
        got = receive(copy, referee, raw, where)
    h = header(raw, where)
    return Header(h.game, h.kind, got.side, got.step, h.hash)


def _copy_record(src: Path, dst: Path) -> None:
    """Manifest, ledger and the latest sealed state: what receiving an order reads."""
    def copy(a: Path, b: Path) -> None:  # by the one reader: a link or a device in the record is refused (§3.1)
        b.write_bytes(inputs.read_input(a, inputs.MAX_FILE, "a file of the record", root=src))

    man = led.read_manifest(src)
    entry = led.latest(src, man)
    (dst / "ledger").mkdir(parents=True)
    copy(src / "game.toml", dst / "game.toml")
    if (src / "components.toml").exists():  # the game's component file, part of the record (protocol §10.3)
        copy(src / "components.toml", dst / "components.toml")
    for n in range(entry.number + 1):
        copy(led.entry_path(src, n), led.entry_path(dst, n))
    state = led.state_path(src, entry.number)
    state_dst = led.state_path(dst, entry.number)
    state_dst.parent.mkdir(parents=True, exist_ok=True)
    copy(state, state_dst)


def adjudicate(game_dir: Path, referee: Key, orders: list[bytes], *, deadline_passed: bool = False,
               now: int | None = None) -> Position:
    """Adjudicate the step with the orders kept and given; default orders for the rest when the deadline passed."""
    _when_free(lambda: core_game.adjudicate(Path(game_dir), referee, list(orders), deadline_passed=deadline_passed,
                                            now=now))
    return position(game_dir)


def receipt_name(step: int, side: str, seq: int) -> str:
    """The file name of a receipt, the same in the repository's receipts/ and the referee's private area."""
    return led.receipt_path(Path("."), step, side, seq).name


def sealed_receipt(game_dir: Path, referee: Key, armored: str) -> str:
    """A receipt as the repository holds it: sealed to its side and the referee (docs/git.md)."""
    return receipts_mod.seal_to_side(armored, referee, led.read_manifest(Path(game_dir)))


def open_receipt(game_dir: Path, raw: bytes, keys: list[Key], where: str) -> receipts_mod.Receipt:
    """A receipt from the repository, opened with one of ``keys`` and checked (protocol §9.2)."""
    man = led.read_manifest(Path(game_dir))
    return receipts_mod.parse(receipts_mod.unseal(raw, man, keys, where), man, where)


def restore_private(game_dir: Path, receipts: Path, inbox: dict[str, Path], referee: Key | None = None) -> None:
    """Rebuild the referee's private area from the public repository (a CI job starts from a bare checkout).

    The receipts already issued for the current step (``receipts``, the repository's folder, holds
    every step's; a pass reads only the step's: which order is pending, the next receipt number) go
    back where the referee keeps them, and each inbox order whose latest receipt names it is pending
    again, so taking it in once more is an identical resend (same receipt, same seq), never a new order.
    """
    game_dir = Path(game_dir)
    man = led.read_manifest(game_dir)
    entry = led.latest(game_dir, man)
    if receipts.is_dir():
        step = f"{entry.number:04d}-"
        for path in sorted(receipts.iterdir()):
            target = led.private_dir(game_dir) / "receipts" / path.name
            if not path.name.startswith(step) or target.exists() or not inputs.is_file(path):
                continue
            try:
                raw = inputs.read_input(path, armor.MAX_INPUT, "a receipt", root=receipts.parent)
                data = receipts_mod.unseal(raw, man, [referee] if referee else [], str(path))
                receipts_mod.parse(data, man, str(path))
            except PbemError:
                continue  # not a receipt of this referee's: the referee's own copies are what count
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    for side, path in sorted(inbox.items()):
        issued = receipts_mod.kept(game_dir, man, entry.number, side)
        pending = led.pending_path(game_dir, entry.number, side)
        try:
            raw = inputs.read_input(path, armor.MAX_INPUT, "an inbox order")
            order = env_mod.read(raw, str(path)).hash
        except PbemError:
            continue  # not an order at all: the referee's pass refuses it
        if issued and not pending.exists() and issued[-1].order == order:
            pending.parent.mkdir(parents=True, exist_ok=True)
            pending.write_bytes(raw)


def private_dir(game_dir: Path) -> Path:
    """The referee's private area in a game folder (pending orders, receipts): rebuilt by ``restore_private``."""
    return led.private_dir(Path(game_dir))


def verify(game_dir: Path) -> list[str]:
    return list(led.verify_game(Path(game_dir))["lines"])


def reveal(game_dir: Path, referee: Key) -> str:
    """The reveal bundle's text (JSON)."""
    text: str = audit_mod.dump_reveal(audit_mod.make_reveal(Path(game_dir), referee))
    return text


def audit(game_dir: Path, bundle: Path) -> list[str]:
    return list(audit_mod.audit(Path(game_dir), audit_mod.read_reveal(Path(bundle)))["lines"])


def report_path(game_dir: Path, step: int, side: str) -> Path:
    return led.report_path(Path(game_dir), step, side)


def side_of(game_dir: Path, key: Key) -> str:
    """The side ``key`` plays in this game; a signature error when it plays none."""
    man = led.read_manifest(Path(game_dir))
    for side in man.sides:
        if man.identities[side] == key.public:
            return side
    raise SignatureError(f"the key of {key.name} ({key.fingerprint}) plays no side of game {man.game} "
                         "(protocol §7.1).")


def side_of_any(game_dir: Path, keys: list[Key]) -> str | None:
    """The side the first of ``keys`` that plays one plays; None when none does (the referee's key)."""
    for key in keys:
        try:
            return side_of(game_dir, key)
        except SignatureError:
            continue
    return None


def is_armored(data: bytes) -> bool:
    return armor.is_armored(data)


def format_error(message: str) -> FormatError:
    return FormatError(message)


def entry_hash(game_dir: Path, number: int) -> str | None:
    """The hash of ledger entry ``number`` as the folder holds it; None when there is no such entry.

    A file that does not read as a signed entry gives its own error (the record was tampered with)."""
    game_dir = Path(game_dir)
    if not led.entry_path(game_dir, number).exists():
        return None
    return led.read_entry(game_dir, number, led.read_manifest(game_dir)).hash


def private_area(game_dir: Path) -> Path:
    """The referee's private area of a game folder (never committed: .gitignore keeps .pbem/ out)."""
    return led.private_dir(Path(game_dir))
