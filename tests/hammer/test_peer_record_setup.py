"""Hammer's set-up with no referee through the peer record (docs/protocol.md §13.10, §13.11): both sides
join and start with a handle per hidden block, the year's 25 cards are dealt by the mental deal, and entry
0 holds the public set-up (handles, the levy as handles) identical in both folders; each side reads its
five cards and nothing of the other's. Game turns are not built yet, and say so in one sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.core import identity
from pbem.core import ruleset as rs
from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.demo import joined
from pbem.hammer.peer import HammerPeer
from pbem.hammer.ruleset import HammerRuleset


class HammerSetupOnly(HammerRuleset):
    """Hammer with the set-up half of the hidden-fact seam (not offered by HammerRuleset until turns are built)."""

    def peer(self) -> HammerPeer:
        return HammerPeer()


rs.register("hammer-setup", HammerSetupOnly)
SIDES = ("england", "scotland")


def _secrets(folder: Path, side: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / ".pbem" / f"peer-{side}" / "secrets.json").read_text())
    return data


def test_protocol_13_10_hammers_set_up_and_deal_with_no_referee(tmp_path: Path) -> None:
    keys = {s: identity.generate(s) for s in SIDES}
    dirs, send = joined({s: tmp_path / s / "bh" for s in SIDES}, keys, "hammer-setup", "braveheart", {}, length=16,
                        clock=1)
    while not peer.outcome(dirs["england"]).entries:
        for s in sorted(peer.outcome(dirs["england"]).owes):
            send(s, peer.write_owed(dirs[s], keys[s], None, 1)[1])
    ledgers = [(dirs[s] / "ledger" / "0000.json").read_bytes() for s in SIDES]
    assert ledgers[0] == ledgers[1]
    setup = json.loads(ledgers[0])
    state = setup["state"]
    game = state["game"]  # the engine's game keyed by handle, hidden strengths 0 (docs/hammer-peer.md)
    assert len(state["levy"]) == 4 and all(game["blocks"][h] == {"owner": "england", "location": "England",
                                                                 "strength": 0} for h in state["levy"])
    assert game["hands"] == setup["dealt"] and [len(h) for h in game["hands"].values()] == [5, 5]
    with pytest.raises(PbemError, match="England|owes"):  # each side reads its hand at its first message
        peer.write_owed(dirs["england"], keys["england"], None, 1)
    hands = {}
    for s in SIDES:
        with pytest.raises(PbemError, match="play one of the card labels in its hand"):
            peer.write_owed(dirs[s], keys[s], {"card": "x"}, 1)
        data = _secrets(dirs[s], s)
        hands[s] = sorted(data["openings"][label]["value"] for labels in data["hands"].values() for label in labels)
    assert len(set(hands["england"]) | set(hands["scotland"])) == 10
    public = b"".join(p.read_bytes() for p in sorted((dirs["scotland"] / "messages").iterdir())) + ledgers[0]
    for label, o in _secrets(dirs["england"], "england")["openings"].items():
        if label.startswith("hidden."):  # England's blocks (names like "Mar" are also areas: look for the fact)
            assert f'"{label}":"{o["value"]}"'.encode() not in public
    # a card's id as a value (a state's key, such as the turn's "truce", is no card)
    assert not any(public.count(f'"{card}"'.encode()) > public.count(f'"{card}":'.encode())
                   for card in hands["england"])
