"""Every call the mail judge makes into pbem.core, in one place.

The judge never touches a game folder except through these functions, so a change of the
protocol's API changes this module only. Protocol v2 gives the receipts (``receive_order``),
the deadlines (manifest hours, each entry's ``deadline``), the pending orders
(``GAME/.pbem/pending``) and the one-writer lock (``pbem.core.lock``: core's writers take it
themselves, so the judge takes it only around its own writes to the private area).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core import armor, errors, inputs, receipts
from pbem.core import audit as core_audit
from pbem.core import envelope as env_mod
from pbem.core import game as core_game
from pbem.core import ledger as led
from pbem.core import lock as lock_mod
from pbem.core.atomic import write_atomic
from pbem.core.errors import EnvelopeError, PbemError, ReplayError
from pbem.core.identity import PrivateIdentity, PublicIdentity

PRIVATE = ".pbem"  # the referee-private area of a game folder (never published)


GameBusy = errors.GameBusy  # another writer holds the game (protocol §7.5): try the mail again later

Receipt = receipts.Receipt  # what the referee tells a side whose order it kept (protocol §9.2)


@dataclass(frozen=True)
class Peek:
    """The clear header of an envelope whose signature checks against its own signer."""

    game: str
    kind: str
    side: str
    step: int
    signer: bytes
    hash: str
    raw: bytes


@dataclass(frozen=True)
class View:
    """Where a game stands, from its public record (or the manifest alone before it starts)."""

    game: str
    started: bool
    step: int
    owes: dict[str, str]
    result: dict[str, Any]
    sides: tuple[str, ...]
    defaulted: tuple[str, ...]
    ordered: tuple[str, ...]
    entry_hash: str

    @property
    def over(self) -> bool:
        return self.started and not self.owes


def peek(raw: bytes, where: str) -> Peek:
    """Parse one envelope and check its signature against the key it names (nothing else yet)."""
    env = env_mod.read(raw, where)
    h = env.header
    return Peek(h.game, h.kind, h.side, h.step, h.signer, env.hash, env.raw)


def manifest(game_dir: Path) -> led.Manifest:
    return led.read_manifest(game_dir)


def entry(game_dir: Path, number: int) -> led.Entry:
    """Ledger entry ``number`` (possibly older than the latest)."""
    return led.read_entry(game_dir, number, led.read_manifest(game_dir))


def clear_payload(pv: Peek) -> bytes:
    """The payload of a sign-only envelope (a host command)."""
    return env_mod.parse(pv.raw).body


def signer_side(game_dir: Path, signer: bytes) -> str:
    """The side whose identity signs with ``signer``, or "" when none does."""
    man = led.read_manifest(game_dir)
    return next((s for s in man.sides if man.identities[s].sign_key == signer), "")


def view(game_dir: Path) -> View:
    man = led.read_manifest(game_dir)
    if man.setup == led.SETUP_PLAYERS and not (game_dir / "ledger").exists():
        return View(man.game, False, -1, {s: "join" for s in man.sides}, {}, man.sides, (), (), man.hash)
    entry = led.latest(game_dir, man)
    result = entry.result if isinstance(entry.result, dict) else {"result": entry.result}
    return View(man.game, True, entry.number, dict(entry.owes), result, man.sides, tuple(entry.defaulted),
                tuple(sorted(entry.orders)), entry.hash)


game_lock = lock_mod.game_lock  # for the judge's own writes; never around a core writer (it is not re-entrant)


def open_game(game_dir: Path, rules: str, scenario: str, options: Mapping[str, Any], referee: PrivateIdentity,
              sides: Mapping[str, PublicIdentity], game_id: str | None = None, hours: int = 72,
              chain_length: int = 1000, now: int | None = None) -> str:
    """Open a game for joins (protocol §8.1), each step's deadline ``hours`` after its entry (0: none)."""
    del now  # the manifest records hours, not a time
    return core_game.open_game(game_dir, rules, scenario, options, referee, sides, game_id=game_id,
                               chain_length=chain_length, deadline_hours=hours)


def read_record_file(game_dir: Path, path: Path) -> bytes:
    """A file of a game folder, by the one reader (protocol §3.1): a regular file of at most 1 MiB, no link."""
    return inputs.read_input(path, inputs.MAX_FILE, "a file of the game folder", root=Path(game_dir))


def _pending_join(game_dir: Path, side: str) -> Path:
    return Path(game_dir) / PRIVATE / "joins" / f"{side}.pbem"


def accept_join(game_dir: Path, referee: PrivateIdentity, raw: bytes, where: str, now: int) -> tuple[str, bool]:
    """Check a join and keep it; when every side has joined, start the game (protocol §8.1).

    Core's start_game takes every join at once, so the joins wait in the private area.
    Returns (side, identical to the join already kept).
    """
    with game_lock(game_dir):
        man = led.read_manifest(game_dir)
        env, side, _ = core_game._check_join(man, referee, raw, where)  # noqa: SLF001 (no public one-join check)
        if (game_dir / "ledger").exists():
            raise errors.ReplayError(f"game {man.game} has already started; joins are closed (protocol §8.1).")
        path = _pending_join(game_dir, side)
        armored = armor.armor(env.raw).encode("ascii")
        identical = path.exists() and read_record_file(game_dir, path) == armored
        if not identical:
            write_atomic(path, armored)
    joins = [_pending_join(game_dir, s) for s in man.sides]
    if all(p.exists() for p in joins):
        core_game.start_game(game_dir, referee, [read_record_file(game_dir, p) for p in joins], now=now)
    return side, identical


def receive(game_dir: Path, referee: PrivateIdentity, raw: bytes, where: str, now: int,
            deadline: int | None = None) -> Receipt:
    """Check an order as it arrives, keep it until its step closes, and get its signed receipt (§7.3, §9.2)."""
    return core_game.receive_order(game_dir, referee, raw, where, now=now, deadline=deadline)


def consumed(game_dir: Path, pv: Peek) -> bool:
    """Whether this exact envelope was already used by a ledger entry (a resend after its step closed)."""
    try:
        man = led.read_manifest(game_dir)
        number = pv.step + 1 if pv.kind == "order" else 0
        if not led.entry_path(game_dir, number).exists():
            return False
        return led.read_entry(game_dir, number, man).orders.get(pv.side) == pv.hash
    except PbemError:
        return False


def adjudicate(game_dir: Path, referee: PrivateIdentity, deadline_passed: bool, now: int) -> View:
    """Adjudicate the step with the kept orders (default orders for the rest when the deadline passed;
    core refuses that before the deadline the ledger recorded)."""
    core_game.adjudicate(game_dir, referee, [], deadline_passed=deadline_passed, now=now)
    return view(game_dir)


def pending_sides(game_dir: Path, v: View) -> tuple[str, ...]:
    """Sides whose order for the current step is kept (or whose join is kept before the start)."""
    if not v.started:
        return tuple(s for s in v.sides if _pending_join(game_dir, s).exists())
    return tuple(s for s in v.sides if led.pending_path(game_dir, v.step, s).exists())


def entry_deadline(game_dir: Path, number: int) -> int:
    """The deadline the ledger recorded for the step after entry ``number`` (0: none)."""
    return entry(game_dir, number).deadline


_PUBLIC = re.compile(r"^(game\.toml|components\.toml|ledger/\d{4,}\.toml|orders/\d{4,}-[a-z0-9_]+\.pbem"
                     r"|reports/\d{4,}-[a-z0-9_]+\.pbem|state/\d{4,}\.pbem|joins/[a-z0-9_]+\.pbem)$")


def is_public_name(name: str) -> bool:
    """Whether ``name`` is a file of the public record (the only names a mailed bundle may hold)."""
    return bool(_PUBLIC.match(name))


def entry_files(game_dir: Path, number: int) -> dict[str, bytes]:
    """The public files entry ``number`` adds to the record (with the manifest), by relative name."""
    game_dir = Path(game_dir)
    man = led.read_manifest(game_dir)
    entry = led.read_entry(game_dir, number, man)
    names = ["game.toml", "components.toml", f"ledger/{number:04d}.toml", f"state/{number:04d}.pbem"]  # §10.3
    names += [f"reports/{number:04d}-{s}.pbem" for s in man.sides]
    if number == 0:
        names += [f"joins/{s}.pbem" for s in sorted(entry.orders)]
    else:
        names += [f"orders/{number - 1:04d}-{s}.pbem" for s in sorted(entry.orders)]
    return {n: read_record_file(game_dir, game_dir / n) for n in names if (game_dir / n).exists()}


def all_files(game_dir: Path) -> dict[str, bytes]:
    """The whole public record so far."""
    game_dir = Path(game_dir)
    v = view(game_dir)
    out = {n: read_record_file(game_dir, game_dir / n) for n in ("game.toml", "components.toml")
           if (game_dir / n).exists()}
    if v.started:
        for n in range(v.step + 1):
            out.update(entry_files(game_dir, n))
    # older state files are public too (every entry's sealed state)
    return dict(sorted(out.items()))


def verify(game_dir: Path) -> dict[str, Any]:
    return led.verify_game(Path(game_dir))


def audit(game_dir: Path, referee: PrivateIdentity) -> dict[str, Any]:
    return core_audit.audit_game(Path(game_dir), referee)


def reveal(game_dir: Path, referee: PrivateIdentity) -> bytes:
    """The reveal bundle of a finished game (protocol §9), for the players' own audit."""
    from pbem.core import audit as audit_mod

    return audit_mod.dump_reveal(audit_mod.make_reveal(Path(game_dir), referee)).encode("utf-8")


def not_for_this_step(exc: PbemError) -> bool:
    """A refusal that means 'this envelope belongs to another step' (possibly one already closed)."""
    return isinstance(exc, (ReplayError, EnvelopeError))


def kept_receipts(game_dir: Path, step: int, side: str) -> list[receipts.Receipt]:
    """The receipts the referee kept for ``side``'s orders of ``step``, by number (protocol §9.2)."""
    return receipts.kept(Path(game_dir), led.read_manifest(Path(game_dir)), step, side)
