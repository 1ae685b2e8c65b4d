"""Write the peer-mode vectors ``peer.json`` beside this script (docs/protocol.md, Peer mode, vectors).

Run from the repository root: ``python tests/core/vectors/generate_peer.py``. Every input is fixed
(chain secrets, salts, deal keys and permutations), so the file is the same on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.canonical import canonical_bytes
from pbem.core.peer import chain, deal, handles

HERE = Path(__file__).parent
GAME = "vector-game"
SIDES = ("north", "south")
CARDS = ("c0", "c1", "c2", "c3")
LENGTH = 4


def vectors() -> dict[str, Any]:
    secrets = {s: bytes([i + 1]) * 32 for i, s in enumerate(SIDES)}
    chains = {s: [chain.link_at(secrets[s], LENGTH, u).hex() for u in range(LENGTH + 1)] for s in SIDES}
    links = [(s, bytes.fromhex(chains[s][1])) for s in SIDES]
    rng = chain.stream(GAME, 0, links)
    salt = bytes([0x33]) * 32
    value = {"side": "north", "step": 0, "throw": "rock"}
    shuffle_keys = [5, 7]
    perms = [[2, 0, 3, 1], [3, 1, 0, 2]]
    position_keys = [[11, 13, 17, 19], [23, 29, 31, 37]]
    current = deal.deck(GAME, CARDS)
    shuffles, locks = [], []
    for i in range(len(SIDES)):
        current = deal.shuffle_pass(current, shuffle_keys[i], perms[i])
        shuffles.append([x.hex() for x in current])
    for i in range(len(SIDES)):
        current = deal.lock_pass(current, shuffle_keys[i], position_keys[i])
        locks.append([x.hex() for x in current])
    dealt = [deal.card_of(deal.unlock(current[j], [position_keys[i][j] for i in range(len(SIDES))]), GAME, CARDS)
             for j in range(len(CARDS))]
    return {
        "chain": {"secrets": {s: secrets[s].hex() for s in SIDES}, "length": LENGTH, "links": chains},
        "seed": {"game": GAME, "entry": 0, "links": [[s, link.hex()] for s, link in links],
                 "seed": chain.seed(GAME, 0, links).hex(), "d6": [rng.d6() for _ in range(8)]},
        "commit": {"label": "order.1", "salt": salt.hex(), "value": value,
                   "commitment": handles.handle("order.1", salt, value)},
        "deal": {"game": GAME, "cards": list(CARDS), "points": [x.hex() for x in deal.deck(GAME, CARDS)],
                 "sides": list(SIDES), "shuffle_keys": shuffle_keys, "permutations": perms,
                 "position_keys": position_keys, "shuffles": shuffles, "locks": locks, "dealt": dealt},
    }


if __name__ == "__main__":
    (HERE / "peer.json").write_bytes(canonical_bytes(vectors()) + b"\n")
