"""The Winter Turn in progress (7.0: resumable, step by step) as a typed record: ``WinterProgress``
(winter_progress.py) gives exactly the data form the ledger's state has always carried, key for
key, over the winter states of real games: paused at every winter question (pause_points.py),
and ended by the count of the scenario's last winter (9.0)."""

from __future__ import annotations

import json
from typing import Any

from hammer.pause_points import pause_points

from pbem.hammer.play.bots import random_game
from pbem.hammer.rules.state import GameState, Options
from pbem.hammer.rules.winter_progress import WinterProgress, winter_data


def _games(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every game a ruleset state holds: as it stands, paused at a question, and before the call."""
    out = [state["game"]]
    if state.get("paused"):
        out.append(state["paused"])
    if state.get("resume"):
        out.append(state["resume"]["game"])
    return out


def _exact(data: dict[str, Any]) -> None:
    record = WinterProgress.from_data(data)
    assert json.dumps(winter_data(record)) == json.dumps(data)  # same keys, values and key order
    if record is not None:
        assert WinterProgress.from_data(record.to_data()) == record


def test_7_0_winter_progress_round_trips_at_every_pause_of_real_games() -> None:
    winters = [g["winter"] for paused in pause_points().values() for p in paused for g in _games(p.state)]
    begun = [w for w in winters if w]
    assert begun and any("edward" in w for w in begun) and any(len(w.get("done", [])) > 3 for w in begun)
    for data in winters:
        _exact(data)
    for paused in pause_points().values():
        for p in paused:
            for game in _games(p.state):
                assert GameState.from_dict(game).to_dict() == game


def test_7_0_outside_winter_the_state_holds_no_record_and_writes_an_empty_table() -> None:
    assert WinterProgress.from_data({}) is None and winter_data(None) == {}
    g = GameState(scenario="braveheart", year=1297)
    assert g.winter is None and g.to_dict()["winter"] == {}


def test_9_0_a_game_ended_by_the_count_keeps_its_final_winter_record() -> None:
    ended = [s for s in (random_game("braveheart", seed, Options()) for seed in range(8)) if s.winter is not None]
    assert ended, "some game is decided by the last winter's count (9.0)"
    for state in ended:
        assert state.winter is not None and state.winter.final and state.winter.done[-1] == "9.0"
        data = state.to_dict()["winter"]
        assert list(data) == ["done", "edward", "final"] and data["final"] is True
        _exact(data)
        assert GameState.from_dict(state.to_dict()).winter == state.winter


def test_7_0_a_copy_of_a_winter_in_progress_shares_nothing() -> None:
    g = GameState(scenario="braveheart", year=1297, winter=WinterProgress(done=["7.1"], edward=""))
    twin = g.copy()
    assert twin.winter == g.winter and twin.winter is not g.winter
    assert twin.winter is not None and g.winter is not None
    twin.winter.done.append("7.2")
    assert g.winter.done == ["7.1"] and g.to_dict()["winter"] == {"done": ["7.1"], "edward": ""}
