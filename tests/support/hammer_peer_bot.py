"""The Hammer peer bot (pbem/hammer/play/peer_bot.py) reading its own folder, for the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.peer import folder as peer
from pbem.core.peer.rounds import Outcome
from pbem.core.peer.rules import Facts
from pbem.hammer.peer import HammerPeer
from pbem.hammer.play.peer_bot import bot_order


def own(game_dir: Path, side: str) -> tuple[Outcome, dict[str, Any]]:
    return peer.outcome(game_dir), peer.own_of(game_dir, side)


def order(game_dir: Path, side: str) -> dict[str, Any]:
    out, mine = own(game_dir, side)
    return bot_order(HammerPeer(), out.state, side, Facts(out.revealed, out.owners, mine))
