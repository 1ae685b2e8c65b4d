"""schemas/position.schema.json: every example position validates; broken ones do not.

The schema names the areas, blocks and cards: a test holds those lists to the game's data files,
so the schema cannot drift from the map, the blocks or the deck.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pbem.core.drbg import Drbg
from pbem.hammer.play.position import dump_position
from pbem.hammer.rules.blocks import blocks
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import PLACES, Options

ROOT = Path(__file__).parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "position.schema.json").read_text(encoding="utf-8"))
EXAMPLES = sorted((ROOT / "examples" / "positions").glob("*.toml"))
validator = jsonschema.Draft202012Validator(SCHEMA)


def errors(data: dict[str, Any]) -> list[str]:
    return [e.message for e in validator.iter_errors(data)]


def example(name: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / "examples" / "positions" / name).read_text(encoding="utf-8"))


def test_position_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_position_schema_every_example_validates(path: Path) -> None:
    assert errors(tomllib.loads(path.read_text(encoding="utf-8"))) == []


def test_position_schema_dumped_openings_validate() -> None:
    for sid in ("braveheart", "the_bruce", "campaign"):
        state = setup(sid, Options(schiltroms=True, bid="S2"), Drbg(b"schema-openings!" * 2))
        assert errors(tomllib.loads(dump_position(state))) == [], sid


def test_position_schema_mid_game_positions_validate() -> None:
    from fakes import game_positions
    seen = 0
    for phase in ("card", "move", "battle", "winter"):
        for state in game_positions("braveheart", 3, phase)[:5]:
            assert errors(tomllib.loads(dump_position(state))) == [], (phase, state.year, state.turn)
            seen += 1
    assert seen >= 10


def test_position_schema_names_exactly_the_games_areas_blocks_and_cards() -> None:
    defs = SCHEMA["$defs"]
    assert sorted(defs["area"]["enum"]) == sorted(board().areas)
    assert sorted(defs["block_name"]["enum"]) == sorted(blocks())
    assert sorted(defs["card"]["enum"]) == sorted(deck())
    assert sorted(defs["side_blocks"]["propertyNames"]["enum"]) == sorted([*board().areas, *PLACES])


@pytest.mark.parametrize(("break_it", "why"), [
    (lambda d: d.pop("scenario"), "'scenario' is a required property"),
    (lambda d: d.update(scenario="falkirk"), "'falkirk' is not one of"),
    (lambda d: d.update(turn=7), "7 is greater than the maximum of 5"),
    (lambda d: d.update(colour="red"), "Additional properties are not allowed"),
    (lambda d: d["scotland"].update(Fief=["Wallace"]), "'Fief' is not one of"),
    (lambda d: d["scotland"]["Fife"].append("Walace"), "does not match"),
    (lambda d: d["scotland"]["Fife"].append("Keith:x"), "does not match"),
    (lambda d: d["hands"].update(england=["move9-1"]), "'move9-1' is not one of"),
    (lambda d: d["hands"].update(england=["move1-1", "move1-2", "move1-3", "move1-4", "move1-5", "move1-6"]),
     "is too long"),
    (lambda d: d["current"].update(player1="france"), "'france' is not one of"),
    (lambda d: d["battles"]["Fife"].update(attacker="wales"), "'wales' is not one of"),
    (lambda d: d["current"]["crossings"].update({"england|Fife-Mentieth": -1}), "less than the minimum of 0"),
])
def test_position_schema_a_broken_position_fails(break_it: Any, why: str) -> None:
    data = example("battle-fife.toml")
    break_it(data)
    found = errors(data)
    assert any(why in e for e in found), found
