"""Peer mode: games with no referee (docs/protocol.md, part "Peer mode: no referee").

One job per module: ``chain`` (joint randomness from hash chains), ``handles`` (commit-reveal
with the owner's random salts), ``deal`` (a mental deal from one deck, SRA over P-256),
``proofs`` (signed evidence that convicts a cheater), ``record`` (the peer record, computed by
every client and replayed by verify), ``rounds`` (what the records share), ``marks`` (where a
client's computation of its record resumes), ``looks`` (a client's look at its messages folder: only
what changed is read), ``secrets_file`` (a side's private area). The core imports no game.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import inputs
from pbem.core.errors import PbemError

MANIFEST_FORMAT = "pbem-peer-game-v1"


def is_peer(game_dir: Path) -> bool:
    """Whether the folder's ``game.toml`` is a peer game's; cheap, so the refereed verbs branch on it
    without loading the peer modules. Anything unreadable is left to the refereed path's own error."""
    path = Path(game_dir) / "game.toml"
    try:
        return inputs.is_file(path) and f'format = "{MANIFEST_FORMAT}"'.encode() in inputs.read_input(
            path, 1 << 20, "a game manifest")
    except (PbemError, OSError):
        return False
