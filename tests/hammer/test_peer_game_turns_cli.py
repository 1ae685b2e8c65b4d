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
from support.peer_cli import HammerByCli, run

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


def test_hammer_peer_status_in_your_own_folder_says_your_hand_and_blocks_and_nothing_of_the_other_sides(
        tmp_path: Path) -> None:
    """``pbem status`` in a side's own folder says what that side alone sees (docs/hammer-peer.md §8): its hand card
    by card and each of its blocks by handle, with its area and strength, and its draw pool; its drafts name them
    by label, and with no referee nobody else can tell it which is which. Nothing of the other side's: no section
    for it, and no block of its named behind a handle. Checked by mutation: a status that reads every side's private
    area, a hand without its cards' names, the pool listed as an area."""
    from pbem.core.peer import folder as peer
    from pbem.hammer.rules.cards import card

    table = HammerByCli(tmp_path, SIDES)
    table.play(lambda status: "england owes commit" in status, lambda side: None)
    said = {s: run("status", table.dirs[s]) for s in SIDES}
    for side in SIDES:
        other = next(o for o in SIDES if o != side)
        mine = said[side].split(f"what {side} alone sees", 1)[1]
        own = peer.own_of(table.dirs[side], side)
        out = peer.outcome(table.dirs[side])
        hand = out.state["game"]["hands"][side]
        assert f"your hand: {', '.join(f'{c} {card(own[c]).name}' for c in hand)}" in mine
        blocks = out.state["game"]["blocks"]
        for handle, b in blocks.items():
            if b["owner"] == side and handle.startswith("hidden."):
                assert f"{handle} {own[handle]}" in mine, handle
                assert (f"{handle} {own[handle]} (" in mine) == (b["location"] != "pool"), handle  # pool: no strength
        assert "your blocks in your draw pool: " in mine
        assert f"what {other} alone sees" not in said[side] and f"hidden.{other}." not in mine


def test_hammer_peer_status_says_each_block_at_the_strength_its_side_knows() -> None:
    """A block a winter sealed stands at the strength sealed, less the steps a Pillage took and plus those an Event
    gave (public ``damage``); a block a battle showed at its public strength; a set-up block at full strength
    (8.0, 7.6, 2.11)."""
    from pbem.hammer.peer_own import own_lines

    public = {"seen": {"hidden.scotland.2": "Douglas"}, "damage": {"hidden.scotland.1": -1, "hidden.scotland.3": 1},
              "game": {"hands": {"scotland": ["card.scotland.5"]}, "blocks": {
                  "hidden.scotland.1": {"owner": "scotland", "location": "Fife", "strength": 0},
                  "hidden.scotland.2": {"owner": "scotland", "location": "Fife", "strength": 2},
                  "hidden.scotland.3": {"owner": "scotland", "location": "Lennox", "strength": 0},
                  "hidden.scotland.4": {"owner": "scotland", "location": "pool", "strength": 0},
                  "hidden.england.1": {"owner": "england", "location": "Fife", "strength": 0}}}}
    own = {"card.scotland.5": "herald", "hidden.scotland.1": {"block": "Wallace", "strength": 2},
           "hidden.scotland.3": "Lennox", "hidden.scotland.4": "Moray"}
    assert own_lines(public, "scotland", own) == [
        "your hand: card.scotland.5 Herald",
        "your blocks in Fife: hidden.scotland.1 Wallace (3, unseen), hidden.scotland.2 Douglas (2)",
        "your blocks in Lennox: hidden.scotland.3 Lennox (2, unseen)",
        "your blocks in your draw pool: hidden.scotland.4 Moray"]
