"""Hooks of a self-hosted bare repository: the referee that runs on push (docs/git.md).

``install`` writes ``hooks/pre-receive`` and ``hooks/post-receive`` calling the same Python
interpreter that installed them (so they find this very pbem), and the settings they read
(``pbem-referee/settings.toml``: the branch, the referee key's path, never the key itself).
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from pbem.core import inputs
from pbem.core.records import record
from pbem.transport.git import adapter, gitcmd, history, layout, pushcaps, pushcheck, pushrun, referee

SETTINGS = "settings.toml"
PACK_SLACK = 64 << 10  # a pack's headers and zlib's framing over its objects' own bytes
MIN_BYTES = layout.MAX_ORDER + 4096  # the largest order there can be, with its trees and commit
MARK = "# installed by pbem git install-hooks"


@record
class Settings:
    branch: str
    key: Path
    passphrase_file: Path | None = None
    caps: pushcaps.Caps = pushcaps.Caps()


def default_command() -> list[str]:
    """The same interpreter as the installer, so the hooks find this very pbem."""
    return [sys.executable, "-m", "pbem.transport.git.hookrun"]


def install(bare: Path, key_path: Path, passphrase_file: Path | None = None,
            command: Sequence[str] | None = None, caps: pushcaps.Caps | None = None) -> Settings:
    """Install both hooks in ``bare``, whose game branch must already hold the game of this referee."""
    import shlex
    import tempfile

    import tomli_w

    bare = Path(bare).absolute()
    caps = caps or pushcaps.Caps()
    if caps.bytes < MIN_BYTES or caps.commits < 1:
        raise gitcmd.GitError(f"the caps must let a push through: at least {MIN_BYTES} bytes (an order of the "
                              "largest size an envelope may have, protocol §3, with its commit) and 1 commit "
                              "(docs/git.md \"Caps\").")
    if gitcmd.run(["rev-parse", "--is-bare-repository"], bare, check=False).out.strip() != "true":
        raise gitcmd.GitError(f"{bare} is not a bare git repository; the hooks go into the repository the players "
                              "push to (git init --bare) (docs/git.md).")
    branch = gitcmd.run(["symbolic-ref", "--short", "HEAD"], bare).out.strip()
    tip = gitcmd.run(["rev-parse", "--verify", "--quiet", f"refs/heads/{branch}"], bare, check=False).out.strip()
    if not tip:
        raise gitcmd.GitError(f"{bare} has no branch {branch} yet; push the game folder to it first, then install "
                              "the hooks (docs/git.md).")
    key = adapter.load_key(key_path, _passphrase(passphrase_file))
    with tempfile.TemporaryDirectory(prefix="pbem-install-") as tmp:
        history.export(bare, tip, Path(tmp) / "game")
        adapter.check_referee(Path(tmp) / "game", key)
    settings = Settings(branch, Path(key_path).absolute(),
                        Path(passphrase_file).absolute() if passphrase_file else None, caps)
    home = bare / referee.REFEREE_DIR
    home.mkdir(exist_ok=True)
    doc: dict[str, str | int] = {"branch": settings.branch, "key": str(settings.key),
                                 "max_push_bytes": caps.bytes, "max_push_commits": caps.commits}
    if settings.passphrase_file:
        doc["passphrase_file"] = str(settings.passphrase_file)
    (home / SETTINGS).write_text(tomli_w.dumps(doc), encoding="utf-8")
    cmd = " ".join(shlex.quote(c) for c in (command or default_command()))
    scripts = {"pre-receive": f"#!/bin/sh\n{MARK}\nexec {cmd} pre-receive\n",
               "post-receive": pushrun.POST_RECEIVE.format(mark=MARK, cmd=cmd)}
    for hook, text in scripts.items():
        path = bare / "hooks" / hook
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(0o755)
    # Defence in depth: git itself also refuses deletions and non-fast-forward updates.
    gitcmd.run(["config", "receive.denyDeletes", "true"], bare)
    gitcmd.run(["config", "receive.denyNonFastForwards", "true"], bare)
    # A pack stream over the byte cap is cut off by git while it is still arriving (the pre-receive hook,
    # which says why in words, never sees it): a push within the cap is never a bigger pack than that,
    # give or take the pack's own headers.
    gitcmd.run(["config", "receive.maxInputSize", str(caps.bytes + PACK_SLACK)], bare)
    return settings


def _passphrase(path: Path | None) -> bytes | None:
    if path is None:
        return None
    lines = inputs.read_text_input(path, inputs.MAX_FILE, "a passphrase file").splitlines()
    return lines[0].encode("utf-8") if lines else b""


def load_settings(bare: Path) -> Settings:
    path = Path(bare) / referee.REFEREE_DIR / SETTINGS
    try:
        doc = tomllib.loads(inputs.read_text_input(path, inputs.MAX_FILE, "the hooks' settings file"))
    except FileNotFoundError:
        raise gitcmd.GitError(f"{path} is missing: run pbem git install-hooks on this repository (docs/git.md).") \
            from None
    pf = doc.get("passphrase_file")
    caps = pushcaps.Caps(int(doc.get("max_push_bytes", pushcaps.DEFAULT_BYTES)),
                         int(doc.get("max_push_commits", pushcaps.DEFAULT_COMMITS)))
    return Settings(str(doc["branch"]), Path(doc["key"]), Path(pf) if pf else None, caps)


def pre_receive(bare: Path, updates: str) -> list[pushcheck.Accepted]:
    """Check the push (its shape with git plumbing first, then the order) and prepare the referee's commit
    (pbem.transport.git.pushrun); a refusal refuses the whole push."""
    settings = load_settings(bare)
    lines = [line.split() for line in updates.splitlines() if line.strip()]
    if len(lines) != 1 or len(lines[0]) != 3:
        raise pushcheck.Refused(f"this push updates {len(lines)} refs; a player's push updates the game's branch "
                                f"{settings.branch} only.")
    old, new, ref = lines[0]
    pushed = pushcheck.check_shape(bare, settings.branch, old, new, ref, settings.caps)
    key = adapter.load_key(settings.key, _passphrase(settings.passphrase_file))
    accepted, _ = pushrun.run(bare, key, old, new, pushed)
    return [accepted]


def post_receive(bare: Path) -> referee.Outcome:
    """Take in what was pushed; adjudicate when the step is complete; publish the referee's commit."""
    settings = load_settings(bare)
    key = adapter.load_key(settings.key, _passphrase(settings.passphrase_file))
    return referee.referee(referee.BareWorkspace(Path(bare).absolute(), settings.branch), key)


def tick(bare: Path, key: adapter.Key, now: int | None = None) -> referee.Outcome:
    """The deadline run on a bare repository (from cron): default orders for overdue steps."""
    settings = load_settings(bare)
    return referee.referee(referee.BareWorkspace(Path(bare).absolute(), settings.branch), key, tick=True,
                           now=now)
