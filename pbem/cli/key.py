"""``pbem key new`` and ``pbem key show``: identities (docs/protocol.md §5).

Thin: pbem.core.identity does the work; pbem.cli.errors turns every failure into one
``error:`` line and exit code 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import read_text
from pbem.cli.lazy import lazy
from pbem.core.errors import FormatError

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import identity
else:
    identity = lazy("pbem.core.identity")  # cryptography: only for the verbs that use keys

key_app = typer.Typer(no_args_is_help=True, help="Identities: make a key pair, show a fingerprint.")


def read_passphrase(path: Path | None) -> bytes | None:
    """The first line of a passphrase file, without its line end."""
    if path is None:
        return None
    text = read_text(Path(path), "a passphrase file").splitlines()
    if not text or not text[0]:
        raise FormatError(f"{path}: the passphrase file is empty.")
    return text[0].encode("utf-8")


def load_key(key: Path, passphrase_file: Path | None) -> identity.PrivateIdentity:
    """A private identity from ``--key``, unlocked with ``--passphrase-file`` when it is protected."""
    return identity.load_private(key, read_passphrase(passphrase_file))


@key_app.command("new")
@fails_cleanly
def new(
    name: Annotated[str, typer.Argument(help="Your name or the side's name; the files are NAME.key and "
                                             "NAME.pub.toml.")],
    dir: Annotated[Path, typer.Option("--dir", help="Folder to write the two files in.")] = Path("."),
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file",
                                                         help="Protect the private key with the passphrase on "
                                                              "this file's first line.")] = None,
) -> None:
    """Make a new identity: a private key file and a public identity to send to the referee."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise FormatError(f"name {name!r} cannot be a file name.")
    if dir.exists() and not dir.is_dir():
        raise FormatError(f"--dir {dir} is a file, not a folder.")
    priv_path, pub_path = dir / f"{name}.key", dir / f"{name}.pub.toml"
    for p in (priv_path, pub_path):
        if p.exists():
            raise FormatError(f"{p} already exists; pbem never overwrites a key.", hint="choose another name or folder")
    ident = identity.generate(name)
    identity.save_private(ident, priv_path, read_passphrase(passphrase_file))
    identity.save_public(ident, pub_path)
    say(f"{priv_path}: private key (keep it secret)")
    say(f"{pub_path}: public identity (send it to the other people in the game: a player sends it to the "
        "referee, the referee sends its own to the players)")
    say(f"fingerprint: {ident.fingerprint}")


@key_app.command("show")
@fails_cleanly
def show(file: Annotated[Path, typer.Argument(help="A .key or .pub.toml file.")]) -> None:
    """Name and fingerprint, to read aloud to the other players."""
    name, fingerprint = identity.describe(file)
    say(f"{name}: {fingerprint}")
