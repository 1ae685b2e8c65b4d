"""Receipts: the referee's signed word that an order arrived, and when (docs/protocol.md §9.2).

A player keeps the receipt for every order it sends. With it, ``pbem audit --receipt`` catches a
referee who defaulted an order that arrived in time, consumed an older order than one it
receipted, or gave two different orders one sequence number — the ways a referee could still
choose between outcomes after simulating them.

A receipt is a sign-only envelope of kind ``receipt``, signed by the referee, ``side`` = the
order's side, ``step`` = its step, ``answers`` = the entry it answers, payload canonical JSON
``{"order", "seq", "received", "deadline", "replaces"}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.core import armor, inputs
from pbem.core import envelope as env_mod
from pbem.core import ledger as led
from pbem.core.canonical import canonical_bytes, canonical_loads
from pbem.core.errors import AuditError, DecryptError, FormatError
from pbem.core.identity import PrivateIdentity

KIND = "receipt"
_FIELDS = {"order", "seq", "received", "deadline", "replaces", "seen"}
_HEX = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Receipt:
    """One receipt: order ``order`` (hex H of the binary order envelope) of ``side`` for ``step``
    is number ``seq`` the referee accepted for that step and side, received at ``received``
    (unix seconds) against the step's ``deadline`` (0: none); ``replaces`` is the order it
    replaced ("" for the first). ``identical`` is True when the order was a resend of the kept one
    (the receipt is then the one first issued). ``armored`` is the envelope to give the player."""

    game: str
    step: int
    side: str
    seq: int
    order: str
    received: int
    deadline: int
    replaces: str
    identical: bool
    armored: str
    answers: str = ""
    seen_entry: str = ""  # the order's seen, echoed (§8.3): the entry it answers ...
    seen_at: int = 0  # ... and when its player first saw that entry

    @property
    def in_time(self) -> bool:
        """Arrived at or before the step's deadline (every order is in time when there is none)."""
        return not self.deadline or self.received <= self.deadline


def issue(referee: PrivateIdentity, game: str, step: int, side: str, answers: str, seq: int, order: str,
          received: int, deadline: int, replaces: str, seen_entry: str, seen_at: int) -> Receipt:
    """Sign a receipt (sign-only envelope of kind ``receipt``), echoing the order's ``seen`` (§8.3)."""
    payload = canonical_bytes({"order": order, "seq": seq, "received": received, "deadline": deadline,
                               "replaces": replaces, "seen": {"entry": seen_entry, "at": seen_at}})
    raw = env_mod.sign_only(referee, payload, game=game, kind=KIND, side=side, step=step, answers=answers)
    return Receipt(game, step, side, seq, order, received, deadline, replaces, False, armor.armor(raw), answers,
                   seen_entry, seen_at)


def parse(raw: bytes | str, man: led.Manifest, where: str = "receipt") -> Receipt:
    """A receipt, checked: signed by this game's referee, of kind receipt, for a side of this game."""
    env = env_mod.read(raw, where)
    env_mod.expect(env, where, kind=KIND, game=man.game, signer=man.referee)
    if env.header.sealed or env.header.side not in man.identities:
        raise FormatError(f"{where}: a receipt is signed only and names a side of game {man.game} (protocol §9.2).")
    data = canonical_loads(env.body)
    ints = ("seq", "received", "deadline")
    if not isinstance(data, dict) or set(data) != _FIELDS \
            or not all(isinstance(data[n], int) and not isinstance(data[n], bool) and data[n] >= 0 for n in ints) \
            or data["seq"] < 1 or not isinstance(data["order"], str) or not _HEX.match(data["order"]) \
            or not isinstance(data["replaces"], str) or not (data["replaces"] == "" or _HEX.match(data["replaces"])) \
            or not _seen_ok(data["seen"]):
        raise FormatError(f"{where}: a receipt's payload holds exactly order, seq (>= 1), received, deadline, "
                          "replaces and seen {entry, at} (protocol §9.2).")
    seen = data["seen"]
    return Receipt(man.game, env.header.step, env.header.side, data["seq"], data["order"], data["received"],
                   data["deadline"], data["replaces"], False, armor.armor(env.raw), env.header.answers,
                   seen["entry"], seen["at"])


def _seen_ok(seen: object) -> bool:
    return isinstance(seen, dict) and set(seen) == {"entry", "at"} and isinstance(seen["entry"], str) \
        and bool(_HEX.match(seen["entry"])) and isinstance(seen["at"], int) and not isinstance(seen["at"], bool) \
        and seen["at"] >= 0


def kept(game_dir: Path, man: led.Manifest, step: int, side: str) -> list[Receipt]:
    """The receipts the referee issued for ``side`` at ``step``, by seq."""
    out = []
    name = re.compile(rf"{step:04d}-{re.escape(side)}-[0-9]{{3,}}\.pbem")  # 001 ... 999, 1000 ... (§7)
    for path in sorted((led.private_dir(game_dir) / "receipts").glob(f"{step:04d}-*.pbem")):
        if name.fullmatch(path.name):
            out.append(parse(inputs.read_input(path, armor.MAX_INPUT, "a receipt", root=game_dir), man, str(path)))
    return sorted(out, key=lambda r: r.seq)


def check_seen(where: str, side: str, step: int, answered: led.Entry, entry: str, at: int, what: str) -> None:
    """An order the referee receipted or consumed carries a ``seen`` it had to accept (§8.3): the entry
    answered, first seen no earlier than an hour before that entry was written and no later than an
    hour after its deadline. A first sight past the deadline proves the entry reached the player
    already late: the referee's clock was behind or it backdated the entry."""
    slack = led.CLOCK_SLACK
    if entry != answered.hash:
        raise AuditError(f"{where}: {side}'s order {what} at step {step} says it answers another entry than "
                         f"{answered.path} (protocol §8.3).")
    if answered.deadline and at > answered.deadline + slack:
        raise AuditError(f"{where}: {side}'s order {what} at step {step} was written after first seeing "
                         f"{answered.path} at {led.when(at)}, past its deadline {led.when(answered.deadline)}: "
                         "the entry reached the player already late, backdated or written on a clock set back "
                         "(protocol §8.3, §9.2).")
    if at < answered.written - slack:
        raise AuditError(f"{where}: {side}'s order {what} at step {step} says its player saw {answered.path} at "
                         f"{led.when(at)}, before it was written ({led.when(answered.written)}) (protocol §8.3).")


def check(game_dir: Path, man: led.Manifest, receipts: Sequence[tuple[str, Receipt]]) -> list[str]:
    """Hold the ledger to the players' receipts; AuditError names the first broken promise (§9.2).

    Fails when a receipted order was defaulted (every receipt is in time: §8.3); when a receipt was
    received before its entry was written or after the entry that adjudicated its step; when its
    seen is not the entry answered or falls past the deadline (§8.3); when an order with a lower
    seq than a held receipt was consumed, or an order receipted under a lower seq was consumed
    under a higher one; when the consumed order of a receipt's seq is another order; when two
    receipts of one seq name different orders; when a receipt's deadline is not the one the ledger
    recorded. Receipts for a step not yet adjudicated are only listed.
    """
    lines: list[str] = []
    seen: dict[tuple[int, str, int], tuple[str, str]] = {}
    entries = led.entry_numbers(game_dir)
    for where, r in receipts:
        key = (r.step, r.side, r.seq)
        if key in seen and seen[key][0] != r.order:
            raise AuditError(f"{where} and {seen[key][1]}: two receipts give seq {r.seq} of {r.side} at step "
                             f"{r.step} to different orders (protocol §9.2).")
        seen[key] = (r.order, where)
    for where, r in receipts:
        if r.step > entries[-1]:
            raise AuditError(f"{where}: the receipt is for step {r.step}, but the ledger ends at entry {entries[-1]} "
                             "(protocol §9.2).")
        answered = led.read_entry(game_dir, r.step, man)
        if r.answers != answered.hash:
            raise AuditError(f"{where}: the receipt answers another entry than ledger entry {r.step} (protocol §9.2).")
        if r.deadline != answered.deadline:
            raise AuditError(f"{where}: the receipt gives deadline {r.deadline}, but {answered.path} records "
                             f"{answered.deadline} (protocol §9.2).")
        if r.received < answered.written:
            raise AuditError(f"{where}: {r.side}'s order {r.seq} for step {r.step} was received at {r.received}, "
                             f"before {answered.path} was written ({answered.written}) (protocol §9.2).")
        check_seen(where, r.side, r.step, answered, r.seen_entry, r.seen_at, "receipted")
        if r.step == entries[-1]:
            lines.append(
                f"receipt {where}: {r.side}'s order {r.seq} for step {r.step}: the step is not adjudicated yet"
            )
            continue
        closed = led.read_entry(game_dir, r.step + 1, man)
        if r.received > closed.written:
            raise AuditError(f"{where}: {r.side}'s order {r.seq} for step {r.step} was received at {r.received}, "
                             f"after {closed.path}, which adjudicated the step, was written ({closed.written}) "
                             "(protocol §9.2).")
        if r.side in closed.defaulted:
            raise AuditError(f"{closed.path}: {r.side} was given default orders at step {r.step}, but {where} "
                             f"shows the referee received its order {r.seq} at {r.received}; a receipted order is "
                             "never defaulted (protocol §9.2).")
        used = closed.received.get(r.side, 0)
        if used < r.seq:
            raise AuditError(f"{closed.path}: consumed {r.side}'s order {used} at step {r.step}, older than order "
                             f"{r.seq} receipted in {where} (protocol §9.2).")
        if used > r.seq and closed.orders.get(r.side) == r.order:
            raise AuditError(f"{closed.path}: consumed {r.side}'s order {r.seq} of {where} at step {r.step} under "
                             f"the later number {used}: an older order swapped in for a newer one (protocol §9.2).")
        if used == r.seq and closed.orders.get(r.side) != r.order:
            raise AuditError(f"{closed.path}: consumed another order of {r.side} at step {r.step} than the order "
                             f"{r.seq} receipted in {where} (protocol §9.2).")
        if used > r.seq:  # a later order of the side, receipted in turn, replaced this one
            lines.append(f"receipt {where}: {r.side}'s order {r.seq} for step {r.step} was replaced by order "
                         f"{used}, which was played")
        else:
            lines.append(f"receipt {where}: {r.side}'s order {r.seq} for step {r.step} was played")
    return lines


def seal_to_side(armored: str, referee: PrivateIdentity, man: led.Manifest) -> str:
    """The receipt sealed to its side and to the referee (a receipt committed to a shared repository,
    docs/git.md "What the repository shows"): the opponent cannot read it; the side and the referee can,
    and inside it is the very signed receipt ``parse`` checks."""
    env = env_mod.read(armored, "receipt")
    h = env.header
    raw = env_mod.seal(referee, [man.identities[h.side], man.referee], env.raw, game=h.game, kind=KIND, side=h.side,
                       step=h.step, answers=h.answers)
    return armor.armor(raw)


def unseal(raw: bytes | str, man: led.Manifest, keys: Sequence[PrivateIdentity], where: str = "receipt") -> bytes:
    """The signed receipt a sealed one holds, opened with whichever of ``keys`` it is sealed to
    (a receipt that is not sealed is returned as it is)."""
    env = env_mod.read(raw, where)
    if not env.header.sealed:
        return raw.encode("ascii") if isinstance(raw, str) else raw
    h = env.header
    env_mod.expect(env, where, kind=KIND, game=man.game, signer=man.referee)
    key = next((k for k in keys if k.public.encrypt_key in h.to), None)
    if key is None:
        raise DecryptError(f"{where} is a receipt sealed to {h.side} and the referee; give the key of one of them "
                           "(--key) to open it (protocol §9.2).")
    inner = env_mod.open_sealed(env, key, where)
    got = env_mod.read(inner, where).header
    if (got.kind, got.side, got.step, got.answers) != (KIND, h.side, h.step, h.answers):
        raise FormatError(f"{where}: the sealed receipt holds another side's or step's receipt (protocol §9.2).")
    return inner


def filed(game_dir: Path) -> list[tuple[str, bytes]]:
    """Every receipt kept in the game folder (``GAME/.pbem/receipts/``: the referee's copies in its folder,
    a player's filed by ``pbem inbox`` or ``pbem mail import`` in its copy), as (path, armored) pairs for
    the audit, by name. ``pbem audit`` holds the ledger to them without being told (§9.2)."""
    folder = led.private_dir(game_dir) / "receipts"
    if not folder.is_dir():
        return []
    out = []
    for name, regular in inputs.list_folder(folder, "the receipts folder"):
        if regular and re.fullmatch(r"[0-9]{4,}-[A-Za-z0-9_-]+-[0-9]{3,}\.pbem", name):
            out.append((str(folder / name), inputs.read_input(folder / name, armor.MAX_INPUT, "a receipt",
                                                              root=game_dir)))
    return sorted(out)


def file(game_dir: Path, man: led.Manifest, raw: bytes | str, where: str) -> tuple[Receipt, Path, bool]:
    """Keep a receipt the referee sent in the game folder, where ``pbem audit`` finds it (``filed``):
    (the receipt, its path, whether it is new). Refused in one sentence, nothing written, when it is
    not this game's referee's, answers another entry than the copy's ledger (a replay from another
    game or a rewritten history), is for a step the copy has not reached, or gives a number already
    filed to another order (then both are evidence: keep this one's file, protocol §9.2)."""
    r = parse(raw, man, where)
    numbers = led.entry_numbers(game_dir)
    if r.step > numbers[-1]:
        raise FormatError(f"{where}: a receipt for step {r.step}, but your copy of game {man.game} ends at entry "
                          f"{numbers[-1]}; take in the record first (protocol §9.2).")
    if led.read_entry(game_dir, r.step, man).hash != r.answers:
        raise AuditError(f"{where}: the receipt answers another entry than ledger entry {r.step} of your copy; it "
                         "is from another game or another history, so it was not filed (protocol §9.2).")
    path = led.receipt_path(game_dir, r.step, r.side, r.seq)
    if path.exists():
        old = parse(inputs.read_input(path, armor.MAX_INPUT, "a receipt", root=game_dir), man, str(path))
        if old.order != r.order:
            raise AuditError(f"{where} and {path}: two receipts give seq {r.seq} of {r.side} at step {r.step} to "
                             "different orders; keep both files, they are evidence against the referee "
                             "(protocol §9.2).")
        return r, path, False
    from pbem.core.atomic import write_atomic
    write_atomic(path, r.armored, 0o600)
    return r, path, True
