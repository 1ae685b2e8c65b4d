"""What a peer game's shared repository may hold (docs/protocol.md §13.14): one rule, read by the player's
``pbem git sync`` and by the bare repository's pre-receive hook alike.

The repository holds ``game.toml`` (the manifest, public keys only) and ``messages/NNNN-PHASE-SIDE.pbem``, each
a peer message of this game signed by the key the manifest names for SIDE, its name the message's own slot
(step, phase, side). Nothing else: ``ledger/`` and ``proofs/`` are computed by every client from the messages,
``.pbem/`` is a player's private area, and a file once added never changes and is never deleted.
"""

from __future__ import annotations

import re

from pbem.core.errors import PbemError
from pbem.core.peer import message
from pbem.core.peer.message import Message
from pbem.core.peer.rounds import Manifest
from pbem.transport.git.pushcaps import Refused

MANIFEST = "game.toml"
MESSAGES = "messages"
SECTION = "protocol §13.14"
LIMIT = 1 << 20  # protocol §3: no envelope is bigger, and a manifest is far smaller
_SLOT = re.compile(r"^messages/\d{4,}-[a-z]+-[A-Za-z0-9_]+\.pbem$")
# The local-only ignore list a clone gets (it ignores itself, so it is never committed either).
GITIGNORE = f"""\
# pbem peer game ({SECTION}): computed or private, never committed
ledger/
proofs/
.pbem/
*.tmp
.gitignore
"""
# Signed files are kept byte for byte (no line-ending rewrite), in the clone's own .git/info/attributes.
ATTRIBUTES = "* -text\n"


def is_slot(path: str) -> bool:
    """Whether ``path`` is named as a message's own slot (an equivocation's evidence file is not, §13.1)."""
    return bool(_SLOT.match(path))


def refuse_other(path: str) -> None:
    """Refuse, in one sentence, a path that is neither the manifest nor a message slot."""
    if path.startswith(".pbem/") or "/.pbem/" in path or path == ".pbem":
        raise Refused(f"{path} is in a player's private area (.pbem/), which never enters the repository "
                      f"({SECTION}).")
    top = path.split("/", 1)[0]
    if top in ("ledger", "proofs"):
        raise Refused(f"{path} is computed by every player from the messages and is never committed ({SECTION}).")
    if path != MANIFEST and not _SLOT.match(path):
        raise Refused(f"{path} is neither game.toml nor a message messages/NNNN-PHASE-SIDE.pbem; a peer game's "
                      f"repository holds nothing else ({SECTION}).")


def check_message(man: Manifest, path: str, data: bytes, where: str) -> Message:
    """The peer reader on a file the repository would hold at ``path``: a message of this game, signed by its
    side's key (protocol §13.2), whose file name is its own slot."""
    refuse_other(path)
    if len(data) > LIMIT:
        raise Refused(f"{where} holds {len(data)} bytes, over the {LIMIT} a peer message may hold (protocol §3).")
    try:
        m = message.read(data, where, man.game, man.keys)
    except PbemError as exc:  # its sentence names the file and the section (protocol §13.2)
        raise Refused(str(exc)) from None
    if f"{MESSAGES}/{m.slot}" != path:
        raise Refused(f"{where} holds the {m.phase} of {m.side} for step {m.step}, whose file is "
                      f"{MESSAGES}/{m.slot}, not {path} ({SECTION}).")
    return m
