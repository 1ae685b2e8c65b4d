"""docs/performance.md "Running the bench scripts": every script in bench/ runs from a clean
checkout with its ``--tiny`` parameters, so none can go stale unnoticed (a moved helper, a renamed
function). Only that it runs and ends well is checked here: speed is measured by the scripts
themselves, never asserted in a test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.name for p in (ROOT / "bench").glob("*.py") if p.name != "benchpath.py")


def test_performance_every_bench_script_has_a_tiny_mode() -> None:
    for name in SCRIPTS:
        text = (ROOT / "bench" / name).read_text(encoding="utf-8")
        assert '"--tiny"' in text and "from benchpath import" in text, name


@pytest.mark.slow
@pytest.mark.parametrize("name", SCRIPTS)
def test_performance_each_bench_script_runs_from_a_clean_checkout_with_tiny_parameters(name: str,
                                                                                     tmp_path: Path) -> None:
    """Run as a reader would (``python bench/NAME.py``), from another folder, with no PYTHONPATH:
    the script finds pbem and the tests' helpers itself."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["TMPDIR"] = str(tmp_path)
    r = subprocess.run([sys.executable, str(ROOT / "bench" / name), "--tiny"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=900, check=False)
    assert r.returncode == 0, f"{name} --tiny failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{name} --tiny printed nothing"
    assert list(tmp_path.iterdir()) == [], f"{name} left files behind: {sorted(tmp_path.iterdir())}"
