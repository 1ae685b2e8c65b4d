"""docs/random-stream.md and docs/protocol.md §8, read as a third party reads them: every die
shown in every report of a finished game is recomputed from the reveal bundle and the public
folder with code written here from the text alone (its own HMAC-SHA256 stream and its own seed
derivation), never with pbem.core.drbg, pbem.core.beacon or the engine's random code.

The game is a real one (``pbem demo``'s bot game through sealed files, with fresh keys and game
id, so a new game each run); the reports are opened with each side's key, as the player would.
Whether that game pauses a battle for a question is chance: tests/hammer/test_random_stream_replay.py
checks the replay of a paused call with its old key on a battle that always pauses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_draws_from_the_text import LIMIT_D6, Stream, key_of, seeds

from pbem.core import audit as audit_mod
from pbem.core import game as core_game
from pbem.core import identity
from pbem.hammer.play.demo import play_bot_game

SIDES = ("england", "scotland")

# The stream, the seeds and the key a line's "stream" names, written from the text alone, are the
# ones of the draws test (the same game read with the reveal bundle's keys instead of the players').

# --- the dice a report shows -------------------------------------------------------------------------

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


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """A finished game with more than 100 dice in its reports. The keys are fresh, so the dice
    differ on every run and a short game may roll fewer (a run of this test drew one with 86): such a game
    is put aside and the next seed played, up to five games."""
    for attempt in range(5):
        folder = tmp_path_factory.mktemp("dice")
        summary = play_bot_game(folder, "braveheart", bot={"england": "random", "scotland": "random"},
                                seed=b"dice" + (b"-%d" % attempt if attempt else b""))
        assert summary.winner and summary.verified and summary.audited
        keys = {n: identity.load_private(folder / "keys" / f"{n}.key") for n in ("referee", *SIDES)}
        if len(every_die(folder / "game", keys)) > 100:
            break
    return folder / "game", audit_mod.make_reveal(folder / "game", keys["referee"]), keys


@pytest.mark.slow
def test_random_stream_every_die_of_a_finished_game_is_recomputed_from_the_text(finished: Any) -> None:
    game_dir, bundle, keys = finished
    manifest, entries, seed = seeds(game_dir, bundle)
    for e, entry in enumerate(entries[1:], start=1):
        owed = [s for s in manifest["sides"] if s in entries[e - 1]["owes"]]
        given = bundle["orders"].get(f"{e - 1:04d}", {})
        assert [s for s in owed if s not in given] == sorted(entry.get("defaulted", []))
    checked = 0
    for e, side, where, stream, value, index in every_die(game_dir, keys):
        assert 1 <= stream[0] <= e, (e, side, where)
        w = Stream(key_of(stream, seed), index).word()
        assert w < LIMIT_D6 and w % 6 + 1 == value, (e, side, where, stream, index)
        checked += 1   # dice of a call resumed after a decision (at < e) included
    assert checked > 100
