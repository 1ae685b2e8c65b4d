"""Log lines as typed records (pbem.hammer.rules.log, docs/reports.md "Who sees a log entry"): every line
of real bot games round-trips both ways, record -> data -> record and data -> record -> data, and
the lines the card, move, Event, king and winter rules write state who may see them apart from
whose act they record (2.0: the fog of war lives in ``visibility``, never in the actor)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from pbem.hammer.play import bots
from pbem.hammer.rules import engine
from pbem.hammer.rules.log import PRIVATE, PRIVATE_UNMARKED, PUBLIC, LogEntry, Plain
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import Options

RULES_LINES = {"cards", "moves", "event", "winter", "edward_ii"}  # by cardphase, movement, events, winter, kings


GAMES = [(sc, seed) for sc in ("braveheart", "the_bruce", "campaign") for seed in range(2)]


@cache
def _game_log(scenario: str, seed: int) -> list[Any]:
    label = f"{scenario}|{seed}"
    state = setup(scenario, Options(), bots.game_stream(label, "setup"))
    players = {"england": bots.RandomPlayer(2 * seed), "scotland": bots.RandomPlayer(2 * seed + 1)}
    return engine.play_game(state, players, lambda k: bots.game_stream(label, k), until_year=1310)


def _all_lines() -> list[Any]:
    return [e for game in GAMES for e in _game_log(*game)]


@pytest.mark.parametrize("game", GAMES)
def test_log_data_form_every_line_of_a_bot_game_round_trips_through_its_record(game: tuple[str, int]) -> None:
    for line in _game_log(*game):
        assert isinstance(line, LogEntry), line  # every line is written as a record, none in its data form
        data = line.to_data()
        assert LogEntry.from_data(data) == line, data
        again = LogEntry.from_data(data).to_data()
        assert json.dumps(again) == json.dumps(data), data  # same keys, values and key order


def test_2_0_the_rules_modules_lines_are_records_with_their_visibility_stated() -> None:
    lines = _all_lines()
    ours = [e for e in lines if isinstance(e, LogEntry)]
    assert {e.what for e in ours} >= RULES_LINES
    assert not [e for e in lines if not isinstance(e, LogEntry) and e.get("what") in RULES_LINES]
    for e in ours:
        if e.what == "winter" or (e.what == "event" and e.visibility == PUBLIC):
            # Public winter and Event lines name no side ("side": ""); a private one names its owner.
            assert (e.actor == "") == (e.visibility == PUBLIC) and e.visibility in (PUBLIC, PRIVATE), e
        if e.what in ("cards", "edward_ii"):
            assert e.actor is None and e.visibility == PUBLIC and "side" not in e.to_data()


def test_4_2_a_group_move_writes_a_private_line_without_public_key_and_a_public_twin() -> None:
    moves = [e for e in _all_lines() if isinstance(e, LogEntry) and e.what == "moves"]
    private = [e for e in moves if e.visibility == PRIVATE_UNMARKED]
    public = [e for e in moves if e.visibility == PUBLIC]
    assert private and len(private) == len(public)
    for mine, seen in zip(private, public):
        assert mine.actor == seen.actor and mine.facts["from"] == seen.facts["from"]
        assert "public" not in mine.to_data() and "parts" in mine.facts
        assert seen.to_data()["public"] is True and "parts" not in seen.facts


@pytest.mark.parametrize("facts", [{"step": "7.1", "noble": "Mar", "home": "Mar", "owner": "scotland"},
                                   {"step": "7.62", "area": "Fife", "drawn": "Douglas"}])
def test_7_0_winter_lines_keep_their_old_data_form(facts: dict[str, Plain]) -> None:
    public = LogEntry("winter", "", PUBLIC, dict(facts)).to_data()
    private = LogEntry("winter", "scotland", PRIVATE, dict(facts)).to_data()
    assert public == {"what": "winter", "public": True, "side": "", **facts}
    assert private == {"what": "winter", "public": False, "side": "scotland", **facts}
    assert LogEntry.from_data(public).visibility == PUBLIC and LogEntry.from_data(private).visibility == PRIVATE
