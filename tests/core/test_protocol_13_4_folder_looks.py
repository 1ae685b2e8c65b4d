"""A client's look at its messages folder reads only the files new or replaced since its last look
(pbem/core/peer/looks.py: one listing, kept by name and inode, no stat per file); yet every file added,
removed or replaced since the last look is in the next one (docs/protocol.md §13.1, §13.4)."""

from __future__ import annotations

from pathlib import Path

from test_protocol_13_10_hidden_facts import SIDES, Duel, order

from pbem.core.atomic import write_atomic
from pbem.core.peer import folder as peer
from pbem.core.peer import message


def _look(game_dir: Path) -> dict[str, str]:
    man = peer.manifest(game_dir)
    return {m.slot: m.hash for m in peer.messages(game_dir, man)}


def test_protocol_13_4_a_folder_look_sees_every_message_file_added_or_removed_since_the_last_one(
        tmp_path: Path) -> None:
    """North's folder is looked at, then changed by hand between looks (as a player's mail tool or a second
    program would): a message written in, that message removed, and a message replaced by another signed one
    for the same slot (a rename, as every write is); each look holds exactly the files there."""
    d = Duel(tmp_path)
    d.start()
    state = d.state()
    d.round({s: order(s, state["field"][s][0]) for s in SIDES})
    north = d.dirs["north"]
    man = peer.manifest(north)
    before = _look(north)
    assert _look(north) == before  # a look with nothing changed holds the same files
    prev = peer.entry_hash(peer.outcome(north).entries[-1])
    claim = message.write(d.keys["south"], man.game, "south", 2, prev, "claim", d.clock, {"against": ["north"]})
    added = north / "messages" / "0002-claim-south.pbem"
    write_atomic(added, claim)
    seen = _look(north)
    assert seen == {**before, "0002-claim-south.pbem": message.read(claim, "", man.game, man.keys).hash}
    added.unlink()
    assert _look(north) == before
    replaced = north / "messages" / "0001-commit-north.pbem"
    other = message.write(d.keys["north"], man.game, "north", 1, peer.entry_hash(peer.outcome(north).entries[0]),
                          "commit", d.clock + 7, {"commitment": "%064x" % 7})
    write_atomic(replaced, other)
    seen = _look(north)
    assert seen["0001-commit-north.pbem"] == message.read(other, "", man.game, man.keys).hash
    assert seen["0001-commit-north.pbem"] != before["0001-commit-north.pbem"]
    assert {k: v for k, v in seen.items() if k != "0001-commit-north.pbem"} == \
        {k: v for k, v in before.items() if k != "0001-commit-north.pbem"}
    out = peer.outcome(north)  # the reveals answer the commit that was there: they wait, the round is open again
    assert (len(out.entries), out.owes) == (1, {"north": "reveal", "south": "reveal"})
