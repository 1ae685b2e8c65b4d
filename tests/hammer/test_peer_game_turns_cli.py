"""Hammer of the Scots with no referee through the real CLI verbs (docs/hammer-peer.md, protocol §13.10):
``game open --no-referee``, ``game join``, ``orders seal`` (starts, deal passes, commitments with TOML drafts
naming handles, reveals, opens), ``game receive``, ``status`` and ``verify``, one folder per side: Game Turns
with battles whose blocks are asked of their owners (5.1), Scotland's drafts carrying a ``[plans]`` table that
``orders seal`` seals (docs/plans.md), both records byte for byte the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.hammer_peer_bot import order
from support.peer_cli import HammerByCli

SIDES = ("england", "scotland")


@pytest.mark.slow
def test_hammer_peer_game_turns_through_the_real_cli_verbs(tmp_path: Path) -> None:
    table = HammerByCli(tmp_path, SIDES)
    dirs = table.dirs
    turns = 0
    answered = False  # status told the side answering a play (§13.4) to seal with no draft

    def done(status: str) -> bool:
        nonlocal answered, turns
        answered |= any(f"{s} owes reveal" in status and f"{s}: no draft; `pbem orders seal none` writes its reveal"
                        in status for s in SIDES) and "play" in "".join(p.name for p in (dirs["england"] /
                                                                                         "messages").iterdir())
        states = [json.loads(p.read_text()).get("state") for p in sorted((dirs["england"] / "ledger").glob("*.json"))]
        turns = [st for st in states if st][-1]["game"]["turn"] if states else 0
        return turns >= 3

    def draft(side: str) -> dict[str, object] | None:
        got = order(dirs[side], side)  # Scotland's drafts carry a battle plan, sealed by orders seal
        return {**got, "plans": {"battle": {"regroup": "stay"}}} if got and side == "scotland" else got

    table.play(done, draft, limit=60)
    assert turns >= 2 and answered
    table.verify_both_and_compare()
    kinds = [json.loads(p.read_text())["kind"] for p in sorted((dirs["england"] / "ledger").iterdir())]
    logs = [line["what"] for p in sorted((dirs["england"] / "ledger").iterdir())
            for line in json.loads(p.read_text()).get("log", [])]
    assert "battle" in logs and "reveal" in logs and kinds.count("step") >= 4
    scots = [json.loads(p.read_text())["orders"].get("scotland") for p in sorted((dirs["england"] / "ledger").iterdir())
             if json.loads(p.read_text())["kind"] == "step"]
    assert any(o and isinstance(o.get("plans"), str) and len(o["plans"]) == 64 for o in scots)  # sealed, not in clear
