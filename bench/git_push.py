"""What a push costs on a self-hosted game repository (docs/git.md), against the adjudication alone.

    python bench/git_push.py --runs 7
    python bench/git_push.py --tiny     # one run, no refused pushes: does it still run?

A Hammer of the Scots game (braveheart) in a bare repository with the hooks installed as
``pbem git install-hooks`` installs them; England's order for step 0 is pushed first (not timed),
then Scotland's push, which completes the step, is timed: ``git push`` with everything it starts
(receive-pack, both hooks, every git command they run). The adjudication alone is
``pbem adjudicate GAME ENGLAND SCOTLAND --key KEY`` on a copy of the referee's game folder at the
same step with the same two orders: what a referee by mail runs. Then three pushes that are
refused (a 60 MB intermediate commit, 1,000 commits, a commit of 3,000 files).

Each figure is CPU time (user + system) of the child processes, from
``resource.getrusage(RUSAGE_CHILDREN)``, since the machine may be shared; wall-clock is printed too.
Runs are interleaved; min / median / max over the runs. Byte-code caches are written (the first run
warms them and is not counted).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchpath import TINY  # (the checkout on sys.path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.core import game, identity  # noqa: E402
from pbem.hammer.play import bots  # noqa: E402
from pbem.transport.git import hooks, setup  # noqa: E402

SIDES = ("england", "scotland")
GOAL = 1.5  # a push that completes a step costs at most this times the adjudication alone
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def git(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, env=ENV, check=False)


def timed(run: Callable[[], subprocess.CompletedProcess[bytes]]) -> tuple[float, float, int]:
    """(CPU seconds of the children, wall seconds, exit code) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = run().returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall, code


def make_template(root: Path) -> Path:
    """The referee's game folder, the bare repository with hooks, both clones, both sealed orders."""
    keys = {n: identity.from_seeds(n, bytes([i]) * 32, bytes([i + 100]) * 32)
            for i, n in enumerate(("referee", *SIDES), 1)}
    g = root / "referee-game"
    game.new_game(g, "hammer", "braveheart", {}, keys["referee"], {s: keys[s].public for s in SIDES},
                  game_id="bench-git", chain_length=400, deadline_hours=72)
    identity.save_private(keys["referee"], root / "referee.key")
    bare = root / "game.git"
    setup.init(g, bare)
    hooks.install(bare, root / "referee.key")
    for side in SIDES:
        clone = root / side
        git("clone", "-q", str(bare), str(clone), cwd=root)
        git("config", "user.name", side, cwd=clone)
        git("config", "user.email", f"{side}@example.invalid", cwd=clone)
        report = game.open_report(clone / "reports" / f"0000-{side}.pbem", keys[side], clone)
        draft = bots.auto_draft(report, "simple", f"bench|{side}".encode())
        (root / f"{side}.asc").write_text(game.write_order(clone, keys[side], side, 0, draft.body()), encoding="ascii")
    return root


def fresh(template: Path, where: Path) -> Path:
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(template, where, symlinks=True)
    settings = where / "game.git" / "pbem-referee" / "settings.toml"
    settings.write_text(settings.read_text().replace(str(template), str(where)))
    for side in SIDES:
        git("remote", "set-url", "origin", str(where / "game.git"), cwd=where / side)
    return where


def commit_order(at: Path, side: str) -> None:
    clone = at / side
    git("pull", "-q", "--ff-only", cwd=clone)
    (clone / "inbox").mkdir(exist_ok=True)
    shutil.copy(at / f"{side}.asc", clone / "inbox" / f"0000-{side}.pbem")
    git("add", "inbox", cwd=clone)
    git("commit", "-q", "-m", f"{side}: order", cwd=clone)


def push_completing(template: Path, work: Path) -> tuple[float, float, int]:
    at = fresh(template, work / "push")
    commit_order(at, "england")
    assert git("push", "-q", "origin", "HEAD:main", cwd=at / "england").returncode == 0
    commit_order(at, "scotland")
    return timed(lambda: git("push", "-q", "origin", "HEAD:main", cwd=at / "scotland"))


def adjudication_alone(template: Path, work: Path) -> tuple[float, float, int]:
    copy = work / "adjudicate"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(template / "referee-game", copy, ignore=shutil.ignore_patterns(".git"))
    return timed(lambda: subprocess.run([sys.executable, "-m", "pbem", "adjudicate", str(copy),
                                         str(template / "england.asc"), str(template / "scotland.asc"),
                                         "--key", str(template / "referee.key")], capture_output=True, env=ENV))


def fast_import(clone: Path, commits: list[dict[str, bytes]]) -> bytes:
    """A fast-import stream of commits on top of the clone's main, each writing the files given."""
    base = git("rev-parse", "origin/main", cwd=clone).stdout.decode().strip()
    out = bytearray()
    for n, files in enumerate(commits):
        out += b"commit refs/heads/attack\ncommitter x <x@example.invalid> 1700000000 +0000\ndata 4\njunk\n"
        if n == 0:
            out += f"from {base}\n".encode()
        for path, data in files.items():
            out += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
        out += b"\n"
    return bytes(out)


def attacks(template: Path) -> dict[str, list[dict[str, bytes]]]:
    order = (template / "england.asc").read_bytes()
    path = "inbox/0000-england.pbem"
    return {
        "refused: 60 MB intermediate commit": [{path: b"x" * (60 << 20)}, {path: order}],
        "refused: 1,000 commits": [*({path: f"junk {n}".encode()} for n in range(1000)), {path: order}],
        "refused: 3,000 files in a commit": [{**{f"junk/{n:04d}": f"{n}\n".encode() for n in range(3000)},
                                             path: order}],
    }


def push_refused(template: Path, work: Path, commits: list[dict[str, bytes]]) -> tuple[float, float, int]:
    at = fresh(template, work / "refused")
    clone = at / "england"
    git("fetch", "-q", cwd=clone)
    assert git("fast-import", "--quiet", "--force", cwd=clone, stdin=fast_import(clone, commits)).returncode == 0
    cpu, wall, code = timed(lambda: git("push", "-q", "origin", "attack:main", cwd=clone))
    assert code != 0, "the push was taken"
    return cpu, wall, code


def show(name: str, runs: list[tuple[float, float, int]]) -> float:
    cpu = sorted(r[0] for r in runs)
    wall = sorted(r[1] for r in runs)
    print(f"{name:40} cpu ms min {cpu[0] * 1000:5.0f}  median {statistics.median(cpu) * 1000:5.0f}  "
          f"max {cpu[-1] * 1000:5.0f}   wall ms median {statistics.median(wall) * 1000:5.0f}")
    return statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-attacks", action="store_true", help="time the completing push only")
    parser.add_argument("--tiny", action="store_true", help=TINY + " (one run, no refused pushes)")
    args = parser.parse_args()
    if args.tiny:
        args.runs, args.no_attacks = 1, True
    with tempfile.TemporaryDirectory(prefix="pbem-bench-git-") as tmp:
        work = Path(tmp)
        template = make_template(work / "template")
        push_completing(template, work), adjudication_alone(template, work)  # warm the byte-code caches
        pushes, alone = [], []
        for _ in range(args.runs):
            pushes.append(push_completing(template, work))
            alone.append(adjudication_alone(template, work))
        assert all(r[2] == 0 for r in pushes + alone), "a run failed"
        a = show("adjudication alone (pbem adjudicate)", alone)
        p = show("push that completes a step", pushes)
        paired = sorted(q[0] / r[0] for q, r in zip(pushes, alone, strict=True))
        print(f"push / adjudication: {p / a:.2f} (medians of CPU); run by run (each push over the adjudication "
              f"timed right after it, which cancels a change of load): min {paired[0]:.2f}, median "
              f"{statistics.median(paired):.2f}, max {paired[-1]:.2f}")
        if not args.tiny:
            print(f"goal (docs/performance.md): at most {GOAL:.2f}: "
                  f"{'met' if max(p / a, statistics.median(paired)) <= GOAL else 'NOT met'} on this run")
        if not args.no_attacks:
            for name, commits in attacks(template).items():
                show(name, [push_refused(template, work, commits) for _ in range(max(1, args.runs // 2))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
