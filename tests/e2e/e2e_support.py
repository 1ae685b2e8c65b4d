"""Shared by the end-to-end tests: run a ``pbem`` verb through typer's CliRunner, start a game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from support.run_once import run_once
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.hammer.play.demo import make_keys, play_bot_game

runner = CliRunner()


def run(*args: str | Path, ok: bool = True) -> str:
    """The verb's output; with ``ok``, fail the test unless it exited 0."""
    result = runner.invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.output


def new_game(folder: Path, scenario: str = "braveheart") -> Path:
    """Keys in ``folder/keys`` and a game in ``folder/g``, made with ``pbem game new``."""
    k = folder / "keys"
    make_keys(k)
    run("game", "new", folder / "g", "--ruleset", "hammer", "--scenario", scenario,
        "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    return folder / "g"


def report_of(game_dir: Path, side: str) -> Path:
    """The report file asking ``side`` about the step the game is at."""
    from pbem.core import game as core_game
    info = core_game.status(game_dir)
    return core_game.report_path(game_dir, int(info["step"]), side)


def without_home_column(text: str) -> str:
    """A text report without its board table's "home of" column (the nobles whose home each area
    is, 1.4: rulebook data, the same in every view), so a test can look for enemy block names."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("area ") and "home of" in line:
            inside = True
        elif line.startswith("(castle:"):
            inside = False
        out.append(line[:21] + line[31:] if inside else line)
    return "\n".join(out)


HOME_MARKS = re.compile(r'<g class="noble-home"[^>]*>.*?</g>|<text [^>]*class="home-name"[^>]*>[^<]*</text>'
                        r'|<td class="home">[^<]*</td>')


def without_home_marks(page: str) -> str:
    """An HTML page or map without the noble home marks and the board table's home cells (1.4:
    rulebook data, the same in every view), so a test can look for enemy block names."""
    return HOME_MARKS.sub("", page)


def bagpipes_until_clan1_owes(folder: Path) -> Path:
    """A 2-clan Swords and Bagpipes game in ``folder/g`` (keys in ``folder/keys``), joined, started and
    played by the bots (files in ``folder/work``) until clan1 owes an order; clan1's report then."""
    from pbem.core import game as core_game
    from pbem.core import identity

    k, g, work = folder / "keys", folder / "g", folder / "work"
    k.mkdir(parents=True, exist_ok=True)
    for name in ("referee", "clan1", "clan2"):
        priv = identity.generate(name)
        identity.save_private(priv, k / f"{name}.key")
        identity.save_public(priv, k / f"{name}.pub.toml")
    sides = [a for s in ("clan1", "clan2", "referee") for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]
    run("game", "open", g, "--ruleset", "bagpipes", "--option", "players=2", "--referee", k / "referee.key", *sides)
    work.mkdir()
    joins = []
    for side in ("clan1", "clan2", "referee"):
        run("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", work / f"{side}.asc")
        joins.append(work / f"{side}.asc")
    run("game", "start", g, *joins, "--key", k / "referee.key")
    info = core_game.status(g)
    while "clan1" not in info["owes"]:   # a manual card may ask the referee seat first: its ruling, by the bot
        envelopes = []
        for side in sorted(info["owes"]):
            report = core_game.report_path(g, int(info["step"]), side)
            run("orders", "auto", report, "--key", k / f"{side}.key", "--out", work / f"{side}.toml")
            run("orders", "seal", work / f"{side}.toml", "--key", k / f"{side}.key", "--game", g,
                "--out", work / f"{side}-order.asc")
            envelopes.append(work / f"{side}-order.asc")
        run("adjudicate", g, *envelopes, "--key", k / "referee.key")
        info = core_game.status(g)
    return core_game.report_path(g, int(info["step"]), "clan1")


# --- a finished Hammer game with its dice -------------------------------------------------------------

SIDES = ("england", "scotland")


def dice_of(report: dict[str, Any]) -> list[tuple[list[int], int, int, str]]:
    """Every die in the report's log and paused battle: (stream, value, index, where)."""
    lines = list(report.get("log", [])) + list(((report.get("view") or {}).get("fight") or {}).get("log", []))
    out = []
    for e in lines:
        if e.get("what") == "fire":
            out += [(e["stream"], d["value"], d["index"], f"fire {e.get('block')}") for d in e["dice"]]
        elif "die" in e:
            out.append((e["stream"], e["die"], e["index"] if "index" in e else e["die_index"], str(e.get("what"))))
    return out


def every_die(game_dir: Path, keys: dict[str, Any]) -> list[tuple[int, str, str, list[int], int, int]]:
    """Every die of every report of the game, opened with its side's key: (entry, side, where,
    stream, value, index)."""
    out = []
    for e in range(len(list((game_dir / "ledger").glob("*.toml")))):
        for side in SIDES:
            path = game_dir / "reports" / f"{e:04d}-{side}.pbem"
            if path.exists():
                report = core_game.open_report(path, keys[side], game_dir)
                out += [(e, side, where, stream, value, index) for stream, value, index, where in dice_of(report)]
    return out


def finished_hammer_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Braveheart game between random bots (``keys/`` and ``game/`` in the folder returned),
    played once per test run and shared by the tests that read its dice and draws (read it, never write
    it: copy it first). The keys are fresh, so the dice differ on every run and a short game may roll
    100 or fewer (a run drew one with 86): such a game is put aside and the next seed played, up to five."""
    def play(root: Path) -> Path:
        for attempt in range(5):
            folder = root / f"game-{attempt}"
            summary = play_bot_game(folder, "braveheart", bot={"england": "random", "scotland": "random"},
                                    seed=b"dice" + (b"-%d" % attempt if attempt else b""))
            assert summary.winner and summary.verified and summary.audited
            keys = {n: identity.load_private(folder / "keys" / f"{n}.key") for n in SIDES}
            if len(every_die(folder / "game", keys)) > 100:
                break
        return folder
    return run_once(tmp_path_factory, "finished-hammer-game", play)
