"""Hammer of the Scots with no referee through the real CLI verbs, past the first Winter Turn (docs/hammer-peer.md
§5 and §8, protocol §13.10-13.11): ``game open --no-referee``, ``game join``, ``status``, ``orders seal`` and
``game receive`` play the first year, its three winter rounds (7.1-7.7) and the next year's deal (7.8), one
folder per side; ``status`` tells each side what its next draft holds (there is no referee to ask)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.hammer_peer_bot import order
from support.peer_cli import HammerByCli, run

from pbem.hammer.peer_drafts import draft_hint

SIDES = ("england", "scotland")


def _states(game_dir: Path) -> list[dict[str, Any]]:
    return [e["state"] for e in (json.loads(p.read_text()) for p in sorted((game_dir / "ledger").glob("*.json")))
            if "game" in e.get("state", {})]


def test_hammer_peer_7_0_two_friends_play_the_first_winter_and_the_next_deal_through_the_cli(tmp_path: Path) -> None:
    table = HammerByCli(tmp_path, SIDES)
    dirs, seal = table.dirs, table.seal
    hints: set[str] = set()
    first = 0
    for _ in range(400):
        status = run("status", dirs["england"])
        states = _states(dirs["england"])
        first = first or (states[0]["game"]["year"] if states else 0)
        if states and states[-1]["game"]["year"] > first and all(states[-1]["game"]["hands"].values()):
            break  # the next year is dealt
        assert "game is over" not in status and "cheated" not in status, status
        for s in SIDES:
            if f"{s} owes commit" in status or f"{s} owes play" in status:
                hints |= {line for line in status.splitlines() if line.startswith(f"{s} drafts: ")}
                seal(s, order(dirs[s], s))  # a winter's draft empty: every question at its default
            elif f"{s} owes" in status:
                seal(s)
    last = _states(dirs["england"])[-1]
    assert last["game"]["year"] == first + 1 and last["game"]["phase"] == "card"
    assert all(len(hand) == 5 for hand in last["game"]["hands"].values())  # 3.0: five cards each, dealt again
    kinds = [json.loads(p.read_text())["kind"] for p in sorted((dirs["england"] / "ledger").iterdir())]
    steps = {line.get("step") for p in sorted((dirs["england"] / "ledger").iterdir())
             for line in json.loads(p.read_text()).get("log", []) if line["what"] == "winter"}
    assert {"7.6", "7.7"} <= steps and kinds.count("deal") == 1  # builds, levy; the next deal (the first: the set-up)
    assert any(h.startswith("england drafts: a winter draft") for h in hints)
    assert any(h.startswith("scotland drafts: a winter draft: a [plan] table with builds") for h in hints)
    table.verify_both_and_compare()


def test_hammer_peer_7_0_status_names_the_draft_a_side_owes_at_each_winter_round() -> None:
    """The draft hint (``pbem status``) for each winter round names the [plan] table and the rules it answers; a side
    that owes no order is told to send an empty draft (protocol §13.3)."""
    def hint(owed: str | None, stage: str, side: str) -> str:
        return draft_hint(owed, {"winter": {"stage": stage}}, side)

    assert "homes, disband, release, edward" in hint("winter", "england", "england")
    assert "an empty draft: you owe no order" in hint(None, "england", "scotland")
    assert "moray, king, wallace" in hint("winter", "scotland", "scotland")
    assert all("builds = {AREA" in hint("winter", "builds", s) for s in SIDES)
