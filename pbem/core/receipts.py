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

from pbem.core import armor
from pbem.core import envelope as env_mod
from pbem.core import ledger as led
from pbem.core.canonical import canonical_bytes, canonical_loads
from pbem.core.errors import AuditError, FormatError
from pbem.core.identity import PrivateIdentity

KIND = "receipt"
_FIELDS = {"order", "seq", "received", "deadline", "replaces"}
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

    @property
    def in_time(self) -> bool:
        """Arrived at or before the step's deadline (every order is in time when there is none)."""
        return not self.deadline or self.received <= self.deadline


def issue(referee: PrivateIdentity, game: str, step: int, side: str, answers: str, seq: int, order: str,
          received: int, deadline: int, replaces: str) -> Receipt:
    """Sign a receipt (sign-only envelope of kind ``receipt``)."""
    payload = canonical_bytes({"order": order, "seq": seq, "received": received, "deadline": deadline,
                               "replaces": replaces})
    raw = env_mod.sign_only(referee, payload, game=game, kind=KIND, side=side, step=step, answers=answers)
    return Receipt(game, step, side, seq, order, received, deadline, replaces, False, armor.armor(raw), answers)


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
            or not isinstance(data["replaces"], str) or not (data["replaces"] == "" or _HEX.match(data["replaces"])):
        raise FormatError(f"{where}: a receipt's payload holds exactly order, seq (>= 1), received, deadline and "
                          "replaces (protocol §9.2).")
    return Receipt(man.game, env.header.step, env.header.side, data["seq"], data["order"], data["received"],
                   data["deadline"], data["replaces"], False, armor.armor(env.raw), env.header.answers)


def kept(game_dir: Path, man: led.Manifest, step: int, side: str) -> list[Receipt]:
    """The receipts the referee issued for ``side`` at ``step``, by seq."""
    out = []
    name = re.compile(rf"{step:04d}-{re.escape(side)}-[0-9]{{3,}}\.pbem")  # 001 ... 999, 1000 ... (§7)
    for path in sorted((led.private_dir(game_dir) / "receipts").glob(f"{step:04d}-*.pbem")):
        if name.fullmatch(path.name):
            out.append(parse(path.read_bytes(), man, str(path)))
    return sorted(out, key=lambda r: r.seq)


def check(game_dir: Path, man: led.Manifest, receipts: Sequence[tuple[str, Receipt]]) -> list[str]:
    """Hold the ledger to the players' receipts; AuditError names the first broken promise (§9.2).

    Fails when a receipted order that arrived in time was defaulted; when an order with a lower
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
        if r.step >= entries[-1]:
            lines.append(
                f"receipt {where}: {r.side}'s order {r.seq} for step {r.step}: the step is not adjudicated yet"
            )
            continue
        answered = led.read_entry(game_dir, r.step, man)
        closed = led.read_entry(game_dir, r.step + 1, man)
        if r.answers != answered.hash:
            raise AuditError(f"{where}: the receipt answers another entry than ledger entry {r.step} (protocol §9.2).")
        if r.deadline != answered.deadline:
            raise AuditError(f"{where}: the receipt gives deadline {r.deadline}, but {answered.path} records "
                             f"{answered.deadline} (protocol §9.2).")
        if r.side in closed.defaulted:
            if r.in_time:
                raise AuditError(f"{closed.path}: {r.side} was given default orders at step {r.step}, but {where} "
                                 f"shows its order {r.seq} arrived at {r.received}, before the deadline "
                                 f"{r.deadline} (protocol §9.2).")
            lines.append(f"receipt {where}: arrived after the deadline; the default orders stand")
            continue
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
