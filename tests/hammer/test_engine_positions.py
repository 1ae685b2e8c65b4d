"""Position files (docs/positions.md): load, dump, round trip, and one-sentence errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.drbg import Drbg
from pbem.hammer.errors import DataError
from pbem.hammer.position import dump_position, load_position, parse_position
from pbem.hammer.scenario import setup
from pbem.hammer.state import OFF_MAP, POOL, Battle, Options

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "positions").glob("*.toml"))

SMALL = """
scenario = "braveheart"
year = 1299
turn = 1
phase = "move"
[hands]
england = ["move3-1"]
scotland = ["move2-1", "truce"]
[played]
england = ["move1-1"]
scotland = ["move1-2"]
[current]
player1 = "scotland"
cards = { england = "move1-1", scotland = "move1-2" }
[england]
Lothian = ["Edward:2", "York Knights"]
pool = ["Hobelars"]
[scotland]
Fife = ["Wallace", "Douglas:1"]
dead = ["Moray"]
"""


def test_position_examples_all_load_check_and_round_trip() -> None:
    assert len(EXAMPLES) >= 5
    for path in EXAMPLES:
        state = load_position(path)
        assert state.check() == [], path
        assert parse_position(dump_position(state)).hash() == state.hash(), path


def test_position_opening_states_round_trip_exactly() -> None:
    for sid in ("braveheart", "the_bruce", "campaign"):
        state = setup(sid, Options(schiltroms=True, bid="E1"), Drbg(b"position-round-trip" * 2))
        state.current.battles["Fife"] = Battle(area="Fife", attacker="england", main=["Edward"],
                                               entered={"england": ["Fife-Mentieth"]})
        state.current.crossings = {"england|Fife-Mentieth": 1}
        again = parse_position(dump_position(state))
        assert again.to_dict() == state.to_dict()


def test_position_blocks_strengths_places_and_unlisted_blocks() -> None:
    state = parse_position(SMALL)
    assert (state.blocks["Edward"].location, state.blocks["Edward"].strength) == ("Lothian", 2)
    assert state.blocks["York Knights"].strength == 4  # no strength given: full strength
    assert state.blocks["Douglas"].strength == 1
    assert state.blocks["Hobelars"].location == POOL and state.blocks["Hobelars"].strength == 0
    assert state.blocks["Moray"].location == "dead"
    assert state.blocks["Bruce"].location == OFF_MAP  # listed nowhere: not in the game
    assert state.year == 1299 and state.turn == 1 and state.phase == "move"
    assert state.current.player1 == "scotland" and state.current.cards["scotland"] == "move1-2"
    assert state.hands["scotland"] == ["move2-1", "truce"]
    assert "move3-2" in state.deck and "move3-1" not in state.deck


@pytest.mark.parametrize(("change", "message"), [
    (('Fife = ["Wallace", "Douglas:1"]', 'Fife = ["Walace"]'), r"scotland\.Fife: unknown block 'Walace'"),
    (('Fife = ["Wallace", "Douglas:1"]', 'Fief = ["Wallace"]'), r"scotland\.Fief: unknown area 'Fief'"),
    (('Fife = ["Wallace", "Douglas:1"]', 'Fife = ["Wallace:5"]'), r"Wallace has strength 5, not 1-4"),
    (('Fife = ["Wallace", "Douglas:1"]', 'Fife = ["Wallace:0"]'), r"Wallace has strength 0, not 1-4"),
    (('Fife = ["Wallace", "Douglas:1"]', 'Fife = ["Wallace"]\nAngus = ["Wallace"]'),
     r"Wallace is already in scotland\.Angus"),
    (('Fife = ["Wallace", "Douglas:1"]', 'Fife = ["Edward"]'), r"Edward is not a scotland block"),
    (('england = ["move3-1"]', 'england = ["move2-1"]'), r"card move2-1 is already in hands\.england"),
    (('england = ["move3-1"]', 'england = ["move9-1"]'), r"hands\.england: unknown card 'move9-1'"),
    (('england = ["move3-1"]', 'england = ["move3-1", "move3-2", "move3-3", "move2-2", "move2-3", "move2-4"]'),
     r"6 cards, but a hand holds at most 5"),
    (('year = 1299', 'year = 1299\ncolour = "red"'), r"colour: unknown key"),
    (('scenario = "braveheart"', 'scenario = "falkirk"'), r"scenario: unknown scenario 'falkirk'"),
    (('turn = 1', 'turn = 7'), r"turn: Game Turn 7 is not 0-5"),
    (('phase = "move"', 'phase = "lunch"'), r"phase: unknown phase 'lunch'"),
    (('player1 = "scotland"', 'player1 = "france"'), r"current\.player1: unknown side 'france'"),
    (('cards = { england = "move1-1", scotland = "move1-2" }', 'cards = { england = "move3-1" }'),
     r"current\.cards\.england: move3-1 is also in a hand"),
])
def test_position_errors_are_one_sentence_naming_file_and_field(change: tuple[str, str], message: str) -> None:
    text = SMALL.replace(*change)
    assert text != SMALL
    with pytest.raises(DataError, match=message) as exc:
        parse_position(text, "game.toml")
    assert str(exc.value).startswith("position game.toml: ")
    assert "\n" not in str(exc.value)


def test_position_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"position x\.toml: not valid TOML"):
        parse_position("year = ", "x.toml")
    with pytest.raises(DataError, match=r"cannot be read"):
        load_position(tmp_path / "nope.toml")
