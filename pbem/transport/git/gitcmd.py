"""Running the real ``git`` binary: one place that builds its environment and reads its errors."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from pbem.core.errors import PbemError
from pbem.core.records import record

ZERO = "0" * 40
REFEREE_NAME = "pbem referee"
REFEREE_EMAIL = "referee@pbem.invalid"
# Variables git sets for a hook (GIT_DIR, the push's quarantine ...): a command about another
# repository or work tree must not inherit them, or it would act on the hook's repository.
_REPO_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_PREFIX", "GIT_COMMON_DIR",
              "GIT_NAMESPACE", "GIT_PUSH_OPTION_COUNT")


class GitError(PbemError):
    """A git command failed, or a repository is not in the shape a game repository has (docs/git.md)."""

    kind = "git"


@record
class Result:
    code: int
    out: str
    err: str


@functools.cache
def git_binary() -> str:
    """The git program (looked up once a process: a hook runs a dozen git commands)."""
    found = shutil.which("git")
    if not found:
        raise GitError("the git command was not found; install git (a standard package) and try again (docs/git.md).")
    return found


def clean_env(keep_hook_vars: bool = False, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a git command: no pager, no prompt, no stray hook variables."""
    env = dict(os.environ)
    if not keep_hook_vars:
        for name in _REPO_VARS:
            env.pop(name, None)
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "LC_ALL": "C", "GIT_ADVICE": "0"})
    env.update(extra or {})
    return env


def run(args: Sequence[str], cwd: Path | None = None, *, check: bool = True, input: bytes | None = None,
        hook_env: bool = False, env: Mapping[str, str] | None = None, what: str = "") -> Result:
    """``git ARGS`` in ``cwd``; a failure (when ``check``) is a GitError quoting git's own first line."""
    cmd = [git_binary(), "-c", "core.quotepath=false", *args]
    proc = subprocess.run(cmd, cwd=cwd, input=input, capture_output=True,
                          env=clean_env(hook_env, env))
    res = Result(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))
    if check and res.code != 0:
        said = first_line(res.err) or first_line(res.out) or f"exit code {res.code}"
        raise GitError(f"{what or 'git ' + ' '.join(args[:2])} failed: {said} (docs/git.md).")
    return res


def run_bytes(args: Sequence[str], cwd: Path | None = None, *, hook_env: bool = False,
              input: bytes | None = None) -> bytes:
    """The raw output of a git command that must succeed (blob contents)."""
    proc = subprocess.run([git_binary(), *args], cwd=cwd, input=input, capture_output=True, env=clean_env(hook_env))
    if proc.returncode != 0:
        raise GitError(f"git {' '.join(args[:2])} failed: {first_line(proc.stderr.decode('utf-8', 'replace'))} "
                       "(docs/git.md).")
    return proc.stdout


def first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("hint:"):
            return line
    return ""


NEUTRAL_NAME = "pbem"
NEUTRAL_EMAIL = "pbem@invalid"


def referee_identity() -> list[str]:
    """``-c`` options that make the referee's commits the same on every machine (name, no signing)."""
    return ["-c", f"user.name={REFEREE_NAME}", "-c", f"user.email={REFEREE_EMAIL}", "-c", "commit.gpgsign=false"]


def neutral_env(name: str = NEUTRAL_NAME, email: str = NEUTRAL_EMAIL) -> dict[str, str]:
    """Author and committer for a commit that carries no personal metadata (docs/git.md, "What the
    repository shows"): a neutral name and address, and the time in UTC (time zone +0000), so a
    commit tells nobody who made it, on which machine, or where in the world."""
    import time

    when = f"@{int(time.time())} +0000"
    return {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": when,
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": when}


def referee_env() -> dict[str, str]:
    """The referee's commits: its fixed name, the time in UTC."""
    return neutral_env(REFEREE_NAME, REFEREE_EMAIL)
