"""What lives where in a game repository (docs/git.md "Layout"), and what must never enter it.

::

    game.toml, ledger/, orders/, reports/, state/, joins/   the public record (docs/protocol.md §7),
    components.toml         with the game's component file when it has one (protocol §10.3)
    inbox/NNNN-SIDE.pbem    SIDE's sealed order for step NNNN, pushed by the player
    receipts/NNNN-SIDE-SEQ.pbem the referee's receipts for it (SEQ counts the side's orders for the step)
    .gitignore, .gitattributes

Private keys, passphrases and the referee's private area (``.pbem/``) never enter it: the
``.gitignore`` keeps them out of ``git add``, and ``find_private_key`` is the check that refuses
a commit or a push that carries one anyway.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pbem.core import inputs
from pbem.core.records import record

INBOX = "inbox"
RECEIPTS = "receipts"
RECORD = ("game.toml", "components.toml", "ledger", "orders", "reports", "state", "joins")  # components: §10.3
_INBOX_NAME = re.compile(r"^inbox/(\d{4,})-([a-z][a-z0-9_]*)\.pbem$")
# Any spelling a person might take for an inbox name (other zero-padding, upper case): named back in canonical form.
_INBOX_LIKE = re.compile(r"^inbox/(\d+)-([a-z][a-z0-9_]*)\.pbem$", re.I)

GITIGNORE = """\
# pbem: secrets never enter a game repository (docs/git.md "Trust and secrets")
*.key
*.pass
*passphrase*
.pbem/
*.tmp
.venv/
"""
# Every file byte for byte: a clone with core.autocrlf=true must not rewrite signed files.
GITATTRIBUTES = """\
# pbem: signed and sealed files are kept byte for byte on every platform (docs/git.md)
* -text
"""
MAX_ORDER = 1 << 20  # protocol §3: no envelope is bigger
MAX_SCANNED = 64 << 20  # a file the referee commits is scanned whole for a private key; a bigger one is refused


@record
class InboxName:
    step: int
    side: str

    @property
    def path(self) -> str:
        return inbox_path(self.step, self.side)


def inbox_path(step: int, side: str) -> str:
    """The repository path of SIDE's order for STEP (always with ``/``)."""
    return f"{INBOX}/{step:04d}-{side}.pbem"


def receipt_path(step: int, side: str, seq: int) -> str:
    """The repository path of a receipt: the name the referee keeps it under in its private area."""
    return f"{RECEIPTS}/{step:04d}-{side}-{seq:03d}.pbem"


def receipts_of(root: Path, step: int, side: str) -> list[str]:
    """The receipts for SIDE's orders at STEP in a checkout, by seq."""
    return [f"{RECEIPTS}/{p.name}" for p in sorted((Path(root) / RECEIPTS).glob(f"{step:04d}-{side}-*.pbem"))]


def parse_inbox(path: str) -> InboxName | None:
    """Step and side of an inbox path in its one canonical form (``inbox_path``), or None when ``path`` is not one.

    One spelling per order: ``inbox/00000-england.pbem`` or ``inbox/4-England.pbem`` would be a
    second file for a step and side the referee already names (docs/git.md "What a push may change").
    """
    m = _INBOX_NAME.match(path)
    if not m:
        return None
    name = InboxName(int(m.group(1)), m.group(2))
    return name if name.path == path else None


def inbox_name_problem(path: str) -> str:
    """Why ``path`` is not an inbox name, in words naming the canonical name when there is one ("" when it is)."""
    if parse_inbox(path):
        return ""
    m = _INBOX_LIKE.match(path)
    if m:
        return (f"{path} is not how the referee names that order: an inbox name is written one way only, "
                f"{inbox_path(int(m.group(1)), m.group(2).lower())} (the step zero-padded to 4 digits, the side in "
                "lower case)")
    return f"{path} is not an inbox name (inbox/NNNN-SIDE.pbem: the step zero-padded to 4 digits, the side in " \
        "lower case)"


def in_record(path: str) -> bool:
    """Is ``path`` part of the signed public record (append-only: nobody but the referee adds to it)?"""
    top = path.split("/", 1)[0]
    return top in RECORD


# A private key file (protocol §5.1) names its format and holds its secrets in the clear or sealed.
_KEY_FORMAT = re.compile(rb"""format\s*=\s*["']pbem-identity-v\d+["']""")
_KEY_SECRET = re.compile(rb"""^\s*(sign_secret|encrypt_secret)\s*=|^\s*\[protected\]""", re.M)
_PEM_KEY = re.compile(rb"-----BEGIN ([A-Z ]+ )?PRIVATE KEY-----")


def find_private_key(data: bytes) -> bool:
    """Does ``data`` hold a private key (a pbem key file, or any PEM private key)?"""
    return bool((_KEY_FORMAT.search(data) and _KEY_SECRET.search(data)) or _PEM_KEY.search(data))


def write_repo_files(root: Path) -> list[str]:
    """Write .gitignore and .gitattributes in a game folder, adding our lines to any already there."""
    written = []
    for name, text in ((".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)):
        path = Path(root) / name
        old = inputs.read_text_input(path, inputs.MAX_FILE, f"a {name} file") if os.path.lexists(path) else ""
        have = set(old.splitlines())
        missing = [line for line in text.splitlines() if line not in have or line.startswith("#")]
        if any(not line.startswith("#") for line in missing):
            path.write_text(old + ("" if not old or old.endswith("\n") else "\n") + "\n".join(missing) + "\n",
                            encoding="utf-8")
            written.append(name)
    return written
