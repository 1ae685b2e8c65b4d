"""A no-referee Bagpipes game on disk: one folder per seat, the public record in each, the seat's secrets apart.

Layout of a seat's folder (docs/bagpipes-peer.md §6): ``game.json`` (game, seats, options),
``messages/NNNNN.pbem`` (every message in the order the record took it, a sign-only envelope of its seat),
``ledger/NNNN.json`` (the computed entries) and ``.pbem/peer-SEAT/secrets.json`` (this seat's chain
secret, deal keys, salts and cards: never published). ``verify`` reads only the public files and
recomputes every entry; the demo writes every seat's folder and verifies each.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from pbem.bagpipes.engine import seat_ids
from pbem.bagpipes.peer import Message, PeerGame, Record, verify
from pbem.core import armor, envelope, identity, inputs
from pbem.core.atomic import write_atomic
from pbem.core.canonical import canonical_bytes
from pbem.core.errors import FormatError, PbemError
from pbem.core.identity import PublicIdentity
from pbem.core.lock import PRIVATE
from pbem.core.peer import handles

LIMIT = 1 << 22
OPENINGS = ("opening", "choice")      # the body fields that hold a handle's opening


def _body(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise FormatError(f"{where}: a message body is a JSON object (docs/bagpipes-peer.md §6).")
    out = dict(data)
    for k in OPENINGS:
        if k in out:
            o = out[k]
            if not (isinstance(o, dict) and set(o) == {"label", "salt", "value"}):
                raise FormatError(f"{where}: its {k} is not an opening (label, salt, value) (protocol §13.4).")
            out[k] = handles.Opening(str(o["label"]), str(o["salt"]), o["value"])
    return out


def save(rec: Record, folder: Path) -> None:
    """Write the public record into a seat's folder (atomic writes; the entries as computed)."""
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / "game.json", canonical_bytes({
        "format": "pbem-bagpipes-peer-v1", "game": rec.game, "seats": list(rec.seats), "options": rec.options,
        "keys": {s: k.to_dict() for s, k in sorted(rec.keys.items())}}))
    (folder / "messages").mkdir(exist_ok=True)
    for n, m in enumerate(rec.messages):
        write_atomic(folder / "messages" / f"{n:05d}.pbem", armor.armor(m.signed))
    (folder / "ledger").mkdir(exist_ok=True)
    for n, e in enumerate(rec.entries):
        write_atomic(folder / "ledger" / f"{n:04d}.json", canonical_bytes(e))


def save_secrets(game: PeerGame, seat: str, folder: Path) -> Path:
    """The seat's own secrets, in its private area only."""
    s = game.clients[seat].secrets
    path = folder / PRIVATE / f"peer-{seat}" / "secrets.json"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_atomic(path, canonical_bytes({
        "chain": s.chain.hex(), "known": s.known,
        "dealers": {d: {"shuffle_key": str(v.shuffle_key), "perm": v.perm, "lock_keys": [str(k) for k in v.lock_keys]}
                    for d, v in sorted(s.dealers.items())},
        "openings": {k: {"label": o.label, "salt": o.salt, "value": o.value} for k, o in sorted(s.openings.items())}}),
        mode=0o600)
    return path


def _json(path: Path, root: Path, what: str) -> Any:
    try:
        return json.loads(inputs.read_text_input(path, LIMIT, what, root=root))
    except (ValueError, RecursionError):
        raise FormatError(f"{path} is not JSON: {what} (docs/bagpipes-peer.md §6).") from None


def load(folder: Path) -> Record:
    """The public record of a seat's folder: the game, every message, every entry; one sentence on anything wrong."""
    head = _json(folder / "game.json", folder, "a no-referee Bagpipes game")
    if not isinstance(head, dict) or head.get("format") != "pbem-bagpipes-peer-v1":
        raise FormatError(f"{folder / 'game.json'} is not a no-referee Bagpipes game (docs/bagpipes-peer.md §6).")
    try:
        keys = {s: PublicIdentity.from_dict(head["keys"][s], f"{folder / 'game.json'} keys.{s}") for s in head["seats"]}
        rec = Record(str(head["game"]), tuple(head["seats"]), dict(head["options"]), keys)
    except (KeyError, TypeError, ValueError):
        raise FormatError(f"{folder / 'game.json'} is not a no-referee Bagpipes game "
                          "(docs/bagpipes-peer.md §6).") from None
    for name in ("messages", "ledger"):
        if not (folder / name).is_dir():
            raise FormatError(f"{folder / name} is missing (docs/bagpipes-peer.md §6).")
    for name, _ in sorted(inputs.list_folder(folder / "messages", "the messages folder")):
        where = str(folder / "messages" / name)
        raw = armor.dearmor(inputs.read_input(folder / "messages" / name, LIMIT, "a message", root=folder), where)
        env = envelope.parse(raw, where)
        try:
            d = json.loads(env.body.decode("utf-8"))
            rec.messages.append(Message(env.header.side, env.header.step, str(d["phase"]), _body(d["body"], where),
                                        raw))
        except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):
            raise FormatError(f"{where} is not a message (docs/bagpipes-peer.md §6).") from None
    for name, _ in sorted(inputs.list_folder(folder / "ledger", "the ledger folder")):
        rec.entries.append(_json(folder / "ledger" / name, folder, "a ledger entry"))
    return rec


def verify_folder(folder: Path) -> list[str]:
    return verify(load(folder))


def demo(folder: Path, players: int, seed: bytes) -> tuple[list[str], bool, bool, list[str]]:
    """A whole game between simple bots with no referee: one folder per seat, then verify (from each seat's
    files) and the final audit. Returns (lines, verified, audited, problems)."""
    from pbem.bagpipes.bots import BOTS
    from pbem.bagpipes.play import bot_rng
    folder = folder if folder else Path(tempfile.mkdtemp(prefix="pbem-bagpipes-peer-"))
    seats = seat_ids(players)
    g = PeerGame(folder.name or "bagpipes-peer", players, {s: BOTS["simple"] for s in seats},
                 keys={s: identity.generate(s) for s in seats})
    g.play(lambda s, k: bot_rng(seed, s, k))
    problems: list[str] = []
    verified = audited = False
    for seat in g.rec.seats:
        save(g.rec, folder / seat)
        save_secrets(g, seat, folder / seat)
    try:
        for seat in g.rec.seats:
            verify_folder(folder / seat)
        verified = True
    except PbemError as exc:
        problems.append(f"verify: {exc}")
    try:
        g.audit()
        audited = True
    except PbemError as exc:
        problems.append(f"audit: {exc}")
    last = g.rec.entries[-1]["public"]
    steps = len(g.rec.entries) - 1
    exchanges = len([m for m in g.rec.messages
                     if m.phase in ("commit", "reveal", "deliver") or m.phase.startswith("open")])
    lines = [f"Swords and Bagpipes with no referee, {players} players: {last['round']} round(s), "
             f"{last['defeats']} Scottish defeat(s).",
             f"winner(s): {', '.join(last['winners']) or 'nobody (a declared tie)'} - {last['end_reason']}",
             f"{steps} steps, {len(g.rec.messages)} messages ({exchanges} in play), one folder per seat in {folder}",
             f"verify: {'ok' if verified else 'FAILED'} (each seat's folder, no secret used); "
             f"audit: {'ok' if audited else 'FAILED'} (every deal key opened, the game replayed in full)"]
    return lines, verified, audited, problems
