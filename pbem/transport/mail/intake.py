"""A player's side of the mail: take in whatever arrived from the referee or the judge (docs/playing.md,
"Your mailbox: pbem inbox").

What arrived may be a saved mail (.eml), a mailbox file (mbox), a maildir, or a folder of saved
attachments; in it are files bundles (the record's changes, pbem.transport.mail.bundle) and
envelopes, of which a player keeps the receipts. Everything is read through the one hardened
reader (pbem.core.inputs) and checked before anything is written: a bundle or a receipt of
another game, one that does not verify against the copy, one replayed from another history is
refused in one sentence and nothing changes (``take_in``: the bundles are applied and verified,
then the receipts filed; a receipt refused puts the bundles' new files back).
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core import armor, inputs, receipts
from pbem.core import envelope as env_mod
from pbem.core import ledger as led
from pbem.core.errors import FormatError, PbemError, SignatureError
from pbem.core.identity import PublicIdentity
from pbem.transport.mail import bundle, inbound

MAX_MAIL = bundle.MAX_SAVED
REVEAL_SUFFIX = "-reveal.json"  # the reveal bundle's attachment (protocol §9): GAME-reveal.json
REVEAL_MARK = b'"format":"pbem-reveal-'  # a reveal bundle is canonical JSON: its format near the start
REVEAL_NAME = "reveal.json"  # kept in the copy's private area, where pbem audit finds it
MAX_FILES = 10_000  # in one folder or mailbox
_MBOX_SPLIT = re.compile(rb"(?m)^From [^\r\n]*\r?\n")


@dataclass
class Arrived:
    """What the given paths hold: files bundles and envelopes, each with where it was found; ``skipped``
    counts mails of a mailbox that carry nothing for pbem (other mail in the same box)."""

    bundles: list[tuple[str, bytes]] = field(default_factory=list)
    envelopes: list[tuple[str, bytes]] = field(default_factory=list)
    reveals: list[tuple[str, bytes]] = field(default_factory=list)  # the last step's reveal bundle (protocol §9)
    skipped: int = 0


def read(paths: list[Path]) -> Arrived:
    """Everything pbem can use in ``paths``; a file or mail given by name that holds nothing is refused."""
    got = Arrived()
    for path in paths:
        if Path(path).is_dir():
            _folder(Path(path), got)
        else:
            before = len(got.bundles) + len(got.envelopes) + len(got.reveals)
            _file(Path(path), inputs.read_input(path, MAX_MAIL, "a mail, a mailbox or a file the referee sent"),
                  got, alone=True)
            if len(got.bundles) + len(got.envelopes) + len(got.reveals) == before:
                raise FormatError(f"{path} holds nothing for pbem: no files bundle (GAME-NNNN{bundle.SUFFIX}) and "
                                  "no pbem envelope (a receipt); nothing was taken in (docs/playing.md).")
    return got


def _folder(folder: Path, got: Arrived) -> None:
    """A maildir (its ``cur`` and ``new``) or a folder of saved attachments: each regular file in it."""
    subs = [folder / s for s in ("cur", "new") if (folder / s).is_dir()]
    names = [(sub, n) for sub in (subs or [folder]) for n, regular in inputs.list_folder(sub, "a mail folder")
             if regular and not n.startswith(".")]
    if len(names) > MAX_FILES:
        raise FormatError(f"{folder} holds {len(names)} files, over the {MAX_FILES} pbem reads at once; take them "
                          "in a part at a time.")
    for sub, name in sorted(names):
        path = sub / name
        _file(path, inputs.read_input(path, MAX_MAIL, "a mail or a file the referee sent"), got, alone=False)


def _file(path: Path, data: bytes, got: Arrived, alone: bool) -> None:
    """One file: a bundle, an envelope, a mailbox of mails or one mail."""
    head = data.lstrip()[:64]
    if head.startswith(b"{"):
        if REVEAL_MARK in data[:4096]:
            got.reveals.append((str(path), data))
            return
        try:
            bundle.load(data, str(path))
        except FormatError:
            if alone:
                raise
            got.skipped += 1  # another JSON file beside the attachments: not for the copy
            return
        got.bundles.append((str(path), data))
    elif armor.is_armored(data) or data.startswith(inbound.MAGIC):
        got.envelopes.append((str(path), data))
    elif data.startswith(b"From "):
        mails = [m for m in _MBOX_SPLIT.split(data) if m.strip()]
        for n, mail in enumerate(mails[:MAX_FILES], 1):
            _mail(f"{path}: mail {n}", mail, got)
    elif not _mail(str(path), data, got) and not alone:
        got.skipped += 1


def _mail(where: str, data: bytes, got: Arrived) -> bool:
    """The bundles and envelopes one mail carries (attached or pasted); False when it carries none."""
    found = False
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        for part in msg.walk():
            name = part.get_filename() or ""
            if name.endswith((bundle.SUFFIX, REVEAL_SUFFIX)):
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    (got.bundles if name.endswith(bundle.SUFFIX) else got.reveals).append((f"{where}: {name}", payload))
                    found = True
    except Exception:  # noqa: BLE001 (broken MIME: said below, in one sentence)
        raise FormatError(f"{where} cannot be read as a mail: a part of it is broken MIME.") from None
    parsed = inbound.parse(data, "", MAX_MAIL, automatic_too=True)
    for n, block in enumerate(parsed.blocks, 1):
        got.envelopes.append((f"{where}: envelope {n}", block))
        found = True
    return found


@dataclass(frozen=True)
class TakenIn:
    """What ``take_in`` did: the game, the new record files, the receipts filed (new) and already kept,
    and the envelopes it left alone (reports and orders travel in bundles; a player keeps receipts)."""

    game: str
    entries: int  # ledger entries of the copy as verified after the bundles (0: no bundle)
    new_files: tuple[str, ...]
    filed: tuple[Path, ...]
    known: tuple[Path, ...]
    ignored: tuple[str, ...]
    reveal: Path | None = None  # the reveal bundle kept for pbem audit (the game is over)


def game_of(got: Arrived) -> str:
    """The one game the bundles and receipts name ("" when none); two games in one intake are refused."""
    games: dict[str, str] = {}
    for where, data in got.bundles:
        games.setdefault(bundle.load(data, where)[0], where)
    for where, raw in got.envelopes:
        games.setdefault(env_mod.read(raw, where).header.game, where)
    if len(games) > 1:
        (a, wa), (b, wb) = sorted(games.items())[:2]
        raise FormatError(f"{wa} is for game {a} but {wb} is for game {b}: take in one game at a time; nothing "
                          "was taken in.")
    return next(iter(games), "")


def take_in(got: Arrived, game_dir: Path, me: PublicIdentity | None = None) -> TakenIn:
    """Apply the bundles to the copy in ``game_dir`` (verified, all or nothing), then file the receipts.
    With ``me`` (the player's identity) the game must be one ``me`` plays, and only its side's receipts
    are taken. A refusal changes nothing."""
    game = game_of(got)
    imported = bundle.apply_data(got.bundles, game_dir, got.bundles[0][0]) if got.bundles else None
    try:
        side = side_of(game_dir, me) if me is not None else None
        filed, known, ignored = _file_receipts(got, game_dir, side)
        kept_reveal = _keep_reveal(got, game_dir)
    except (PbemError, OSError):
        if imported is not None:
            bundle.undo(game_dir, imported.new)
        raise
    return TakenIn(game, imported.entries if imported else 0, imported.new if imported else (), tuple(filed),
                   tuple(known), tuple(ignored), kept_reveal)


def side_of(game_dir: Path, me: PublicIdentity) -> str:
    """The side ``me`` plays in the copy's game; refused in one sentence when it plays none."""
    if not (game_dir / "game.toml").is_file():
        raise FormatError(f"{game_dir} holds no game (no game.toml): take in the referee's files first.")
    man = led.read_manifest(game_dir)
    side = next((s for s in man.sides if man.identities[s] == me), None)
    if side is None:
        raise SignatureError(f"your key plays no side of game {man.game} ({game_dir}): this mail is not for you, "
                             "or you gave another game's key; nothing was taken in (protocol §7.1).")
    return side


def _keep_reveal(got: Arrived, game_dir: Path) -> Path | None:
    """The reveal bundle of the last step's mail, kept in the copy's private area where ``pbem audit``
    finds it (the audit checks it whole; here: canonical JSON of this game). One already kept that
    differs is never replaced: two reveals of one game are the referee's word against itself."""
    if not got.reveals:
        return None
    from pbem.core.atomic import write_atomic
    from pbem.core.canonical import canonical_loads

    man = led.read_manifest(game_dir)
    target = led.private_dir(game_dir) / REVEAL_NAME
    for where, data in got.reveals:
        try:
            doc = canonical_loads(data)
        except FormatError:
            doc = None
        if not isinstance(doc, dict) or doc.get("game") != man.game:
            raise FormatError(f"{where} is not the reveal bundle of game {man.game} (protocol §9); nothing was "
                              "taken in.")
        if target.exists():
            if inputs.read_input(target, MAX_MAIL, "a reveal bundle", root=game_dir) != data:
                raise FormatError(f"{where} differs from the reveal bundle already kept in {target}: keep both, "
                                  "they are the referee's word against itself; nothing was taken in (protocol §9).")
            continue
        write_atomic(target, data)
    return target


def _file_receipts(got: Arrived, game_dir: Path, side: str | None) -> tuple[list[Path], list[Path], list[str]]:
    receipts_in: list[tuple[str, bytes]] = []
    ignored: list[str] = []
    for where, raw in got.envelopes:
        h = env_mod.read(raw, where).header
        if h.kind == "report":  # the report travels in the bundle too, which imported it checked
            continue
        if h.kind != receipts.KIND:
            ignored.append(f"{where} ({h.kind} of {h.side or 'the referee'}, step {h.step})")
            continue
        if side is not None and h.side != side:
            raise FormatError(f"{where} is {h.side}'s receipt, but your key is {side}'s: a player keeps its own "
                              "receipts; nothing was taken in (protocol §9.2).")
        receipts_in.append((where, raw))
    if not receipts_in:
        return [], [], ignored
    if not (game_dir / "game.toml").is_file():
        raise FormatError(f"{receipts_in[0][0]} is a receipt, but {game_dir} holds no game to keep it in; take in "
                          "the referee's files first (protocol §9.2).")
    man = led.read_manifest(game_dir)
    checked = []
    for where, raw in receipts_in:  # all checked before one is written
        r = receipts.parse(raw, man, where)
        checked.append((where, r))
    filed: list[Path] = []
    known: list[Path] = []
    try:
        for where, r in checked:
            _, path, new = receipts.file(game_dir, man, r.armored, where)
            (filed if new else known).append(path)
    except (PbemError, OSError):
        for path in filed:
            path.unlink(missing_ok=True)
        raise
    return filed, known, ignored
