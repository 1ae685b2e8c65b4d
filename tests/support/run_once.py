"""Costly work done once per test run and shared by every test worker (docs/performance.md "Test suite").

Why: a session fixture is made once per pytest-xdist worker, so a whole game two workers both need was
played twice; and one long test that plays ten games keeps one worker busy while the other idles. Here
each piece of work has a name: the first worker to ask for it does it, under a lock, in a folder of this
run's temporary base shared by the workers, and leaves its result (pickled) beside it; a worker asking
later, or while it is being done, waits for the lock and reads the result. Without workers (``-n 0``) the
result is kept in the process. The folder is the run's own (pytest makes a new base per run), so nothing
is carried from one run to the next, and a test that writes must copy the folder first.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")
_DONE: dict[str, object] = {}


def run_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)`` for this run, done by one worker only; ``folder`` is new and the work's own."""
    if name in _DONE:
        return _DONE[name]  # type: ignore[return-value]
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "run-once"
    shared.mkdir(parents=True, exist_ok=True)
    result_file = shared / f"{name}.pickle"
    with open(shared / f"{name}.lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes, or when a killed worker exits
        if result_file.exists():
            result: T = pickle.loads(result_file.read_bytes())
        else:
            folder = shared / name
            if folder.exists():   # a worker that failed midway left it: start again
                shutil.rmtree(folder)
            folder.mkdir()
            result = make(folder)
            result_file.with_suffix(".tmp").write_bytes(pickle.dumps(result))
            result_file.with_suffix(".tmp").replace(result_file)
    _DONE[name] = result
    return result
