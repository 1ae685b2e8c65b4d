"""The committed state's plain data (state.py): the hand-written to_dict / from_dict / copy give
exactly what the generic dataclasses walk gave, key for key, in the same order, at every step of
whole games of each scenario, and a copy shares nothing mutable with its original. The battle in
progress is a record with its own data form (battle_state.py): the walk is taken with it."""

from __future__ import annotations

import copy
import json
from dataclasses import asdict
from typing import Any

import pytest

from pbem.hammer.play.bots import random_game
from pbem.hammer.rules.battle_state import Fight, Hits, fight_data
from pbem.hammer.rules.log import PUBLIC, entry
from pbem.hammer.rules.state import Battle, GameState, Options
from pbem.hammer.rules.winter_progress import WinterProgress, winter_data


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types and the same key order all the way down."""
    return json.dumps(a) == json.dumps(b) and _types(a) == _types(b)


def _types(data: Any) -> Any:
    if isinstance(data, dict):
        return [(k, _types(v)) for k, v in data.items()]
    if isinstance(data, (list, tuple)):
        return [type(data).__name__, [_types(v) for v in data]]
    return type(data).__name__


def _walk(state: GameState) -> dict[str, Any]:
    """The generic dataclass walk, the Winter Turn and the battle in progress in their data forms."""
    out = asdict(state)
    out["winter"] = winter_data(state.winter)
    out["current"]["fight"] = fight_data(state.current.fight)
    return out


def _check(state: GameState, step: str) -> None:
    plain = state.to_dict()
    assert _same(plain, _walk(state)), step
    again = GameState.from_dict(plain)
    assert _same(again.to_dict(), plain) and again.hash() == state.hash(), step
    twin = state.copy()
    assert _same(twin.to_dict(), plain), step
    # Nothing mutable shared: change everything in the copy, the original stays as it was.
    for b in twin.blocks.values():
        b.location, b.strength = "pool", 0
    twin.deck.append("x")
    for v in [*twin.hands.values(), *twin.played.values()]:
        v.append("x")
    twin.current.moved.append("x")
    twin.current.cards["x"] = "x"
    twin.current.crossings["x"] = 1
    for battle in twin.current.battles.values():
        battle.main.append("x")
        battle.entered.setdefault("x", []).append("x")
    f = twin.current.fight
    if f is not None:
        for v in (f.line, f.reserves, f.captured, f.order, f.queue, f.revealed):
            v.append("x")
        f.used["x"], f.lost["x"], f.round, f.stage = 9, 9, 9, "done"
        if f.pending is not None:
            f.pending.targets.append("x")
            f.pending.left = 9
        for e in f.log:
            e.facts["x"] = 1
            for v in e.facts.values():
                if isinstance(v, list):
                    v.append("x")
        f.log.append(entry("x", None, PUBLIC))
    if twin.winter is not None:
        twin.winter.done.append("x")
    assert _same(state.to_dict(), plain), step
    assert _same(plain, _walk(state)), step


@pytest.mark.parametrize("sid", ["braveheart", "the_bruce", "campaign"])
def test_state_plain_data_and_copy_match_the_dataclass_walk_at_every_step(sid: str) -> None:
    random_game(sid, 3, Options(schiltroms=True), after_step=_check, until_year=1310)


def test_state_copy_keeps_a_battle_in_progress_and_a_winter_in_progress_apart() -> None:
    g = GameState(scenario="braveheart", year=1297)
    g.current.battles["Fife"] = Battle(area="Fife", attacker="england", main=["Edward"], entered={"england": ["a"]})
    g.current.fight = Fight(area="Fife", attacker="england", defender="scotland", original_attacker="england",
                            line=["Edward", "Wallace"], pending=Hits(2, "Edward", ["Wallace"], "scotland"),
                            used={"england|Angus-Fife": 1}, lost={"england": 0, "scotland": 1},
                            log=[entry("fire", "england", PUBLIC, dice=[{"value": 1, "index": 0, "hit": True}])])
    g.winter = WinterProgress(done=["a"], edward="Fife", final=True)
    _check(g, "built")
    assert copy.deepcopy(g).to_dict() == g.copy().to_dict()
