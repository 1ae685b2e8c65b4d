"""The committed state's plain data (state.py): the hand-written to_dict / from_dict / copy give
exactly what the generic dataclasses walk gave, key for key, in the same order, at every step of
whole games of each scenario, and a copy shares nothing mutable with its original."""

from __future__ import annotations

import copy
import json
from dataclasses import asdict
from typing import Any

import pytest

from pbem.hammer.bots import random_game
from pbem.hammer.state import Battle, GameState, Options
from pbem.hammer.winter_progress import WinterProgress, winter_data


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
    """The generic dataclass walk, the Winter Turn's record in its data form (winter_progress.py)."""
    out = asdict(state)
    out["winter"] = winter_data(state.winter)
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
    twin.current.fight.setdefault("log", []).append({"x": 1})
    for v in twin.current.fight.values():
        if isinstance(v, list):
            v.append("x")
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
    g.current.fight = {"area": "Fife", "log": [{"what": "fire", "dice": [1, 2]}], "pair": (1, 2)}
    g.winter = WinterProgress(done=["a"], edward="Fife", final=True)
    _check(g, "built")
    assert copy.deepcopy(g).to_dict() == g.copy().to_dict()
