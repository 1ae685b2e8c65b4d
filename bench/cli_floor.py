"""How much CPU each quick ``pbem`` verb costs next to ``python -c "import typer"`` (issue: Step 13, goal 2).

Each command runs several times as a child process; its CPU (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)``) is measured, and the minimum and median are printed
with the ratio to the typer floor measured in the same run. Goal: every verb whose own work is
under 10 ms costs at most 1.5x the floor.

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

GOAL = 1.5
ROOT = Path(__file__).resolve().parent.parent


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``argv`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def short_game(work: Path) -> Path:
    """A short game to verify: the example game's public record (the README walks through it), copied."""
    game = work / "game"
    shutil.copytree(ROOT / "examples" / "game" / "game", game)
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "0"}
    pbem = [py, "-m", "pbem"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        game = short_game(work)
        commands: dict[str, list[str]] = {
            "python -c pass": [py, "-c", "pass"],
            "import typer (floor)": [py, "-c", "import typer"],
            "pbem --help": [*pbem, "--help"],
            "pbem game --help": [*pbem, "game", "--help"],
            "pbem status GAME": [*pbem, "status", str(game)],
            "pbem verify GAME": [*pbem, "verify", str(game)],
        }
        commands["pbem key show PUB"] = [*pbem, "key", "show", str(ROOT / "examples/game/keys/england.pub.toml")]
        for argv in commands.values():  # warm the byte-code caches
            cpu_of(argv, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):  # interleaved, so a busy moment hurts every command alike
            for name, argv in commands.items():
                times[name].append(cpu_of(argv, env))
    floor = min(times["import typer (floor)"])
    floor_med = statistics.median(times["import typer (floor)"])
    print(f"{'command':28} {'min ms':>8} {'median ms':>10} {'min/floor':>10} {'med/floor':>10}")
    worst = 0.0
    for name, ts in times.items():
        lo, med = min(ts), statistics.median(ts)
        r_lo, r_med = lo / floor, med / floor_med
        if name.startswith("pbem"):
            worst = max(worst, r_lo)
        print(f"{name:28} {lo * 1000:8.1f} {med * 1000:10.1f} {r_lo:10.2f} {r_med:10.2f}")
    print(f"worst pbem verb / typer floor (min): {worst:.2f} (goal <= {GOAL})")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
