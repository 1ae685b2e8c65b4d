"""``pbem board`` as a user runs it (docs/board.md): it prints its address, serves the page with the
token, stops on Ctrl+C; its refusals are one ``error:`` line."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from board_support import game_in
from e2e.e2e_support import report_of, runner

from pbem.cli.main import app


def test_board_cli_serves_the_page_at_the_printed_address_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    game_in(tmp_path)
    report, key = report_of(tmp_path / "g", "scotland"), tmp_path / "keys" / "scotland.key"
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "board", str(report), "--key", str(key), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        url = first.split(" at ", 1)[1].strip()
        assert url.startswith("http://127.0.0.1:") and first.startswith(f"board of {report} at ")
        with urllib.request.urlopen(url, timeout=30) as answer:
            assert answer.status == 200 and b"board.js" in answer.read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "board stopped" in out and "Traceback" not in err


def test_board_cli_stops_on_ctrl_c_while_a_browser_holds_a_connection_open(tmp_path: Path) -> None:
    """A browser keeps connections open (a request half sent, a keep-alive): Ctrl+C stops the board at once all the
    same, and says so, rather than waiting on them (checked by mutation: with request threads that are not
    daemons the server's close waits for the silent connection)."""
    game_in(tmp_path)
    report, key = report_of(tmp_path / "g", "scotland"), tmp_path / "keys" / "scotland.key"
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "board", str(report), "--key", str(key), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert proc.stdout is not None
    url = urlsplit(proc.stdout.readline().split(" at ", 1)[1].strip())
    with socket.create_connection((str(url.hostname), int(url.port or 0)), timeout=10) as held:
        held.sendall(b"GET " + url.path.encode() + b" HTTP/1.1\r\nHost: ")  # and nothing more
        with urllib.request.urlopen(url.geturl(), timeout=30) as answer:  # the server answers others meanwhile
            assert answer.status == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "board stopped" in out and "Traceback" not in err


def test_board_cli_refuses_a_sealed_report_without_a_key_in_one_line(tmp_path: Path) -> None:
    game_in(tmp_path)
    result = runner.invoke(app, ["board", str(report_of(tmp_path / "g", "england")), "--no-browser"])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "--key" in result.output
    result = runner.invoke(app, ["board", str(report_of(tmp_path / "g", "england")), "--port", "70000"])
    assert result.exit_code == 1 and result.output.startswith("error: --port 70000")
