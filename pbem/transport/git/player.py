"""What a player runs in their clone: ``submit`` an order, ``pull`` the referee's news.

``submit`` makes exactly the push the repository takes (one commit adding or replacing
``inbox/NNNN-SIDE.pbem`` on top of the shared branch). When the shared branch moved on while
it was pushing (the other player, or the referee), it fetches and tries again while the order
still fits the step. A refused push leaves the clone as it was and shows the repository's reason.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core import inputs
from pbem.transport.git import adapter, gitcmd, history, layout

ATTEMPTS = 8
PRE_COMMIT_MARK = "# installed by pbem git: refuses a commit that holds a private key"


@dataclass
class Submitted:
    path: str
    side: str
    step: int
    lines: list[str] = field(default_factory=list)


@dataclass
class Pulled:
    position: adapter.Position
    lines: list[str]
    verified: bool


def _clone(repo: Path) -> tuple[Path, str]:
    """(top folder, branch) of a player's clone."""
    repo = Path(repo)
    res = gitcmd.run(["rev-parse", "--show-toplevel", "--abbrev-ref", "HEAD", "--git-path", "hooks"], repo,
                     check=False)
    lines = res.out.splitlines()
    if res.code != 0 or len(lines) != 3:
        raise gitcmd.GitError(f"{repo} is not a clone of a game repository (git clone URL first) (docs/git.md).")
    top, branch, hooks = Path(lines[0]), lines[1], Path(lines[2])
    if branch == "HEAD":
        raise gitcmd.GitError(f"{top} is not on a branch; check out the game's branch (git checkout main) "
                              "(docs/git.md).")
    install_pre_commit(hooks if hooks.is_absolute() else Path(repo).absolute() / hooks)
    return top, branch


# The clone's pre-commit hook: plain sh and git grep, so a commit does not wait for Python. It
# looks for the secret fields of a key file (protocol §5.1) and PEM private keys anywhere in the
# index; the repository's pre-receive hook makes the exact check again.
PRE_COMMIT = f"""#!/bin/sh
{PRE_COMMIT_MARK}
found=$(git grep --cached -l -I -E \
'^(sign_secret|encrypt_secret) *=|^\\[protected\\]|-----BEGIN ([A-Z ]+ )?PRIVATE KEY-----')
if [ -n "$found" ]; then
    echo "error: $(echo "$found" | head -n 1) holds a private key; secrets never enter a game repository, \
so this commit is refused (docs/git.md)." >&2
    echo "hint: git rm --cached $(echo "$found" | head -n 1)" >&2
    exit 1
fi
"""


def install_pre_commit(hooks: Path) -> None:
    """A pre-commit hook in the clone that refuses a commit holding a private key (when none is there yet)."""
    path = hooks / "pre-commit"
    if path.exists():
        return
    hooks.mkdir(parents=True, exist_ok=True)
    path.write_text(PRE_COMMIT, encoding="utf-8")
    path.chmod(0o755)


def _sync(top: Path, branch: str) -> None:
    """Fetch and fast-forward the clone to the shared branch; refuse when it has changes of its own."""
    gitcmd.run(["fetch", "-q", "origin", branch], top, what="git fetch from the game repository (origin)")
    status = gitcmd.run(["status", "--porcelain=v2", "--branch", "--untracked-files=no"], top).out.splitlines()
    dirty = [line for line in status if not line.startswith("#")]
    if dirty:
        raise gitcmd.GitError(f"your clone {top} has changed files ({dirty[0].split()[-1]} ...); a game clone "
                              "holds only what the repository holds.", hint="git checkout -- . (or git stash), then "
                                                                            "try again")
    ahead = gitcmd.run(["rev-list", "--count", "FETCH_HEAD..HEAD"], top).out.strip()
    if ahead != "0":
        _refuse_rewrite(top, branch)
        raise gitcmd.GitError(f"your clone {top} has {ahead} commit(s) the shared repository does not have, none "
                              "of them in the record; a game clone holds only what the repository holds.",
                              hint=f"git branch mine (to keep them), then git reset --keep origin/{branch}, and try "
                                   "again")
    gitcmd.run(["merge", "-q", "--ff-only", "FETCH_HEAD"], top, what="git merge --ff-only")


def _refuse_rewrite(top: Path, branch: str) -> None:
    """Say so when the shared branch no longer holds the record this clone holds (a rollback or rewrite).

    The clone is the evidence: the message tells the player to keep it, and what ``pbem verify``
    says of it, and never suggests throwing it away (docs/git.md, "Rollbacks and rewrites")."""
    out = gitcmd.run(["diff", "--name-status", "--no-renames", "-z", "HEAD", "FETCH_HEAD", "--", "ledger"], top).out
    parts = out.split("\0")
    lost = sorted((p, st) for st, p in zip(parts[0::2], parts[1::2], strict=False) if st in ("M", "D"))
    if not lost:
        return
    path, status = lost[0]
    what = f"no longer has {path}" if status == "D" else f"holds {path} with other content"
    mine = adapter.position(top)
    try:
        verified = adapter.verify(top)[-1]
    except adapter.Error as exc:
        verified = f"it does not verify: {exc}"
    there = _fetched_position(top)
    raise gitcmd.GitError(
        f"the game repository's branch {branch} was rewritten: your clone holds ledger entry {mine.step} with hash "
        f"{mine.entry_hash}, but the repository {what} (it ends at entry {there[0]}, hash {there[1]}). "
        f"Keep this clone: it proves the rewrite. pbem verify on it says: {verified.rstrip('.')}. "
        "Nothing was changed in your clone (docs/git.md, \"Rollbacks and rewrites\").",
        hint=f"copy this clone somewhere safe, show it to the other players (pbem verify {top}), and pull nothing "
             "into it")


def _fetched_position(top: Path) -> tuple[int, str]:
    """(latest entry, its hash) of the branch just fetched, or (-1, why) when it has no valid record."""
    with tempfile.TemporaryDirectory(prefix="pbem-fetched-") as tmp:
        try:
            history.export(top, "FETCH_HEAD", Path(tmp) / "game")
            pos = adapter.position(Path(tmp) / "game")
            return pos.step, pos.entry_hash
        except adapter.Error:
            return -1, "(no entry that reads)"


INBOX_CONFIG = "pbem.inbox"  # git config in a player's clone: the players' repository a watching referee reads


def submit(repo: Path, order: Path, own_identity: bool = False, inbox: str | None = None) -> Submitted:
    """Add the sealed order under ``inbox/``, commit it, push it; try again while the branch moves on.

    With a players' repository (``inbox``, or ``git config pbem.inbox`` in the clone; docs/git.md
    "A referee players cannot reach"), the clone follows the record and the order is pushed there.
    Commits carry the neutral author ``pbem <pbem@invalid>`` and UTC time unless ``own_identity``."""
    top, branch = _clone(repo)
    if inbox:
        gitcmd.run(["config", INBOX_CONFIG, inbox], top)
    inbox = inbox or gitcmd.run(["config", "--get", INBOX_CONFIG], top, check=False).out.strip() or None
    raw = inputs.read_input(order, layout.MAX_ORDER, "a sealed order")
    if layout.find_private_key(raw):
        raise gitcmd.GitError(f"{order} holds a private key, not an order; it was not committed (docs/git.md).")
    if len(raw) > layout.MAX_ORDER:
        raise adapter.format_error(f"{order} is {len(raw)} bytes, over the 1 MiB an envelope may hold (protocol §3).")
    head = adapter.header(raw, str(order))
    if head.kind != "order":
        raise adapter.format_error(f"{order} holds a {head.kind} envelope, not an order (protocol §7.3).")
    path = layout.inbox_path(head.step, head.side)
    out = Submitted(path, head.side, head.step)
    for attempt in range(ATTEMPTS):
        _sync(top, branch)
        if inbox:
            _check_still_open(top, raw, order, head, attempt)
            if _push_to_inbox(top, branch, inbox, path, raw, f"{head.side}: order for step {head.step}",
                              own_identity, out):
                return out
            time.sleep(0.1 * (attempt + 1))
            continue
        _check_still_open(top, raw, order, head, attempt)
        target = top / path
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(raw)
        gitcmd.run(["add", "--", path], top)
        if not _commit(top, head.side, f"{head.side}: order for step {head.step}", own_identity):
            out.lines.append(f"{path} already holds this order; nothing to push")
            return out
        res = gitcmd.run(["push", "--porcelain", "origin", f"HEAD:refs/heads/{branch}"], top, check=False)
        if res.code == 0:
            out.lines += _remote_lines(res.err)
            out.lines.append(f"pushed {path}: {head.side}'s order for step {head.step}")
            return out
        gitcmd.run(["reset", "-q", "--hard", "HEAD~1"], top)  # the clone stays as the shared repository has it
        said = res.out + res.err
        refusal = [line for line in _remote_lines(res.err) if line.startswith(("error:", "hint:"))]
        if refusal and not _behind(said):
            message = refusal[0].removeprefix("error:").strip()
            hint = next((h.removeprefix("hint:").strip() for h in refusal if h.startswith("hint:")), None)
            raise gitcmd.GitError(f"the game repository refused your push: {message}", hint=hint)
        if not _behind(said):
            raise gitcmd.GitError(f"git push failed: {gitcmd.first_line(res.err) or res.out.strip()} (docs/git.md).")
        time.sleep(0.1 * (attempt + 1))  # the branch moved on meanwhile: fetch and try again
    raise gitcmd.GitError(f"the game repository kept moving while you pushed ({ATTEMPTS} tries); pull and push "
                          "again (docs/git.md).")


def _check_still_open(top: Path, raw: bytes, order: Path, head: adapter.Header, attempt: int) -> None:
    """The order fits the record as just fetched; after a first try, a failure means the step closed meanwhile."""
    try:
        adapter.check_order_public(top, raw, str(order))  # wrong game, not yours, old: said before pushing
    except adapter.Error as exc:
        if attempt == 0:
            raise
        now = adapter.position(top)
        raise gitcmd.GitError(f"your order for step {head.step} arrived too late: while you pushed, the step "
                              f"was adjudicated and the game is now at step {now.step} (docs/git.md).",
                              hint="pbem git pull, read your new report and seal a new order") from exc


def _push_to_inbox(top: Path, branch: str, url: str, path: str, raw: bytes, message: str, own_identity: bool,
                   out: Submitted) -> bool:
    """One commit on top of the players' repository's branch replacing ``path`` with ``raw``, pushed there.

    Built with git's plumbing in a throwaway index, so the clone (which follows the record) is never
    touched. False when the players' branch moved meanwhile (try again)."""
    ref = "refs/pbem/inbox"
    res = gitcmd.run(["fetch", "-q", "--no-tags", url, f"+refs/heads/{branch}:{ref}"], top, check=False)
    parent = gitcmd.run(["rev-parse", "--verify", "--quiet", ref], top, check=False).out.strip() \
        if res.code == 0 else ""
    if res.code != 0 and "couldn't find remote ref" not in res.err:
        raise gitcmd.GitError(f"git fetch from the players' repository {url} failed: {gitcmd.first_line(res.err)} "
                              "(docs/git.md).")
    with tempfile.TemporaryDirectory(prefix="pbem-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        if parent:
            gitcmd.run(["read-tree", parent], top, env=env)
        blob = gitcmd.run(["hash-object", "-w", "--stdin"], top, input=raw).out.strip()
        gitcmd.run(["update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"], top, env=env)
        tree = gitcmd.run(["write-tree"], top, env=env).out.strip()
    if parent and gitcmd.run(["rev-parse", f"{parent}^{{tree}}"], top).out.strip() == tree:
        out.lines.append(f"{path} already holds this order in the players' repository; nothing to push")
        return True
    who = {} if own_identity else gitcmd.neutral_env()
    made = gitcmd.run(["commit-tree", tree, *(["-p", parent] if parent else []), "-m", message], top, env=who,
                      what="git commit-tree")
    res = gitcmd.run(["push", "--porcelain", url, f"{made.out.strip()}:refs/heads/{branch}"], top, check=False)
    if res.code == 0:
        out.lines.append(f"pushed {path} to the players' repository: the referee takes it in on its next pass")
        return True
    if not _behind(res.out + res.err):
        raise gitcmd.GitError(f"git push to the players' repository failed: "
                              f"{gitcmd.first_line(res.err) or res.out.strip()} (docs/git.md).")
    return False


def _commit(top: Path, side: str, message: str, own_identity: bool = False) -> bool:
    """Commit what is staged; False when nothing is. Neutral author and UTC time unless ``own_identity``
    (then a player git does not know yet commits as the side).

    --no-verify: the one staged file was checked by submit, and _sync refused anything else staged.
    """
    args = ["commit", "-q", "--no-verify", "-m", message]
    res = gitcmd.run(args, top, check=False, env=None if own_identity else gitcmd.neutral_env())
    if res.code != 0 and gitcmd.run(["diff", "--cached", "--quiet"], top, check=False).code == 0:
        return False
    if res.code != 0 and not gitcmd.run(["config", "user.name"], top, check=False).out.strip():
        res = gitcmd.run(["-c", f"user.name={side}", "-c", f"user.email={side}@pbem.invalid", *args], top,
                         check=False)
    if res.code != 0:
        raise gitcmd.GitError(f"git commit failed: {gitcmd.first_line(res.err) or gitcmd.first_line(res.out)} "
                              "(docs/git.md).")
    return True


def _behind(text: str) -> bool:
    from pbem.transport.git.referee import BEHIND

    return any(b in text for b in BEHIND)


def _remote_lines(err: str) -> list[str]:
    return [line[len("remote:"):].strip() for line in err.splitlines() if line.startswith("remote:")
            and line[len("remote:"):].strip()]


def pull(repo: Path, side: str | None = None, keys: list[adapter.Key] | None = None) -> Pulled:
    """Fetch, fast-forward and verify; say what each side (or ``side``) owes and where the new report is.

    With ``keys``, each side's latest receipt (sealed to that side and the referee) is opened and told."""
    top, branch = _clone(repo)
    _sync(top, branch)
    lines = adapter.verify(top)[-1:]
    pos = adapter.position(top)
    sides = [side] if side else list(pos.sides)
    if pos.over:
        lines.append(f"game {pos.game} is over at step {pos.step}: {_outcome(pos)}")
    for s in sides:
        report = adapter.report_path(top, pos.step, s).relative_to(top)
        if pos.over:
            lines.append(f"{s}: final report {report}")
            continue
        kind = pos.owes.get(s)
        sent = top / layout.inbox_path(pos.step, s)
        if kind and sent.exists():
            lines.append(f"{s}: your {kind} order for step {pos.step} is in ({layout.inbox_path(pos.step, s)}); "
                         f"waiting for the others; report {report}")
        elif kind:
            lines.append(f"{s}: you owe {kind} orders for step {pos.step}; read {report}, then seal and "
                         "pbem git submit")
        else:
            lines.append(f"{s}: nothing owed at step {pos.step}; report {report}")
        receipts = layout.receipts_of(top, pos.step, s)
        got = _open_latest(top, receipts, keys, lines) if receipts and keys and \
            adapter.side_of_any(top, keys) in (s, None) else None
        if got:
            lines.append(f"{s}: the referee's receipt for your order: {layout.receipt_path(got.step, s, got.seq)}: "
                         f"your order {got.seq} for step "
                         f"{got.step}, received at {got.received} (deadline {got.deadline or 'none'}); keep a copy: "
                         "pbem audit --receipt FILE --key YOUR.key checks it")
        elif receipts:
            lines.append(f"{s}: the referee's receipt for your order: {receipts[-1]} (sealed to {s}: --key opens it; "
                         "keep a copy: pbem audit --receipt FILE --key YOUR.key checks it)")
    return Pulled(pos, lines, True)


def _open_latest(top: Path, receipts: list[str], keys: list[adapter.Key], lines: list[str]) -> adapter.Receipt | None:
    """The latest receipt that opens as this referee's; each newer one that does not is named (a forgery)."""
    for path in reversed(receipts):
        try:
            raw = inputs.read_input(top / path, layout.MAX_ORDER, "a receipt", root=top)
            return adapter.open_receipt(top, raw, keys, path)
        except adapter.Error as exc:
            lines.append(f"warning: {path} does not open as the referee's receipt: {exc}")
    return None


def _outcome(pos: adapter.Position) -> str:
    r = pos.result if isinstance(pos.result, dict) else {}
    return f"{r.get('winner') or 'nobody'} wins" + (f" ({r['reason']})" if r.get("reason") else "")
