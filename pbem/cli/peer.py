"""The peer mode (no referee) behind the existing verbs: each verb branches here on the manifest's format.

Nothing here changes the refereed path: ``game open --no-referee`` writes a peer manifest, and
``game join``, ``game receive``, ``orders seal``, ``status``, ``verify`` and ``audit`` call these
functions only for a folder whose ``game.toml`` is a peer game's (docs/protocol.md, Peer mode).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.cli.errors import say
from pbem.cli.lazy import lazy

if TYPE_CHECKING:  # the real modules for the type checker; loaded on first use, so a refereed verb that
    # only asks is_peer loads none of them (docs/architecture.md "Start-up")
    from pbem.cli import files
    from pbem.cli import key as key_files
    from pbem.core import identity, inputs
    from pbem.core import ruleset as rs
    from pbem.core.peer import folder as peer
    from pbem.core.peer import resigning, secrets_file
    from pbem.core.peer import rules as peer_rules
else:
    files = lazy("pbem.cli.files")
    key_files = lazy("pbem.cli.key")
    identity = lazy("pbem.core.identity")
    inputs = lazy("pbem.core.inputs")
    rs = lazy("pbem.core.ruleset")
    peer = lazy("pbem.core.peer.folder")
    resigning = lazy("pbem.core.peer.resigning")
    peer_rules = lazy("pbem.core.peer.rules")
    secrets_file = lazy("pbem.core.peer.secrets_file")


def is_peer(game_dir: Path) -> bool:
    from pbem.core.peer import is_peer as peer_game
    return peer_game(game_dir)


def open_game(game_dir: Path, ruleset: str, scenario: str, options: dict[str, Any], sides: dict[str, str],
              hours: int) -> None:
    pubs = {s: identity.load_public(Path(p)) for s, p in sorted(sides.items())}
    game_id = peer.open_game(game_dir, ruleset, scenario, options, pubs, hours)
    say(f"peer game {game_id} opened in {game_dir} with no referee; send {game_dir / 'game.toml'} to "
        f"{', '.join(sorted(pubs))}: each copies it into its own game folder and runs pbem game join")


def join(game_dir: Path, side: str, key: Path, passphrase_file: Path | None, out: Path) -> None:
    text = peer.write_join(game_dir, key_files.load_key(key, passphrase_file), side)
    files.write_output(out, text)
    say(f"join of {side} written to {out}; send it to every other side (pbem game receive)")


def resign(game_dir: Path, key: Path, passphrase_file: Path | None, out: Path) -> None:
    text = resigning.write_resign(game_dir, key_files.load_key(key, passphrase_file))
    files.write_output(out, text)
    say(f"resign written to {out}; send it to every other side, then seal your final (protocol §13.13)")


def receive(game_dir: Path, files: list[Path]) -> None:
    for f in files:
        data = inputs.read_input(f, peer.LIMIT, "a peer message")
        m, out = peer.take(game_dir, data, str(f))
        say(f"took the {m.phase} of {m.side} for step {m.step}")
        note = peer.fork_note(game_dir, m)
        if note:
            say(note)
    say(peer.describe(out, len(out.entries)))


def seal(game_dir: Path, draft: Path, key: Path, passphrase_file: Path | None, out: Path) -> None:
    """Write the message this side owes now: its start, its commitment (to the draft), its reveal, or a claim."""
    from pbem.core.peer.rules import hidden_rules
    man = peer.manifest(game_dir)
    me = key_files.load_key(key, passphrase_file)
    order: Any = None
    if inputs.is_file(draft):
        rules = rs.load(man.ruleset, man.options)
        text = inputs.read_text_input(draft, peer.LIMIT, "an orders draft")
        # a game with hidden facts may read its peer drafts itself (its orders name handles, §13.10)
        parse = getattr(hidden_rules(rules), "parse_order", None)
        order = parse(text, str(draft)) if parse else rs.player_of(rules).parse_draft(text, str(draft)).body()
    what, text = peer.write_owed(game_dir, me, order)
    files.write_output(out, text)
    say(f"wrote the {what} of {peer.side_of(man, me)} to {out}; send it to every other side (pbem game receive)")


def status(game_dir: Path) -> None:
    man = peer.manifest(game_dir)
    out = peer.outcome(game_dir)
    say(f"game {man.game} (protocol §13): {peer.describe(out, len(out.entries))}")
    rules = peer_rules.hidden_rules(rs.load(man.ruleset, man.options))
    for side, what in sorted(out.owes.items()):
        if what not in peer.ORDERED:  # nothing to choose: a reveal, an open, a deal pass, a final, a join or start
            verb = "pbem game join" if what == "join" else "pbem orders seal none"
            say(f"{side}: no draft; `{verb}` writes its {what}")
            continue
        hint = peer_rules.draft_hint(rules, out.state, side) if rules is not None else ""
        if hint:
            say(f"{side} drafts: {hint}")
    if rules is None:
        return
    for side in secrets_file.sides_here(game_dir, man.sides):
        lines = peer_rules.own_lines(rules, out.state, side, peer.own_of(game_dir, side, out))
        if lines:
            say(f"what {side} alone sees (its own facts, from this folder's private area; show them to nobody):")
            for line in lines:
                say(f"  {line}")


def verify(game_dir: Path) -> None:
    say("\n".join(peer.verify(game_dir)))


def audit(game_dir: Path) -> None:
    say("\n".join(peer.audit(game_dir)))
