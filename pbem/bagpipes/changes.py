"""A card's effect in words: what changed on the table, seat by seat ("clan2 gold +2; Scotland's Fields +1").

Why its own module: the game logs it after every card (so a report says what a card did, not only its
title), and ``pbem components check`` prints it for every card played in its sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.bagpipes.model import Table


@dataclass(frozen=True)
class Snapshot:
    """What a card can change, to say it in words."""

    seats: tuple[tuple[str, int, int, int, int, int], ...]   # id, gold, castle, camp, bagpipe cards, daggers
    fields: int
    english: int
    scottish: int
    factors: tuple[tuple[str, int], ...]
    rulings: int

    @classmethod
    def of(cls, t: Table) -> Snapshot:
        return cls(tuple((s.id, s.gold, s.castle, s.camp, len(s.hand), len(s.daggers) + s.virtual_daggers)
                         for s in t.seats), t.fields, t.english_mod, t.scottish_mod,
                   tuple(sorted(t.award_factor.items())), len(t.rulings_due))


def changes(before: Snapshot, after: Snapshot, cards: bool = False) -> str:
    """The differences in words, e.g. "clan2 gold +2; Scotland's Fields +1"; hand and dagger counts only with
    ``cards`` (the sandbox: in a game they may be secret, and draws are logged on their own)."""
    out = []
    names = ("gold", "castle troops", "camp troops", "bagpipe cards", "dagger cards")[:5 if cards else 3]
    for b, a in zip(before.seats, after.seats, strict=True):
        for name, x, y in zip(names, b[1:], a[1:], strict=False):
            if x != y:
                out.append(f"{a[0]} {name} {y - x:+d}")
    for name, x, y in (("Scotland's Fields", before.fields, after.fields),
                       ("English strength", before.english, after.english),
                       ("Scottish strength", before.scottish, after.scottish)):
        if x != y:
            out.append(f"{name} {y - x:+d}")
    if before.factors != after.factors:
        out.append("awards x" + ", x".join(f"{f} for {side}" for side, f in after.factors if f != 1))
    if after.rulings > before.rulings:
        out.append("asks the referee for a ruling (effect = \"manual\")")
    return "; ".join(out) or "nothing changes"
