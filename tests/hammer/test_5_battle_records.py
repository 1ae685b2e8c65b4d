"""The battle in progress and the battle's log lines as typed records (docs/battles.md "Pausing and
resuming", "The log"): each has a data form, the one the ledger's state and the reports have
always carried, and the record and its data form round-trip exactly over the paused battles and
the battle logs of real games. Who may see a battle line is its own stated field."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from fakes import bare_state, put
from hammer.pause_points import pause_points

from pbem.hammer.play import bots
from pbem.hammer.rules import engine
from pbem.hammer.rules.battle import border_raid
from pbem.hammer.rules.battle_state import Fight, fight_data, fight_of
from pbem.hammer.rules.decisions import Scripted
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, as_entry, redacted
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import GameState, Options
from pbem.hammer.show.battle_log import format_entry

BATTLE_LINES = frozenset({"battle", "reveal", "celtic", "control", "fire", "hit", "eliminated", "retreat",
                          "no_retreat", "pass", "regroup", "battle_end", "border_raid"})


def _exactly(a: Any, b: Any) -> bool:
    """Equal, key order and types included (what the ledger hashes is the canonical form, but a
    record that reorders or retypes its data is still not giving the old data back)."""
    return json.dumps(a) == json.dumps(b) and a == b


def _paused_fights() -> list[dict[str, Any]]:
    """The paused game states (the ledger's data form) of the pause-point games that wait inside a battle."""
    out = []
    for found in pause_points().values():
        for p in found:
            paused = p.state.get("paused") or {}
            if (paused.get("current") or {}).get("fight"):
                out.append(paused)
    return out


@cache
def _bot_logs() -> tuple[tuple[LogEntry | dict[str, Any], ...], ...]:
    """The whole logs of bot games of each scenario, as the engine returns them."""
    logs = []
    for scenario in ("braveheart", "the_bruce", "campaign"):
        for seed in range(2):
            label = f"records|{scenario}|{seed}"
            state = setup(scenario, Options(schiltroms=seed == 1), bots.game_stream(label, "setup"))
            players = {"england": bots.RandomPlayer(2 * seed), "scotland": bots.RandomPlayer(2 * seed + 1)}
            logs.append(tuple(engine.play_game(state, players, lambda k: bots.game_stream(label, k))))
    return tuple(logs)


def _raids() -> list[LogEntry]:
    """Border raids (5.9), which bot games hardly ever make: one with a loss, one with only nobles to lose."""
    state = bare_state()
    put(state, "scotland", "England", "Campbell")
    put(state, "england", "Fife", "Hobelars")
    put(state, "england", "England", "York Infantry")
    lines = border_raid(state, Scripted({"england": ["Hobelars"]}))
    nobles = bare_state()
    put(nobles, "scotland", "England", "Campbell")
    put(nobles, "england", "Mar", "Mar")
    return lines + border_raid(nobles, Scripted())


def _battle_lines() -> list[LogEntry]:
    lines = [e for log in _bot_logs() for e in log if as_entry(e).what in BATTLE_LINES]
    assert all(isinstance(e, LogEntry) for e in lines), "every battle line is written as a record"
    return [e for e in lines if isinstance(e, LogEntry)] + _raids()


# --- the battle in progress (docs/battles.md "Pausing and resuming") -----------------------------------

def test_5_battle_in_progress_round_trips_to_its_data_form() -> None:
    paused = _paused_fights()
    stages = {p["current"]["fight"]["stage"] for p in paused}
    assert len(paused) > 50 and {"turns", "regroup", "forced_retreat"} <= stages
    assert any(p["current"]["fight"]["pending"] for p in paused)      # paused on a tied hit (5.41)
    assert any(p["current"]["fight"]["reserves"] for p in paused)     # reserves not yet arrived (5.32)
    for data in paused:
        fight = Fight.from_data(data["current"]["fight"])
        assert _exactly(fight.to_data(), data["current"]["fight"])
        assert Fight.from_data(fight.to_data()) == fight
        game = GameState.from_dict(data)
        assert game.current.fight == fight
        assert _exactly(game.to_dict(), data) and _exactly(game.copy().to_dict(), data)


def test_5_no_battle_in_progress_is_none_and_its_data_form_empty() -> None:
    for found in pause_points().values():
        for p in found[:3]:
            game = GameState.from_dict(p.state["game"])   # between steps: every battle fought to its end
            assert game.current.fight is None and game.to_dict()["current"]["fight"] == {}
    assert fight_of({}) is None and fight_data(None) == {}


def test_5_a_copied_battle_in_progress_shares_nothing_with_the_original() -> None:
    data = next(p for p in _paused_fights() if p["current"]["fight"]["pending"])
    game = GameState.from_dict(data)
    twin = game.copy()
    f = twin.current.fight
    assert f is not None and f.pending is not None and f.log
    for group in (f.line, f.reserves, f.captured, f.order, f.queue, f.revealed, f.pending.targets):
        group.append("x")
    f.used["x"], f.lost["x"], f.pending.left, f.index = 9, 9, 9, 99
    f.log[0].facts["x"] = 1
    f.log.append(LogEntry("x", None, PUBLIC))
    assert _exactly(game.to_dict(), data)


# --- the log (docs/battles.md "The log") ----------------------------------------------------------------

def test_5_every_battle_log_line_round_trips_between_record_and_data_form() -> None:
    lines = _battle_lines()
    assert {e.what for e in lines} >= {"battle", "reveal", "fire", "hit", "eliminated", "retreat", "pass",
                                       "regroup", "battle_end", "border_raid"}
    for e in lines:
        data = e.to_data()
        assert LogEntry.from_data(data) == e
        assert _exactly(LogEntry.from_data(data).to_data(), data)


def test_5_paused_battle_logs_round_trip_from_their_data_form() -> None:
    for paused in _paused_fights():
        for data in paused["current"]["fight"]["log"]:
            assert _exactly(LogEntry.from_data(data).to_data(), data)


@pytest.mark.parametrize("what, visibility", [
    ("retreat", {redacted("to")}),                           # the enemy does not see where (5.5)
    ("regroup", {redacted("to"), redacted("block", "to")}),  # nor where, nor which reserve it never saw (5.6)
    ("border_raid", {PUBLIC, PRIVATE}),                      # public: a block went; England's: which (5.9)
    ("fire", {PUBLIC}), ("hit", {PUBLIC}), ("eliminated", {PUBLIC}), ("reveal", {PUBLIC}),
    ("battle", {PUBLIC}), ("battle_end", {PUBLIC}), ("pass", {PUBLIC}),
])
def test_5_a_battle_line_states_who_may_see_it(what: str, visibility: set[Any]) -> None:
    lines = [e for e in _battle_lines() if e.what == what]
    assert lines and {e.visibility for e in lines} <= visibility
    for e in lines:
        assert e.actor or what in ("battle", "battle_end", "control", "border_raid")
    if what == "border_raid":
        assert all(("block" in e.facts) == (e.visibility == PRIVATE and e.actor == "england") for e in lines)


def test_5_a_battle_line_reads_the_same_from_its_record_and_from_its_data_form() -> None:
    for e in _battle_lines():
        assert format_entry(e) == format_entry(e.to_data())
