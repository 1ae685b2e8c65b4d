"""A test bot for Hammer with no referee: from its own folder only (the public entry and its own facts), it
plays the first Move card of its hand and attacks with the first block that may legally enter an area
holding the enemy (tests only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts
from pbem.hammer.board import board
from pbem.hammer.cards import card
from pbem.hammer.peer import HammerPeer
from pbem.hammer.state import PLACES


class OnlyEvents(Exception):
    """The bot's hand holds only Events (not built with no referee yet): the game stops there."""


def own(game_dir: Path, side: str) -> tuple[peer.Outcome, dict[str, Any]]:
    out = peer.outcome(game_dir)
    secrets = peer.read_hands(game_dir, peer.manifest(game_dir), HammerPeer(), side, out)
    return out, peer.own_facts(secrets, out, side)


def order(game_dir: Path, side: str) -> dict[str, Any]:
    out, mine = own(game_dir, side)
    public, rules = out.state, HammerPeer()
    facts = Facts(out.revealed, out.owners, mine)
    kind = rules.owes(public).get(side)
    if kind is None:
        return {}
    if kind == "card":
        hand = public["game"]["hands"][side]
        moves = [label for label in hand if not card(mine[label]).is_event]
        if not moves:
            raise OnlyEvents(f"{side} holds only Event cards, not played with no referee yet")
        return {"card": moves[0]}
    blocks = public["game"]["blocks"]
    enemy = {b["location"] for b in blocks.values() if b["owner"] != side and b["location"] not in PLACES}
    for name, b in sorted(blocks.items()):
        if b["owner"] != side or b["location"] in PLACES:
            continue
        for nxt in board().neighbours(b["location"]):
            if nxt not in enemy:
                continue
            attempt = {"moves": [{"from": b["location"], "parts": [{"blocks": [name], "path": [nxt]}]}]}
            try:
                rules.validate(public, side, attempt, facts)
            except PbemError:
                continue
            return attempt
    return {}
