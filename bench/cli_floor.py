"""How much CPU each quick ``pbem`` verb costs next to ``python -c "import typer"`` (issue: Step 13, goal 2).

Each command runs several times as a child process; its CPU (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)``) is measured, and the minimum and median are printed
with the ratio to the typer floor measured in the same run. Goal: every verb whose own work is
under 10 ms costs at most 1.5x the floor. ``verify`` is measured twice: on a short game (the
example game's first three entries: its own work is under 10 ms, so the goal holds it) and on the
whole example game (nine entries, 38 envelopes: about 20 ms of its own work, shown for the record
and left out of the verdict).

    python bench/cli_floor.py [--runs 7]
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
from pathlib import Path

from benchpath import ROOT, TINY  # (the checkout and tests/ on sys.path)

GOAL = 1.5


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``argv`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


SHORT = 3  # entries of the short game
EXAMPLE_START = 1_735_689_600  # examples/game/make_example.py's clock: its step n is written at START + n hours
OUT_OF_GOAL = ("pbem verify GAME (9 entries)",)  # own work over 10 ms: shown, not judged


def example_game(work: Path) -> Path:
    """The example game's public record (the README walks through it), copied."""
    game = work / "game"
    shutil.copytree(ROOT / "examples" / "game" / "game", game)
    return game


def short_game(work: Path, entries: int = SHORT) -> Path:
    """The example game as its public record stood after its first ``entries`` entries, made again
    from the set-up and the example's sealed orders on the example's own clock (the referee keeps
    only the latest sealed state, so the committed record cannot simply be cut short)."""
    from unittest import mock

    from typer.testing import CliRunner

    from pbem.cli.main import app

    example, game = ROOT / "examples" / "game", work / "short"
    for rel in ("game.toml", "ledger/0000.toml", "reports/0000-england.pbem", "reports/0000-scotland.pbem"):
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(example / "game" / rel, game / rel)
    (game / "state").mkdir()
    shutil.copyfile(example / "start" / "0000.pbem", game / "state" / "0000.pbem")
    for step in range(entries - 1):
        envelopes = [str(p) for p in sorted((example / "envelopes").glob(f"{step:04d}-*.asc"))]
        with mock.patch("time.time", lambda: float(EXAMPLE_START + (step + 1) * 3600)):
            result = CliRunner().invoke(app, ["adjudicate", str(game), *envelopes,
                                              "--key", str(example / "keys" / "referee.key")])
        if result.exit_code:
            raise SystemExit(f"the short game's step {step} failed: {result.output}")
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--tiny", action="store_true", help=TINY + " (one run, no verdict)")
    args = ap.parse_args()
    if args.tiny:
        args.runs = 1
    py = sys.executable
    # Byte-code caches are written (any value of PYTHONDONTWRITEBYTECODE, even "0", stops that), so
    # the warm-up compiles each module once and no timed run compiles a changed source again.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    pbem = [py, "-m", "pbem"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        game = example_game(work)
        short = short_game(work)
        commands: dict[str, list[str]] = {
            "python -c pass": [py, "-c", "pass"],
            "import typer (floor)": [py, "-c", "import typer"],
            "pbem --help": [*pbem, "--help"],
            "pbem game --help": [*pbem, "game", "--help"],
            "pbem status GAME": [*pbem, "status", str(game)],
            f"pbem verify SHORT ({SHORT} entries)": [*pbem, "verify", str(short)],
            "pbem verify GAME (9 entries)": [*pbem, "verify", str(game)],
        }
        commands["pbem key show PUB"] = [*pbem, "key", "show", str(ROOT / "examples/game/keys/england.pub.toml")]
        for name, argv in commands.items():  # warm the byte-code caches; a failing command would time nothing
            if subprocess.run(argv, capture_output=True, env=env, check=False).returncode:
                raise SystemExit(f"{name} failed: {' '.join(argv)}")
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):  # interleaved, so a busy moment hurts every command alike
            for name, argv in commands.items():
                times[name].append(cpu_of(argv, env))
    floor = min(times["import typer (floor)"])
    floor_med = statistics.median(times["import typer (floor)"])
    print(f"{'command':30} {'min ms':>8} {'median ms':>10} {'min/floor':>10} {'med/floor':>10}")
    worst = 0.0
    for name, ts in times.items():
        lo, med = min(ts), statistics.median(ts)
        r_lo, r_med = lo / floor, med / floor_med
        if name.startswith("pbem") and name not in OUT_OF_GOAL:
            worst = max(worst, r_lo)
        note = "  (own work over 10 ms: not judged)" if name in OUT_OF_GOAL else ""
        print(f"{name:30} {lo * 1000:8.1f} {med * 1000:10.1f} {r_lo:10.2f} {r_med:10.2f}{note}")
    print(f"worst judged pbem verb / typer floor (min): {worst:.2f} (goal <= {GOAL})"
          + ("; not judged with --tiny" if args.tiny else ""))
    return 0 if worst <= GOAL or args.tiny else 1


if __name__ == "__main__":
    sys.exit(main())
