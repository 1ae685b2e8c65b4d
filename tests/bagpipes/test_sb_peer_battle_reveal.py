"""A reveal question to several owners at once (docs/protocol.md §13.10, "a question may ask several owners"):
Swords and Bagpipes' Battle shows every laid choice token together [SB-5.4], so one pause asks every seat that
laid one, each seat's ``open`` answers it in the same trip, a seat that does not open alone forfeits, and an
open that does not open its token convicts its seat. Three seats through the real files (one folder each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.bagpipes.peerdemo import seat_folders, simple_bot
from pbem.core.errors import LedgerError
from pbem.core.peer import autoplay, folder, message

SEED = b"battle-reveal-seed"


def _asks_many(out: folder.Outcome) -> bool:
    return bool(out.resume.get("question", {}).get("also"))


def _to_shared_pause(tmp_path: Path) -> tuple[dict[str, Path], dict[str, Any], autoplay.Played]:
    """Three seats play until a pause asks two seats or more at once (the first Battle)."""
    dirs, keys = seat_folders(tmp_path, 3)
    played = autoplay.play(dirs, keys, simple_bot(3, SEED), until=_asks_many)
    assert _asks_many(played.outcome), "no Battle asked several seats at once"
    return dirs, keys, played


def _asked(out: folder.Outcome) -> dict[str, str]:
    q = out.resume["question"]
    return {a["owner"]: a["label"] for a in [q, *q["also"]]}


def _entries(d: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((d / "ledger").iterdir())]


def test_protocol_13_10_the_battle_asks_every_laid_token_in_one_pause_answered_in_one_trip(tmp_path: Path) -> None:
    """The pause names every seat that laid a token, with its label; each owes its open; all the opens go in one trip
    (one clock) and the step that resumes uses every one of them."""
    dirs, keys, played = _to_shared_pause(tmp_path)
    out = played.outcome
    asked = _asked(out)
    assert len(asked) >= 2 and out.owes == {s: "open" for s in asked}
    assert all(label.startswith(f"hidden.{s}.") for s, label in asked.items())
    status = folder.describe(out, len(out.entries))
    assert all(f"{s} to reveal {label}" in status for s, label in asked.items()), status
    pause = len(out.entries) - 1
    autoplay.run(dirs, keys, simple_bot(3, SEED), played.clock, limit=1)
    first = next(iter(dirs.values()))
    opens = [m for m in folder.messages(first, folder.manifest(first)) if m.phase == "open" and m.step == pause + 1]
    assert sorted(m.side for m in opens) == sorted(asked) and len({m.clock for m in opens}) == 1
    autoplay.run(dirs, keys, simple_bot(3, SEED), played.clock + 60, until=lambda o: len(o.entries) > pause + 1
                 and any(e["kind"] == "step" for e in map(json.loads, o.entries[pause + 1:])))
    resumed = next(e for e in _entries(first)[pause + 1:] if e["kind"] == "step")  # after any later pause
    assert {m.hash for m in opens} <= set(resumed["messages"]) and set(asked.values()) <= set(resumed["revealed"])


def test_protocol_13_5_a_seat_that_does_not_open_its_token_in_a_shared_pause_alone_forfeits(tmp_path: Path) -> None:
    """One asked seat stays silent; the others open; after the deadline a claim ends the game with the silent seat's
    forfeit alone: the seats that answered are never named."""
    dirs, keys, played = _to_shared_pause(tmp_path)
    silent, *answering = sorted(_asked(played.outcome))
    played = autoplay.run(dirs, keys, simple_bot(3, SEED), played.clock, quiet=(silent,))
    claimant = answering[0]
    out = folder.outcome(dirs[claimant])
    assert out.owes == {silent: "open"}
    with pytest.raises(LedgerError, match="deadline"):
        folder.write_owed(dirs[claimant], keys[claimant], None, played.clock)
    _, claim = folder.write_owed(dirs[claimant], keys[claimant], None, played.clock + 49 * 3600)
    autoplay.send(dirs, claimant, claim)
    last = _entries(dirs[claimant])[-1]
    assert last["kind"] == "forfeit" and last["forfeit"] == [silent], last


def test_protocol_13_10_an_open_that_does_not_open_the_token_asked_of_its_seat_convicts_it(tmp_path: Path) -> None:
    """An asked seat answers the shared pause with an open that opens nothing (a modified client hiding its token):
    every other seat's record convicts it at that step."""
    dirs, keys, played = _to_shared_pause(tmp_path)
    asked = _asked(played.outcome)
    liar = sorted(asked)[0]
    out = folder.outcome(dirs[liar])
    man = folder.manifest(dirs[liar])
    text = message.write(keys[liar], man.game, liar, len(out.entries), folder.entry_hash(out.entries[-1]), "open",
                         played.clock, {"openings": []})
    autoplay.send(dirs, liar, text)
    other = next(s for s in dirs if s != liar)
    verdict = folder.outcome(dirs[other]).verdict
    assert verdict.startswith(f"{liar} cheated at step {len(out.entries)}: its open message does not open "
                              f"{asked[liar]}, which the rules ask"), verdict
