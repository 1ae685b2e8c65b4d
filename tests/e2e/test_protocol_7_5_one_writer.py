"""Protocol §7.5 (issue 10 item 5): one writer at a time per game folder.

Two referee commands on the same game at once used to build the same step twice, share
temporary names and roll back each other's files, leaving a record that no longer verified.
Here real ``pbem`` processes race in pairs on copies of one game: each waits at a start line
until both have imported pbem, then both run at once. Afterwards the folder always verifies,
exactly one run adjudicated the step, the other failed with one ``error:`` line (busy, or the
step is closed), and the game goes on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run

from pbem.core import game as core_game
from pbem.core import ledger as led
from pbem.core.errors import GameBusy
from pbem.core.lock import game_lock

PAIRS = 8
DRIVER = """
import os, sys, time
from pbem.cli.main import app
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[1]):
    time.sleep(0.0002)
sys.argv = ["pbem", *sys.argv[3:]]
app()
"""


def _seal_all(game: Path, keys: Path, out: Path, seed: str) -> list[Path]:
    """Every owing side's bot order for the step the game is at, sealed."""
    envs = []
    for side in sorted(core_game.status(game)["owes"]):
        draft, env = out / f"{side}-{seed}.toml", out / f"{side}-{seed}.asc"
        run("orders", "auto", report_of(game, side), "--key", keys / f"{side}.key", "--seed", seed, "--out", draft)
        run("orders", "seal", draft, "--game", game, "--key", keys / f"{side}.key", "--out", env)
        envs.append(env)
    return envs


def _race(tmp: Path, commands: list[list[str]]) -> list[subprocess.CompletedProcess[str]]:
    """Start every command, wait until each has imported pbem, then let them all go at once."""
    go = tmp / "go"
    go.unlink(missing_ok=True)
    procs, ready = [], []
    for i, argv in enumerate(commands):
        flag = tmp / f"ready-{i}"
        flag.unlink(missing_ok=True)
        ready.append(flag)
        procs.append(subprocess.Popen([sys.executable, "-c", DRIVER, str(go), str(flag), *argv],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    deadline = time.monotonic() + 20
    while not all(f.exists() for f in ready) and time.monotonic() < deadline:
        time.sleep(0.005)
    go.touch()
    out = []
    for p, argv in zip(procs, commands):
        stdout, stderr = p.communicate(timeout=60)
        out.append(subprocess.CompletedProcess(argv, p.returncode, stdout, stderr))
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("race")
    game = new_game(root)
    return root, _seal_all(game, root / "keys", root, "01")


@pytest.mark.slow
def test_protocol_7_5_item_5_concurrent_writers_leave_a_game_that_verifies_and_goes_on(
        base: tuple[Path, list[Path]], tmp_path: Path) -> None:
    root, envs = base
    key = str(root / "keys" / "referee.key")
    adjudicate_all = ["adjudicate", "", *map(str, envs), "--key", key]
    busy = 0
    for n in range(PAIRS):
        game = tmp_path / f"g{n}"
        shutil.copytree(root / "g", game)
        first = [a or str(game) for a in adjudicate_all]
        second = first if n % 2 == 0 else ["game", "receive", str(game), str(envs[0]), "--key", key]
        results = _race(tmp_path, [first, second])
        for r in results:
            assert "Traceback" not in r.stderr, r.stderr
            if r.returncode:
                lines = r.stderr.splitlines()
                assert r.returncode == 1 and lines[0].startswith("error: ") and len(lines) <= 2, r.stderr
                busy += "is busy" in lines[0]
        adjudications = [r for r in results if r.args[0] == "adjudicate" and r.returncode == 0]
        led.verify_game(game)
        assert not [p for p in game.rglob("*.tmp")]
        if n % 2 == 0:
            assert len(adjudications) == 1, [r.stderr for r in results]  # exactly one run made step 1
        elif not adjudications:  # the receive held the lock: the adjudication was told to try again
            assert "is busy" in results[0].stderr and results[1].returncode == 0, [r.stderr for r in results]
            assert led.entry_numbers(game) == [0]
            run("adjudicate", game, *envs, "--key", key)
        assert led.entry_numbers(game) == [0, 1]
        nxt = _seal_all(game, root / "keys", tmp_path, f"{n + 2:02x}")  # the game goes on
        run("adjudicate", game, *nxt, "--key", key)
        assert led.entry_numbers(game) == [0, 1, 2]
        led.verify_game(game)
    print(f"{busy} of {2 * PAIRS} runs found the game busy")


def test_protocol_7_5_item_5_a_second_writer_is_told_the_game_is_busy_and_changes_nothing(
        base: tuple[Path, list[Path]], tmp_path: Path) -> None:
    root, envs = base
    game = tmp_path / "g"
    shutil.copytree(root / "g", game)
    before = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}
    with game_lock(game):
        with pytest.raises(GameBusy):
            with game_lock(game):
                pass
        for argv in (["adjudicate", game, *envs], ["game", "receive", game, envs[0]]):
            key = str(root / "keys" / "referee.key")
            r = subprocess.run([sys.executable, "-m", "pbem", *map(str, argv), "--key", key],
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 1, r.stderr
            assert r.stderr.splitlines() == [f"error: game {game} is busy: another pbem command is writing it; "
                                             "try again in a moment (protocol §7.5)."]
    assert {p: p.read_bytes() for p in game.rglob("*") if p.is_file()} == before
    run("adjudicate", game, *envs, "--key", root / "keys" / "referee.key")  # free again once the holder is done
    assert led.entry_numbers(game) == [0, 1]


def test_protocol_7_5_item_5_temporary_names_are_unique(tmp_path: Path) -> None:
    from pbem.core.atomic import write_temp
    target = tmp_path / "0001.toml"
    a, b = write_temp(target, b"a"), write_temp(target, b"b")
    assert a != b and a.read_bytes() == b"a" and b.read_bytes() == b"b"
    assert os.stat(a).st_mode & 0o777 == 0o644 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
