"""A state or order is read into records by a reader built once per type (``model.from_data``); the
reference reader (``model._explain``) stays, to name where malformed data fails (protocol §3: one clear
sentence). Both must agree on every record and every refusal. And a table is copied for each step and
each trial by ``model.copy_record``, which must make what ``copy.deepcopy`` made (docs/performance.md
"Test suite")."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from bp_support import COMPS, new, rng

from pbem.bagpipes import engine, rules
from pbem.bagpipes.engine import default_order
from pbem.bagpipes.model import Order, Phase, Table, _explain, copy_record, from_data, order_data, to_data
from pbem.bagpipes.play import play_engine_game
from pbem.bagpipes.rules import step
from pbem.core.errors import FormatError


def _states(players: int) -> list[dict[str, Any]]:
    """The data form of every table of one game played with every seat's default order."""
    t = new(players, seed=f"reader-{players}")
    states = [to_data(t)]
    while t.phase != Phase.OVER and t.step < 400:
        orders = {side: default_order(t, side, kind) for side, kind in sorted(t.pending.owes.items())}
        t = step(t, COMPS, orders, rng(f"reader-{players}-{t.step}"))
        states.append(to_data(t))
    return states


def _outcome(kind: Any, data: Any, read: Any) -> str:
    try:
        return repr(read(kind, copy.deepcopy(data), "state"))   # repr tells an enum from its text
    except (FormatError, TypeError, ValueError, KeyError) as exc:
        return f"{type(exc).__name__}: {exc}"


def _spoiled(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Malformed copies of a state: a stray field, a missing one, a wrong type at each depth."""
    for key in sorted(data)[:12]:
        bad = copy.deepcopy(data)
        del bad[key]
        yield bad
        for wrong in ("7", 7, True, None, [], {}):
            bad = copy.deepcopy(data)
            bad[key] = wrong
            yield bad
    bad = copy.deepcopy(data)
    bad["stray"] = 1
    yield bad
    seat = copy.deepcopy(data)
    seat["seats"][0]["gold"] = "lots"
    yield seat
    seat = copy.deepcopy(data)
    seat["seats"][-1]["stray"] = 0
    yield seat
    seat = copy.deepcopy(data)
    seat["seats"][0]["hand"] = [1]
    yield seat
    phase = copy.deepcopy(data)
    phase["phase"] = "lunch"
    yield phase


@pytest.mark.parametrize("players", [2, 6])
def test_SB_state_every_table_of_a_game_reads_alike_by_both_readers(players: int) -> None:
    states = _states(players)
    assert len(states) > 5 and states[-1]["phase"] == Phase.OVER.value
    for data in states:
        fast = from_data(Table, copy.deepcopy(data))
        assert repr(fast) == repr(_explain(Table, copy.deepcopy(data)))
        assert to_data(fast) == data   # and the record's data form is the data read


def test_SB_state_a_malformed_state_is_refused_with_the_reference_sentence() -> None:
    states = _states(4)
    refused = 0
    for data in (states[1], states[len(states) // 2]):
        for bad in _spoiled(data):
            got, want = _outcome(Table, bad, from_data), _outcome(Table, bad, _explain)
            assert got == want
            refused += got.startswith("FormatError")
    assert refused > 40


def test_SB_orders_every_default_order_and_its_spoiled_forms_read_alike_by_both_readers() -> None:
    t = new(6, seed="reader-orders")
    seen = 0
    while t.phase != Phase.OVER and t.step < 400:
        orders = {side: default_order(t, side, kind) for side, kind in sorted(t.pending.owes.items())}
        for body in (order_data(o) for o in orders.values()):
            for variant in (body, {**body, "round": "one"}, {**body, "kind": "dance"}, {**body, "stray": 1},
                            {k: v for k, v in body.items() if k != "round"}):
                assert _outcome(Order, variant, from_data) == _outcome(Order, variant, _explain)
                seen += 1
        t = step(t, COMPS, orders, rng(f"reader-orders-{t.step}"))
    assert seen > 100


def _holding(value: Any, path: str = "t", out: dict[str, int] | None = None) -> dict[str, int]:
    """Path -> id of every list, table and record reachable from ``value`` (an object held twice has
    two paths with one id)."""
    out = {} if out is None else out
    if isinstance(value, (list, dict)) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        out[path] = id(value)
        items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) \
            else value.__dict__.items()
        for key, item in items:
            _holding(item, f"{path}.{key}", out)
    elif isinstance(value, tuple):
        for key, item in enumerate(value):
            _holding(item, f"{path}.{key}", out)
    return out


def _sharing(value: Any) -> list[tuple[str, int]]:
    """Which paths hold the same object: each path with the rank of its object's first path."""
    first: dict[int, int] = {}
    return [(path, first.setdefault(i, len(first))) for path, i in _holding(value).items()]


@pytest.mark.parametrize("players,games", [(2, 3), pytest.param(4, 2, marks=pytest.mark.slow),   # 2-3 s each
                                           pytest.param(6, 1, marks=pytest.mark.slow)])
def test_SB_state_a_table_copy_is_what_deepcopy_made_and_shares_nothing_with_the_table(
        players: int, games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every copy of bot games (each step's and each trial's) is deepcopy's: equal, holding the same
    object at the same paths (a ruling due is held twice), sharing nothing mutable with the table but
    the fields a trial hands over; and the games end as they did with deepcopy."""
    copies = shared = 0

    def checked(t: Table, keep: dict[str, Any] | None = None) -> Table:
        nonlocal copies, shared
        new = copy_record(t, keep)
        old = copy.deepcopy(t, {id(getattr(t, k)): v for k, v in (keep or {}).items()})
        assert repr(new) == repr(old)
        assert _sharing(new) == _sharing(old)
        kept = {i for v in (keep or {}).values() for i in _holding(v).values()}
        assert not (set(_holding(new).values()) - kept) & set(_holding(t).values()), "the copy shares a list"
        copies += 1
        shared += len(set(_holding(t).values())) < len(_holding(t))
        return new

    def deep(t: Table, keep: dict[str, Any] | None = None) -> Table:
        return copy.deepcopy(t, {id(getattr(t, k)): v for k, v in (keep or {}).items()})

    seeds = [f"copy-{players}-{i}".encode() for i in range(games)]
    monkeypatch.setattr(rules, "copy_record", checked)
    monkeypatch.setattr(engine, "copy_record", checked)
    fast = [play_engine_game(players, seed, "random", {"stay_home": players == 6}) for seed in seeds]
    monkeypatch.setattr(rules, "copy_record", deep)
    monkeypatch.setattr(engine, "copy_record", deep)
    slow = [play_engine_game(players, seed, "random", {"stay_home": players == 6}) for seed in seeds]
    assert [repr(g) for g in fast] == [repr(g) for g in slow]
    assert copies > 50 and all(not g.problems for g in fast)
    assert shared > 0 or players != 2   # the 2-clan games hold a ruling due twice: the memo is exercised
