"""A suggestion for a misspelt name: "did you mean Fife?" (difflib, so deterministic).

Used by every refusal that names an unknown area, block, card or noble, in the referee's
validation and so in the player's check alike (one code path, one sentence).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

CUTOFF = 0.6


def closest(name: Any, candidates: Iterable[str]) -> str:
    """The candidate closest to ``name`` ("" when none is close): a case-insensitive match first,
    then difflib's best ratio, ties broken by the candidates' order."""
    if not isinstance(name, str) or not name:
        return ""
    pool = sorted(set(candidates))
    for c in pool:
        if c.casefold() == name.casefold():
            return c
    folded = {c.casefold(): c for c in pool}
    found = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=CUTOFF)
    return folded[found[0]] if found else ""


def did_you_mean(name: Any, candidates: Iterable[str]) -> str:
    """``"; did you mean Fife?"`` to append to a refusal, or "" when nothing is close."""
    best = closest(name, candidates)
    return f"; did you mean {best}?" if best and best != name else ""


__all__ = ["closest", "did_you_mean"]
