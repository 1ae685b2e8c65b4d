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

import shutil
from pathlib import Path
from typing import Any

import pytest
from e2e_support import SIDES, every_die, finished_hammer_game
from test_draws_from_the_text import LIMIT_D6, Stream, key_of, seeds

from pbem.core import audit as audit_mod
from pbem.core import identity

# The stream, the seeds and the key a line's "stream" names, written from the text alone, are the
# ones of the draws test (the same game read with the reveal bundle's keys instead of the players').


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """The run's finished Hammer game with more than 100 dice (e2e_support.finished_hammer_game, shared
    with the draws test), copied here, with its players' and referee's keys and the reveal bundle."""
    folder = tmp_path_factory.mktemp("dice")
    shutil.copytree(finished_hammer_game(tmp_path_factory), folder, dirs_exist_ok=True)
    keys = {n: identity.load_private(folder / "keys" / f"{n}.key") for n in ("referee", *SIDES)}
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
