"""The ruleset seam's typed results (protocol §10): adjudicate returns a ``StepResult`` whose public
board is the one the ledger entry records, so core writes it instead of computing it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from core_support import Keys, order

from pbem.core import game, ledger, ruleset
from pbem.core.canonical import canonical_bytes


def test_protocol_10_the_ledger_records_the_board_adjudicate_returned(fresh: Path, keys: Keys,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset.load("rps")
    real_adjudicate, real_public = rules.adjudicate, rules.public
    returned: list[dict[str, Any]] = []
    inside = [False]

    def adjudicate(state: dict[str, Any], orders: dict[str, Any], rng: Any, game_id: str = "") -> ruleset.StepResult:
        inside[0] = True
        try:
            result = real_adjudicate(state, orders, rng, game_id)
        finally:
            inside[0] = False
        assert canonical_bytes(result.public) == canonical_bytes(real_public(result.state))  # the board as before
        returned.append(result.public)
        return result

    def public(state: dict[str, Any]) -> dict[str, Any]:
        if not inside[0]:
            raise AssertionError("core computed the board again instead of using the one adjudicate returned")
        return real_public(state)

    monkeypatch.setattr(rules, "adjudicate", adjudicate)
    monkeypatch.setattr(rules, "public", public)
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north", "rock"), order(keys, fresh, "south", "paper")],
                    rules=rules)
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north", "paper"), order(keys, fresh, "south", "rock")],
                    rules=rules)
    man = ledger.read_manifest(fresh)
    boards = [ledger.read_entry(fresh, n, man).board for n in (1, 2)]
    assert len(returned) == 2
    assert [canonical_bytes(b) for b in boards] == [canonical_bytes(b) for b in returned]
