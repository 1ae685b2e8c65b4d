"""``pbem verify``, ``pbem audit`` and ``pbem game reveal`` (docs/protocol.md §7, §9).

``verify`` needs only the public files; ``audit`` needs them and the reveal bundle. ``reveal``
joins the ``game`` group (pbem.cli.game) because only the referee runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import write_output
from pbem.cli.key import load_key
from pbem.cli.lazy import lazy
from pbem.cli.status import GameDir
from pbem.core.errors import FormatError, PbemError

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import audit as audit_mod
    from pbem.core import game as core_game
    from pbem.core import ledger, receipts
else:
    audit_mod = lazy("pbem.core.audit")
    core_game = lazy("pbem.core.game")
    ledger = lazy("pbem.core.ledger")
    receipts = lazy("pbem.core.receipts")


@fails_cleanly
def verify(game_dir: GameDir) -> None:
    """Check the whole public record: signatures, chain, dice reveals, orders consumed, reports; and this
    folder's record of first sights: no entry reached it with its deadline already past (protocol §8.3)."""
    from pbem.cli import peer as peer_cli
    if peer_cli.is_peer(game_dir):
        peer_cli.verify(game_dir)
        return
    from pbem.core import seen
    record = ledger.verify_record(game_dir)
    lines = list(record.summary["lines"])
    lines[-1:-1] = seen.check(game_dir, record.entries, ledger.CLOCK_SLACK)  # the verdict stays the last line
    say("\n".join(lines))


@fails_cleanly
def audit(
    game_dir: GameDir,
    reveal: Annotated[Path | None, typer.Option("--reveal", help="The reveal bundle published by the referee "
                                                "(default: GAME/.pbem/reveal.json, kept by pbem inbox; none for a "
                                                "peer game).")] = None,
    receipt: Annotated[list[Path] | None, typer.Option("--receipt", help="A receipt the referee gave you for an "
                                                       "order (repeat for each); the ledger must honour it.")] = None,
    key: Annotated[list[Path] | None, typer.Option("--key", help="Your private key, to open receipts sealed to "
                                                   "your side (a git game's receipts/; repeatable).")] = None,
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file", help="The passphrase of a protected "
                                                         "--key.")] = None,
    no_kept: Annotated[bool, typer.Option("--no-kept-receipts", help="Hold the ledger only to the --receipt files "
                                          "given, not to those kept in GAME/.pbem/receipts/.")] = False,
) -> None:
    """Replay the game from the reveal bundle and check every entry, commitment, die and report.

    The receipts kept in GAME/.pbem/receipts/ (filed there by pbem inbox and pbem mail import, or the
    referee's own copies) and any ``--receipt`` given are held to the ledger: no receipted in-time
    order was defaulted or replaced by an older one (protocol §9.2).
    """
    from pbem.cli import peer as peer_cli
    if peer_cli.is_peer(game_dir):
        peer_cli.audit(game_dir)
        return
    kept_reveal = game_dir / ".pbem" / "reveal.json"  # where pbem inbox keeps the last step's reveal bundle
    if reveal is None and kept_reveal.is_file():
        reveal = kept_reveal
    if reveal is None:
        raise FormatError("audit needs --reveal BUNDLE, the reveal bundle the referee published (protocol §9); "
                          "pbem inbox keeps the one the last step's mail carries in GAME/.pbem/reveal.json.")
    keys = [load_key(k, passphrase_file) for k in key or []]
    man = ledger.read_manifest(game_dir) if receipt else None
    held = [(str(p), receipts.unseal(core_game.read_input(p), man, keys, str(p)) if man else b"")
            for p in receipt or []]
    kept = [] if no_kept else [f for f in receipts.filed(game_dir) if f[1] not in {raw for _, raw in held}]
    summary = audit_mod.audit(game_dir, audit_mod.read_reveal(reveal), receipt_files=held + kept)
    say("\n".join(summary["lines"]))


@fails_cleanly
def reveal(
    game_dir: GameDir,
    out: Annotated[Path, typer.Option("--out", help="Where to write the reveal bundle (JSON).")],
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY",
                                      help="The referee's private key file.")] = Path("referee.key"),
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file",
                                                         help="The key's passphrase file.")] = None,
    mid_game: Annotated[bool, typer.Option("--mid-game", help="Reveal a game that is not over (a dispute, "
                                           "an abandoned game): every hidden fact and all future dice.")] = False,
) -> None:
    """Write the reveal bundle: dice secret, state secret, every order's key and contents."""
    bundle = audit_mod.make_reveal(game_dir, load_key(key, passphrase_file))
    owes = core_game.status(game_dir)["owes"]
    if owes and not mid_game:
        owed = ", ".join(f"{s} owes {k}" for s, k in sorted(owes.items()))
        raise PbemError(f"game {bundle['game']} is not over ({owed}):"
                        " a reveal now would give away every hidden block, card and future die (protocol §9).",
                        hint="reveal when the game has ended, or add --mid-game to settle a dispute or close an "
                             "abandoned game")
    write_output(out, audit_mod.dump_reveal(bundle))
    say(f"reveal bundle for game {bundle['game']} written to {out}")
