"""The shared bare repository of a peer game (docs/protocol.md §13.14): a pre-receive hook that lets a push
only ADD the manifest (once) and signed messages of this game, each in its own slot.

The hook holds the manifest alone (``pbem-peer/game.toml``: the public keys): no private key exists on the
server, and none is needed, since every message carries its side's signature. It refuses a push that modifies
or deletes a file, adds ``ledger/``, ``proofs/``, ``.pbem/`` or any other file, adds a message that does not
read as a peer message of this game signed by the key its side's manifest entry names, or names it by another
slot. What it cannot do: make a side push (a side that never pushes forfeits by 13.5), or judge the game (the
record is every client's own computation: the hook checks signatures and names, never the rules).
"""

from __future__ import annotations

import shlex
import tempfile
from collections.abc import Sequence
from pathlib import Path

from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.peer import folder, is_peer
from pbem.core.peer.rounds import Manifest
from pbem.core.records import record
from pbem.transport.git import gitcmd, history, hooks, pushcaps
from pbem.transport.git.peer_files import LIMIT, MANIFEST, SECTION, check_message, refuse_other
from pbem.transport.git.pushcaps import Refused

HOME = "pbem-peer"  # in the bare repository, beside its refs: never a path of the game's tree
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree: a first commit's parent


@record
class Taken:
    path: str
    side: str
    phase: str
    step: int


def install(bare: Path, manifest_path: Path, command: Sequence[str] | None = None,
            caps: pushcaps.Caps | None = None) -> str:
    """Install the peer pre-receive hook in ``bare`` with the game's manifest; returns the branch it guards."""
    bare = Path(bare).absolute()
    caps = caps or pushcaps.Caps()
    if gitcmd.run(["rev-parse", "--is-bare-repository"], bare, check=False).out.strip() != "true":
        raise gitcmd.GitError(f"{bare} is not a bare git repository; the hook goes into the repository the players "
                              f"push to (git init --bare) ({SECTION}).")
    raw = inputs.read_input(manifest_path, LIMIT, "a game manifest")
    with tempfile.TemporaryDirectory(prefix="pbem-install-") as tmp:  # checked before anything is written
        write_atomic(Path(tmp) / MANIFEST, raw)
        if not is_peer(Path(tmp)):
            raise gitcmd.GitError(f"{manifest_path} is not a peer game's manifest (format pbem-peer-game-v1, "
                                  f"protocol §13.1); a refereed game takes pbem git install-hooks --key.")
        folder.manifest(Path(tmp))  # refuses a manifest it cannot read, in one sentence
    branch = gitcmd.run(["symbolic-ref", "--short", "HEAD"], bare).out.strip()
    tip = gitcmd.run(["rev-parse", "--verify", "--quiet", f"refs/heads/{branch}"], bare, check=False).out.strip()
    if tip and history.blob_at(bare, tip, MANIFEST) != raw:
        raise gitcmd.GitError(f"branch {branch} of {bare} holds another game.toml than {manifest_path} ({SECTION}).")
    home = bare / HOME
    home.mkdir(exist_ok=True)
    write_atomic(home / MANIFEST, raw)
    write_atomic(home / "caps.toml", f"max_push_bytes = {caps.bytes}\nmax_push_commits = {caps.commits}\n")
    cmd = " ".join(shlex.quote(c) for c in (command or hooks.default_command()))
    path = bare / "hooks" / "pre-receive"
    path.parent.mkdir(exist_ok=True)
    write_atomic(path, f"#!/bin/sh\n{hooks.MARK}\nexec {cmd} peer-pre-receive\n", mode=0o755)
    # Defence in depth: git itself also refuses deletions and non-fast-forward updates.
    gitcmd.run(["config", "receive.denyDeletes", "true"], bare)
    gitcmd.run(["config", "receive.denyNonFastForwards", "true"], bare)
    gitcmd.run(["config", "receive.maxInputSize", str(caps.bytes + hooks.PACK_SLACK)], bare)
    return branch


def _caps(bare: Path) -> pushcaps.Caps:
    import tomllib

    doc = tomllib.loads(inputs.read_text_input(bare / HOME / "caps.toml", 4096, "the hook's caps file"))
    return pushcaps.Caps(int(doc["max_push_bytes"]), int(doc["max_push_commits"]))


def pre_receive(bare: Path, updates: str) -> list[Taken]:
    """Check a push against the manifest; a refusal (one sentence) refuses the whole push."""
    bare = Path(bare).absolute()
    home = bare / HOME
    if not (home / MANIFEST).is_file():
        raise gitcmd.GitError(f"{home / MANIFEST} is missing: run pbem git install-hooks --manifest on this "
                              f"repository ({SECTION}).")
    man = folder.manifest(home)
    want = inputs.read_input(home / MANIFEST, LIMIT, "a game manifest")
    branch = gitcmd.run(["symbolic-ref", "--short", "HEAD"], bare, hook_env=True).out.strip()
    lines = [line.split() for line in updates.splitlines() if line.strip()]
    if len(lines) != 1 or len(lines[0]) != 3:
        raise Refused(f"this push updates {len(lines)} refs; a player's push updates the game's branch {branch} "
                      f"only ({SECTION}).")
    old, new, ref = lines[0]
    if ref != f"refs/heads/{branch}":
        raise Refused(f"this repository holds one game, on branch {branch}; a push to {ref} is not taken ({SECTION}).")
    if new == gitcmd.ZERO:
        raise Refused(f"this push deletes branch {branch}, the game's messages; they are never deleted ({SECTION}).")
    return check_push(bare, man, want, old, new, _caps(bare))


def check_push(bare: Path, man: Manifest, want: bytes, old: str, new: str, caps: pushcaps.Caps) -> list[Taken]:
    """Every commit of ``old..new`` only adds the manifest (its bytes ``want``) or a message of ``man``."""
    hook = True
    if old != gitcmd.ZERO:
        commits = pushcaps.measure(bare, old, new, caps).commits  # force-push, commit and byte caps
    else:
        out = gitcmd.run(["rev-list", "--reverse", "--parents", new, "--not", "--all"], bare, hook_env=hook).out
        commits = [history.Commit(sha, tuple(parents)) for sha, *parents in (ln.split() for ln in out.splitlines())]
        if len(commits) > caps.commits:
            raise Refused(f"this push adds {len(commits)} commits, over the {caps.commits} a push may add ({SECTION}).")
    changes: list[tuple[history.Commit, history.Change]] = []
    for c in commits:
        if len(c.parents) > 1:
            raise Refused(f"commit {history.short(c.sha)} is a merge; a player's push adds commits on top of the "
                          f"shared history (pbem git sync rebases) ({SECTION}).")
        if not c.parents and old != gitcmd.ZERO:
            raise Refused(f"commit {history.short(c.sha)} starts another history; this push is not taken ({SECTION}).")
        for ch in history.changes(bare, c.parents[0] if c.parents else EMPTY_TREE, c.sha, hook):
            if ch.status != "A":
                verb = "deletes" if ch.status == "D" else "changes"
                raise Refused(f"commit {history.short(c.sha)} {verb} {ch.path}, already in the repository; a push "
                              f"may only add files, never change or delete one ({SECTION}).")
            refuse_other(ch.path)
            if ch.mode not in ("100644", "100755"):
                raise Refused(f"commit {history.short(c.sha)} makes {ch.path} a link or a submodule (mode {ch.mode}); "
                              f"a message is a plain file ({SECTION}).")
            changes.append((c, ch))
    sizes = _sizes(bare, [ch.blob for _, ch in changes])  # asked of git's object store before any blob is read
    for c, ch in changes:
        if sizes[ch.blob] > LIMIT:
            raise Refused(f"{ch.path} in commit {history.short(c.sha)} holds {sizes[ch.blob]} bytes, over the {LIMIT} "
                          "a peer file may hold (protocol §3).")
    if sum(sizes.values()) > caps.bytes:
        raise Refused(f"this push adds {sum(sizes.values())} bytes, over the {caps.bytes} a push may add ({SECTION}).")
    blobs = history.blobs(bare, list(sizes), hook_env=hook)
    taken: list[Taken] = []
    for c, ch in changes:
        data = blobs[ch.blob]
        where = f"{ch.path} in commit {history.short(c.sha)}"
        if ch.path == MANIFEST:
            if data != want:
                raise Refused(f"{where} is not the manifest this repository was set up with; game.toml is added "
                              f"once, as the hook holds it ({SECTION}).")
            continue
        m = check_message(man, ch.path, data, where)
        taken.append(Taken(ch.path, m.side, m.phase, m.step))
    if history.blob_at(bare, new, MANIFEST, hook) != want:
        raise Refused(f"after this push the branch would not hold the game's game.toml; the opener pushes it with "
                      f"the first messages ({SECTION}).")
    return taken


def _sizes(bare: Path, shas: list[str]) -> dict[str, int]:
    """Each blob's size, from one ``cat-file --batch-check`` (the object headers, never the contents)."""
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    out = gitcmd.run(["cat-file", "--batch-check=%(objectname) %(objectsize)"], bare, hook_env=True,
                     input="".join(f"{sha}\n" for sha in wanted).encode("ascii")).out
    return {sha: int(size) for sha, size in (line.split() for line in out.splitlines())}
