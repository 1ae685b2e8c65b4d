"""A test bot for Hammer with no referee: from its own folder only (the public entry and its own facts), it
plays the first Move card of its hand (an Event, passed, when it holds no other) and attacks with the first
block that may legally enter an area holding the enemy, as Player 1 with ``if_player1`` (tests only)."""

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
            return {"card": hand[0], "event": {"pass": True}}
        attack = _attack(public, side, facts, {"card": moves[0], "if_player1": {}}, "if_player1")
        return {"card": moves[0], **({"if_player1": attack} if attack else {})}
    return _attack(public, side, facts, {}, "")


def _attack(public: dict[str, Any], side: str, facts: Facts, base: dict[str, Any], key: str) -> dict[str, Any]:
    """The first single-block attack on an enemy area next to it that the rules accept (or {})."""
    rules = HammerPeer()
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
                rules.validate(public, side, {**base, key: attempt} if key else attempt, facts)
            except PbemError:
                continue
            return attempt
    return {}
