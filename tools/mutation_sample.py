"""A sampled mutation run over pbem/ with cosmic-ray (docs/architecture.md "Mutation testing").

    python tools/mutation_sample.py [--seed S] [--mutants N] [--floor F] [--module PATH]

Draws one module of tools/mutation_targets.toml and N of its mutants from the seed (by default the
UTC date, so CI covers another sample each day and a failing day can be rerun exactly), runs the
module's tests against each with cosmic-ray, prints every surviving mutant with its diff, and exits 1
when the share killed is below the floor. Survivors are triaged in docs/architecture.md.
cosmic-ray changes the module on disk while a mutant runs: run this alone, never beside the tests.
"""

from __future__ import annotations

import argparse
import datetime
import random
import shlex
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

ROOT = Path(__file__).resolve().parents[1]
TARGETS = Path(__file__).with_name("mutation_targets.toml")
TIMEOUT = 90.0  # seconds one mutant's tests may take before it counts as killed (a hang: a loop made endless)


def _config(module: str, tests: list[str]) -> str:
    command = " ".join([shlex.quote(sys.executable), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                        "-m", "'not slow'", *map(shlex.quote, tests)])
    return (f'[cosmic-ray]\nmodule-path = "{module}"\ntimeout = {TIMEOUT}\nexcluded-modules = []\n'
            f"test-command = {command!r}\n\n[cosmic-ray.distributor]\nname = \"local\"\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", default=datetime.datetime.now(datetime.UTC).strftime("%Y%m%d"))
    ap.add_argument("--mutants", type=int, default=4)
    ap.add_argument("--floor", type=float, default=0.5, help="the least share of the sample to be killed")
    ap.add_argument("--module", default="", help="a module of the targets list (default: drawn by the seed)")
    args = ap.parse_args(argv)
    targets = tomllib.loads(TARGETS.read_text(encoding="utf-8"))["targets"]
    r = random.Random(f"mutation-sample|{args.seed}")
    module = args.module or r.choice(sorted(targets))
    original = (ROOT / module).read_bytes()
    try:
        return _run(module, targets[module]["tests"], args, r)
    finally:
        (ROOT / module).write_bytes(original)  # whatever happened (Ctrl-C, a crash), the module as it was


def _run(module: str, tests: list[str], args: argparse.Namespace, r: random.Random) -> int:
    """Init a cosmic-ray session for ``module``, keep a sample of its mutants, run them; the exit status."""
    with tempfile.TemporaryDirectory() as tmp:
        config, session = Path(tmp) / "cr.toml", Path(tmp) / "session.sqlite"
        config.write_text(_config(module, tests), encoding="utf-8")
        subprocess.run([sys.executable, "-m", "cosmic_ray.cli", "init", str(config), str(session)], cwd=ROOT,
                       check=True)
        with use_db(str(session), WorkDB.Mode.open) as db:
            items = sorted(db.work_items, key=lambda w: w.job_id)
            chosen = {w.job_id for w in r.sample(sorted(items, key=lambda w: str(w.mutations)),
                                                 min(args.mutants, len(items)))}
            skipped = [w.job_id for w in items if w.job_id not in chosen]
            if skipped:
                db.set_multiple_results(skipped, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
        print(f"seed {args.seed}: {module}, {len(chosen)} of its {len(items)} mutants", flush=True)
        subprocess.run([sys.executable, "-m", "cosmic_ray.cli", "exec", str(config), str(session)], cwd=ROOT,
                       check=True)
        with use_db(str(session), WorkDB.Mode.open) as db:
            done = [(w, res) for w, res in db.completed_work_items if w.job_id in chosen]
    killed = [w for w, res in done if res.test_outcome == TestOutcome.KILLED]
    survived = [(w, res) for w, res in done if res.test_outcome == TestOutcome.SURVIVED]
    for w, res in survived:
        m = w.mutations[0]
        print(f"SURVIVED {m.module_path}:{m.start_pos[0]} {m.operator_name}\n{res.diff}")
    scored = len(killed) + len(survived)
    score = len(killed) / scored if scored else 1.0
    print(f"killed {len(killed)} of {scored} mutants ({len(done) - scored} incompetent); floor {args.floor:.0%}")
    return 0 if score >= args.floor else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
