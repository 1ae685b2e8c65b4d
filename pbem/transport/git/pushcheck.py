"""The pre-receive check: what a player's push may change, in plain words when it may not.

A push may only add commits on top of the game branch (no force-push, no deletion, no merge),
each changing exactly one file: the pushing side's order for the current step,
``inbox/NNNN-SIDE.pbem``. That order must verify as the referee would take it in: signed by
SIDE, for this game, this step and the latest entry, sealed to the referee, legal under the
game's rules, and not a copy of an order already sent (a replay). Everything else in the
repository is written by the referee alone.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import inputs
from pbem.core.errors import FormatError
from pbem.core.records import field, record
from pbem.transport.git import adapter, gitcmd, history, layout, pushcaps
from pbem.transport.git.pushcaps import Refused as Refused


@record
class Accepted:
    path: str
    side: str
    step: int


@record
class PushedOrder:
    """The one inbox file a push changes, as its last commit holds it."""

    change: history.Change
    data: bytes
    existed: bool  # the branch's tip already held this file: it has versions a replay could come from
    inbox: tuple[history.TreeFile, ...] = ()  # the branch tip's inbox, as git lists it ...
    inbox_blobs: dict[str, bytes] = field(default_factory=dict)  # ... and its files small enough to be orders


GUIDE = "see docs/git.md, \"What a push may change\""


def check_shape(repo: Path, branch: str, old: str, new: str, ref: str, caps: pushcaps.Caps) -> PushedOrder:
    """Everything but the order itself, cheapest first: the ref, the caps, the files, private keys."""
    hook = True
    want = f"refs/heads/{branch}"
    if ref != want:
        raise Refused(f"this repository holds one game, on branch {branch}; a push to {ref} is not taken.",
                      hint="push to " + branch)
    if new == gitcmd.ZERO:
        raise Refused(f"this push deletes branch {branch}, the game's record; the record is never deleted.")
    if old == gitcmd.ZERO:
        raise Refused(f"branch {branch} must already hold the game; the referee creates it ({GUIDE}).")
    pushed = pushcaps.measure(repo, old, new, caps)
    changes: list[tuple[history.Commit, list[history.Change]]] = []
    for c in pushed.commits:
        if len(c.parents) != 1:
            raise Refused(f"commit {history.short(c.sha)} is a merge; a player's push is one commit on top of the "
                          "shared history.", hint="pull and push again (pbem git submit does this for you)")
        changed = history.changes(repo, c.parents[0], c.sha, hook)
        if len(changed) != pushcaps.FILES_PER_COMMIT:
            raise Refused(f"commit {history.short(c.sha)} changes {len(changed)} files "
                          f"({', '.join(ch.path for ch in changed[:3]) or 'none'}); a player's push changes exactly "
                          f"one: its order, inbox/NNNN-SIDE.pbem ({GUIDE}).")
        changes.append((c, changed))
    # The tip's inbox (the orders the referee's pass takes in with this one) is read in the same git call.
    inbox = history.tree_files(repo, old, layout.INBOX, hook)
    contents = pushcaps.scan_for_keys(repo, pushed, [f.blob for f in inbox if f.regular and f.size <= layout.MAX_ORDER])
    path = ""
    last = changes[-1][1][0]
    for c, (ch,) in changes:
        if layout.parse_inbox(ch.path) is None:
            if ch.path.startswith(f"{layout.INBOX}/"):
                raise Refused(f"commit {history.short(c.sha)} adds {layout.inbox_name_problem(ch.path)} ({GUIDE}).",
                              hint="pbem git submit names the file for you")
            what = "the referee's record" if layout.in_record(ch.path) else "a file outside the inbox"
            raise Refused(f"commit {history.short(c.sha)} changes {ch.path}, {what}; a player's push may only add "
                          f"or replace its order, inbox/NNNN-SIDE.pbem ({GUIDE}).")
        if ch.status != "D" and ch.mode not in ("100644", "100755"):
            raise Refused(f"commit {history.short(c.sha)} makes {ch.path} a link or a submodule (mode {ch.mode}); an "
                          "order is a plain file.")
        if ch.status not in ("A", "M"):
            raise Refused(f"commit {history.short(c.sha)} deletes {ch.path}; an order sent is replaced by a newer "
                          "one, never deleted.")
        if path and ch.path != path:
            raise Refused(f"this push changes both {path} and {ch.path}; push one order at a time.")
        path = ch.path
    # A blob already in the repository (a file pushed before, sent again) is not among the push's new objects.
    data = contents[last.blob] if last.blob in contents else history.blob(repo, last.blob, hook)
    return PushedOrder(last, data, changes[0][1][0].status != "A", tuple(inbox),
                       {f.blob: contents[f.blob] for f in inbox if f.blob in contents})


def check_order(game: Path, repo: Path, old: str, path: str, existed: bool = True) -> Accepted:
    """What can be said of the pushed order before the referee takes it in: ``game`` is a checkout of the
    pushed commit (whose record is the branch's, since a push only touches the inbox); ``repo`` and ``old``
    give the inbox file's history (none to read when the branch's tip lacks the file: the referee removes
    an inbox file only when its step closes, or when it was never an order; the receipts catch the rest).
    The rest of the check is taking it in (pbem.transport.git.pushrun), whose refusal refuses the push.
    """
    name = layout.parse_inbox(path)
    assert name is not None
    try:
        raw = inputs.read_input(game / path, layout.MAX_ORDER, "an order (an envelope holds at most 1 MiB, "
                                "protocol §3)", root=game)
    except FormatError as exc:
        raise Refused(str(exc)) from None
    pos = adapter.position(game)
    if pos.over:
        raise Refused(f"game {pos.game} is over; it takes no more orders.")
    if name.side not in pos.sides:
        raise Refused(f"{path} names side {name.side!r}, which is not in game {pos.game} "
                      f"(sides: {', '.join(pos.sides)}).")
    if name.step < pos.step:
        raise Refused(f"{path} is an order for step {name.step}, which was already adjudicated: the game is at "
                      f"step {pos.step} (a replay).", hint="pull, and send your order for the current step")
    if name.step > pos.step:
        raise Refused(f"{path} is for step {name.step}, which is not open yet: the game is at step {pos.step} "
                      "(the referee may be writing the next step right now).", hint="pull and push again")
    if name.side not in pos.owes:
        raise Refused(f"{name.side} owes no orders at step {pos.step} "
                      f"({', '.join(f'{s} owes {k}' for s, k in sorted(pos.owes.items()))}).")
    try:
        head = adapter.header(raw, path)
        if head.kind != "order":
            raise Refused(f"{path} holds a {head.kind} envelope, not an order.")
        if head.side != name.side:
            raise Refused(f"{path} is {name.side}'s inbox, but the envelope in it speaks for {head.side!r}.")
        for sha, data in history.versions(repo, old, path, True) if existed else []:
            if _envelope_hash(data, path) == head.hash:
                raise Refused(f"{path} holds an order already sent in commit {history.short(sha)} and since "
                              "replaced: a replay is not taken.", hint="seal a new order")
    except Refused:
        raise
    except adapter.Error as exc:
        raise Refused(str(exc), hint=exc.hint) from None
    return Accepted(path, name.side, name.step)


def _envelope_hash(data: bytes, where: str) -> str:
    """The hash of an earlier inbox file's envelope ("" when it was never a readable one)."""
    try:
        return adapter.header(data, where).hash
    except adapter.Error:
        return ""
