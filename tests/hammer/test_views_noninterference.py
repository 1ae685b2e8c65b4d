"""2.0 fog of war, 3.0, 5.5, 5.9, 7.62: a side's view (and its report bytes) depends only on
what the rules let it see. Non-interference: change any hidden fact and nothing it gets changes;
change a fact it may see and the view shows it."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.drbg import Drbg
from pbem.hammer.blocks import other_side, spec
from pbem.hammer.render import render_text
from pbem.hammer.ruleset import parse_options
from pbem.hammer.scenario import setup
from pbem.hammer.state import DEAD, OFF_MAP, POOL, GameState
from pbem.hammer.svg import render_svg
from pbem.hammer.views import public_board, view

SCENARIOS = ("braveheart", "the_bruce", "campaign")
_BASE: dict[tuple[str, int], GameState] = {}


def base(scenario: str, seed: int) -> GameState:
    if (scenario, seed) not in _BASE:
        _BASE[(scenario, seed)] = setup(scenario, parse_options({}), Drbg(seed.to_bytes(32, "big")))
    return _BASE[(scenario, seed)].copy()


def step_log(state: GameState, enemy: str, r: random.Random) -> list[dict[str, Any]]:
    """A step's log whose hidden parts depend on ``r``: what the engine writes for the enemy's
    secret moves, retreats, regroups, winter draws and border-raid losses."""
    names = sorted(n for n, b in state.blocks.items() if b.owner == enemy)
    areas = sorted({b.location for b in state.blocks.values()} - {POOL, DEAD, OFF_MAP})
    pick = lambda: r.choice(names)  # noqa: E731
    return [
        {"what": "moves", "side": enemy, "from": "Fife", "points": 1, "sea": False,
         "parts": [{"blocks": [pick(), pick()], "path": ["Fife", r.choice(areas)]}]},
        {"what": "moves", "side": enemy, "public": True, "from": "Fife", "to": {"Lennox": 2}, "sea": False},
        {"what": "retreat", "area": "Fife", "round": 2, "block": "Wallace", "side": enemy,
         "to": r.choice(areas), "forced": False, "sea": False, "public": False, "redact": ["to"], "rule": "5.5"},
        {"what": "regroup", "area": "Fife", "block": "Douglas", "side": enemy, "to": r.choice(areas),
         "public": False, "redact": ["to"], "rule": "5.6"},
        {"what": "winter", "public": False, "side": enemy, "step": "7.62", "area": "Fife", "drawn": pick()},
        {"what": "border_raid", "public": False, "side": enemy, "block": pick(), "from": r.choice(areas),
         "to": POOL, "rule": "5.9"},
        {"what": "event", "public": False, "side": enemy, "event": "victuals", "blocks": [pick()]},
        {"what": "discard", "side": enemy, "public": False, "cards": [r.choice(sorted(state.deck or ["x"]))]},
        {"what": "fire", "area": "Fife", "round": 1, "block": "Wallace", "side": enemy, "rating": "A3",
         "dice": [{"value": 3, "index": 7, "hit": True}], "hits": 1, "public": True, "rule": "5.4"},
    ]


def perturb(state: GameState, enemy: str, r: random.Random) -> None:
    """Change everything ``enemy``'s opponent may not see, keeping what it may."""
    def shuffle_locations(names: list[str]) -> None:
        places = [state.blocks[n].location for n in names]
        r.shuffle(places)
        for n, place in zip(names, places):
            b = state.blocks[n]
            b.location = place
            b.strength = r.randint(1, spec(n).steps) if place not in (POOL, DEAD, OFF_MAP) else r.randint(0, 4)

    mine = [n for n, b in sorted(state.blocks.items()) if b.owner == enemy and b.location not in (DEAD, OFF_MAP)]
    shuffle_locations([n for n in mine if not spec(n).is_noble])           # map and pool, counts kept
    shuffle_locations([n for n in mine if spec(n).is_noble])               # nobles stay on the map
    hidden_cards = sorted(state.hands.get(enemy, []) + state.deck)
    r.shuffle(hidden_cards)
    size = len(state.hands.get(enemy, []))
    state.hands[enemy], state.deck = hidden_cards[:size], hidden_cards[size:]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SCENARIOS), st.integers(0, 3), st.sampled_from(("england", "scotland")),
       st.integers(0, 2**32), st.integers(0, 2**32))
def test_2_0_a_view_never_depends_on_hidden_facts(scenario: str, seed: int, side: str, salt_a: int, salt_b: int) -> None:
    enemy = other_side(side)
    one, two = base(scenario, seed), base(scenario, seed)
    perturb(one, enemy, random.Random(salt_a))
    perturb(two, enemy, random.Random(salt_b))
    log_one, log_two = step_log(one, enemy, random.Random(salt_a)), step_log(two, enemy, random.Random(salt_b))
    v1, v2 = view(one, side, log_one), view(two, side, log_two)
    assert v1 == v2
    assert render_text(v1).encode() == render_text(v2).encode()
    assert render_svg(v1).encode() == render_svg(v2).encode()
    assert public_board(one, log_one) == public_board(two, log_two)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SCENARIOS), st.integers(0, 3), st.sampled_from(("england", "scotland")))
def test_2_0_a_view_shows_everything_its_side_may_see(scenario: str, seed: int, side: str) -> None:
    s = base(scenario, seed)
    enemy = other_side(side)
    v = view(s, side)
    text = render_text(v)
    own = {b["block"]: (b["area"], b["strength"]) for b in v["blocks"]}
    for name, b in s.blocks.items():
        if b.owner == side and b.location not in (POOL, DEAD, OFF_MAP):
            assert own[name] == (b.location, b.strength)
            assert f"{name} {b.strength}/{spec(name).steps}" in text
    assert v["pool"] == s.pool(side)
    for area in {b.location for b in s.blocks.values()} - {POOL, DEAD, OFF_MAP}:
        assert v["enemy_blocks"].get(area, 0) == len(s.blocks_in(area, enemy))
    assert v["hand"] == sorted(s.hands[side]) and v["enemy_hand"] == len(s.hands[enemy])
    assert v["enemy_pool"] == len(s.pool(enemy))
    assert v["played"] == {k: list(s.played.get(k, [])) for k in ("england", "scotland")}


def test_2_0_a_change_the_side_may_see_changes_its_view() -> None:
    s = base("braveheart", 0)
    before = view(s, "scotland")
    s.blocks["Wallace"].strength -= 1
    assert view(s, "scotland") != before
    assert view(s, "scotland")["blocks"] != before["blocks"]
    t = base("braveheart", 0)
    comyn = t.blocks["Comyn"].location
    t.blocks["Comyn"].location = "Lennox" if comyn != "Lennox" else "Lothian"
    assert view(t, "scotland")["enemy_blocks"] != before["enemy_blocks"]   # a count moved


def test_2_0_no_enemy_block_name_appears_in_a_report() -> None:
    """Wallace and Douglas are named by the public battle entries of the log; "Edward I" is public (6.1)."""
    s = base("braveheart", 1)
    for side in ("england", "scotland"):
        enemy = other_side(side)
        v = view(s, side, step_log(s, enemy, random.Random(5)))
        text, svg = render_text(v), render_svg(v)
        for name, b in s.blocks.items():
            if b.owner == enemy and b.location not in (DEAD, OFF_MAP) and name not in s.blocks_of(side) \
                    and name not in ("Wallace", "Douglas", "Edward") and name not in {a for a in v["control"]}:
                assert name not in text, name
                assert name not in svg, name
