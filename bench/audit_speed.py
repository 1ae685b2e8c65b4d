"""Audit and verify of a whole Braveheart game, in-process and as commands; and the game's size on disk.

    python bench/audit_speed.py                      # plays a bot game into a temporary folder first
    python bench/audit_speed.py --keep /tmp/bh       # ... and keeps it there
    python bench/audit_speed.py --folder /tmp/bh     # measures a game played before (with --keep)
    python bench/audit_speed.py --profile            # and a cProfile of one in-process audit

The game is ``pbem.cli.demo.play_bot_game`` (simple bot against random bot) with the protocol's
default dice chain (``pbem.core.beacon.DEFAULT_LENGTH`` links), as a game between people has.
Times are CPU seconds (the command's are its child process's user + system time), best and
median of ``--repeat`` runs; the goals (issue 17) are an audit under 0.3 s in-process and 0.6 s
as ``pbem audit`` (the ratio is the best run's). Sizes are bytes of the public record and the
referee's private area.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchpath import TINY  # (the checkout and tests/ on sys.path)

GOAL_IN_PROCESS = 0.3
GOAL_COMMAND = 0.6


def play(folder: Path, seed: str, min_steps: int, max_steps: int = 2000) -> None:
    """A whole game: the referee's dice secret is new each time, so a game that ends early (a
    sudden death, 9.1) is played again, up to five times, until it has ``min_steps`` steps."""
    import shutil

    from pbem.core import beacon
    from pbem.hammer.play.demo import play_bot_game
    for attempt in range(5):
        shutil.rmtree(folder, ignore_errors=True)
        start = time.process_time()
        s = play_bot_game(folder, "braveheart", {"england": "simple", "scotland": "random"}, seed.encode(),
                          chain_length=beacon.DEFAULT_LENGTH, max_steps=max_steps)
        took = time.process_time() - start
        print(f"played: {s.steps} steps, {s.years} years, {s.winner} wins; {took:.2f} s CPU with its own verify "
              f"and audit ({took / s.steps * 1000:.1f} ms a step)")
        if s.steps >= min_steps:
            return


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best and median CPU time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times), statistics.median(times)


def command(args: list[str], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "pbem", *args], check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), statistics.median(times)


def sizes(game_dir: Path) -> None:
    from pbem.core import ledger as led
    steps = max(led.entry_numbers(game_dir)) + 1
    total = 0
    rows = []
    for sub in sorted(p for p in game_dir.iterdir()):
        size = sum(f.stat().st_size for f in ([sub] if sub.is_file() else sub.rglob("*")) if f.is_file())
        total += size
        rows.append((sub.name, size))
    print(f"disk: {total} bytes in {steps} ledger entries ({total / steps / 1024:.1f} KiB per entry)")
    for name, size in rows:
        print(f"  {name:<12} {size:>9} bytes  {size * 100 / total:5.1f}%  {size / steps / 1024:6.1f} KiB per entry")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, help="a folder play_bot_game wrote before (its game/ and keys/)")
    parser.add_argument("--keep", type=Path, help="play into this new folder and keep it")
    parser.add_argument("--seed", default="bench-1", help="the bots' seed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--min-steps", type=int, default=85, help="play again when a game is shorter")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--tiny", action="store_true", help=TINY + " (a game of 12 steps, one run each)")
    args = parser.parse_args()
    max_steps = 2000
    if args.tiny:
        args.repeat, args.min_steps, max_steps = 1, 1, 12
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or args.keep or Path(tmp) / "bench"
        if not args.folder:
            play(folder, args.seed, args.min_steps, max_steps)
        from pbem.core import audit as audit_mod
        from pbem.core import identity
        from pbem.core import ledger as led
        game_dir, referee = folder / "game", identity.load_private(folder / "keys" / "referee.key")
        bundle = audit_mod.make_reveal(game_dir, referee)
        reveal = Path(tmp) / "reveal.json"
        reveal.write_text(audit_mod.dump_reveal(bundle), encoding="utf-8")
        in_verify = timed(lambda: led.verify_game(game_dir), args.repeat)
        in_audit = timed(lambda: audit_mod.audit(game_dir, bundle), args.repeat)
        cmd_verify = command(["verify", str(game_dir)], args.repeat)
        cmd_audit = command(["audit", str(game_dir), "--reveal", str(reveal)], args.repeat)
        print(f"{'':<22} {'CPU s':>7} {'median':>7} {'goal':>6} {'ratio':>6}")
        for label, (low, mid), goal in (("verify, in-process", in_verify, 0.0),
                                        ("audit, in-process", in_audit, GOAL_IN_PROCESS),
                                        ("pbem verify", cmd_verify, 0.0), ("pbem audit", cmd_audit, GOAL_COMMAND)):
            judged = f" {goal:>6.2f} {low / goal:>6.2f}" if goal else ""
            print(f"{label:<22} {low:>7.3f} {mid:>7.3f}{judged}")
        sizes(game_dir)
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            audit_mod.audit(game_dir, bundle)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
