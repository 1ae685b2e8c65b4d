"""2.0, 3.0, 4.5, 9.0: a side's view reads the board from one tally of the blocks (``views.Board``);
every fact it gives is the state's own answer (``GameState.control``, ``pool``, ``nobles_of``,
``blocks_of``, ``blocks_in``), at every step of whole games; and a view is plain data of its own,
so the two reports of a step share nothing and need no copy."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.hammer.play.bots import random_game
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.board import board
from pbem.hammer.rules.plaindata import plain
from pbem.hammer.rules.state import DEAD, OFF_MAP, PLACES, GameState, Options
from pbem.hammer.show.views import Board


def _containers(data: Any) -> list[Any]:
    """Every dict and list inside ``data`` (tuples would fail ``_plain_exactly``)."""
    out: list[Any] = []
    if isinstance(data, dict):
        out.append(data)
        for v in data.values():
            out += _containers(v)
    elif isinstance(data, (list, tuple)):
        out.append(data)
        for v in data:
            out += _containers(v)
    return out


def _plain_exactly(data: Any) -> bool:
    kind = type(data)
    if kind is dict:
        return all(type(k) is str and _plain_exactly(v) for k, v in data.items())
    if kind is list:
        return all(_plain_exactly(v) for v in data)
    return kind in (str, int, bool, type(None))


def _check(state: GameState, step: str) -> None:
    shown = Board(state)
    views = {side: shown.view(side) for side in SIDES}
    for side, v in views.items():
        assert v["control"] == {a: state.control(a) for a in board().area_names()}  # 4.5
        assert v["counts"] == {a: {s: len(state.blocks_in(a, s)) for s in SIDES}
                               for a in sorted({b.location for b in state.blocks.values()} - set(PLACES))}
        assert v["pool"] == state.pool(side) and v["pool_sizes"] == {s: len(state.pool(s)) for s in SIDES}
        assert v["own_nobles"] == state.nobles_of(side)  # 9.0
        assert v["nobles"] == {s: len(state.nobles_of(s)) for s in SIDES}
        assert v["dead"] == {s: state.blocks_of(s, DEAD) for s in SIDES}
        assert v["off_map"] == {s: state.blocks_of(s, OFF_MAP) for s in SIDES}
        assert [b["area"] for b in v["battles"]] == sorted(state.current.battles)
        for b in v["battles"]:
            assert b["blocks"] == {s: len(state.blocks_in(b["area"], s)) for s in SIDES}
        assert _plain_exactly(v) and v == plain(v)
    # Each view is its own: no dict or list is shared between the two sides' views.
    england, scotland = ({id(c) for c in _containers(views[s])} for s in SIDES)
    assert not england & scotland


@pytest.mark.parametrize("sid", ["braveheart", "the_bruce"])
def test_2_0_the_tallied_board_gives_the_states_own_answers(sid: str) -> None:
    random_game(sid, 2, Options(), after_step=_check, until_year=1300 if sid == "braveheart" else 1308)
