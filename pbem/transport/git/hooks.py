"""Hooks of a self-hosted bare repository: the referee that runs on push (docs/git.md).

``install`` writes ``hooks/pre-receive`` and ``hooks/post-receive`` calling the same Python
interpreter that installed them (so they find this very pbem), and the settings they read
(``pbem-referee/settings.toml``: the branch, the referee key's path, never the key itself).
"""

from __future__ import annotations

import shlex
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from pbem.core import inputs
from pbem.transport.git import adapter, gitcmd, history, pushcheck, referee

SETTINGS = "settings.toml"
MARK = "# installed by pbem git install-hooks"


@dataclass(frozen=True)
class Settings:
    branch: str
    key: Path
    passphrase_file: Path | None = None


def default_command() -> list[str]:
    """The same interpreter as the installer, so the hooks find this very pbem."""
    return [sys.executable, "-m", "pbem.transport.git.hookrun"]


def install(bare: Path, key_path: Path, passphrase_file: Path | None = None,
            command: Sequence[str] | None = None) -> Settings:
    """Install both hooks in ``bare``, whose game branch must already hold the game of this referee."""
    bare = Path(bare).absolute()
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
                        Path(passphrase_file).absolute() if passphrase_file else None)
    home = bare / referee.REFEREE_DIR
    home.mkdir(exist_ok=True)
    doc = {"branch": settings.branch, "key": str(settings.key)}
    if settings.passphrase_file:
        doc["passphrase_file"] = str(settings.passphrase_file)
    (home / SETTINGS).write_text(tomli_w.dumps(doc), encoding="utf-8")
    cmd = " ".join(shlex.quote(c) for c in (command or default_command()))
    for hook in ("pre-receive", "post-receive"):
        path = bare / "hooks" / hook
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"#!/bin/sh\n{MARK}\nexec {cmd} {hook}\n", encoding="utf-8")
        path.chmod(0o755)
    # Defence in depth: git itself also refuses deletions and non-fast-forward updates.
    gitcmd.run(["config", "receive.denyDeletes", "true"], bare)
    gitcmd.run(["config", "receive.denyNonFastForwards", "true"], bare)
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
    return Settings(str(doc["branch"]), Path(doc["key"]), Path(pf) if pf else None)


def pre_receive(bare: Path, updates: str) -> list[pushcheck.Accepted]:
    """Check every ref update of a push; the first refusal refuses the whole push."""
    settings = load_settings(bare)
    key = adapter.load_key(settings.key, _passphrase(settings.passphrase_file))
    accepted = []
    lines = [line.split() for line in updates.splitlines() if line.strip()]
    if len(lines) != 1:
        raise pushcheck.Refused(f"this push updates {len(lines)} refs; a player's push updates the game's branch "
                                f"{settings.branch} only.")
    for old, new, ref in lines:
        accepted.append(pushcheck.check_update(bare, key, settings.branch, old, new, ref))
    return accepted


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
