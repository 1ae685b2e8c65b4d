"""Position files (docs/positions.md): load, dump, round trip, and one-sentence errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError
from pbem.hammer.play.position import dump_position, load_position, parse_position
from pbem.hammer.rules.errors import DataError
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import OFF_MAP, POOL, Battle, Options

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
    (('year = 1299', 'year = 99999999999999999999'), r"year: year 99999999999999999999 is not 1297-9999 \(8\.0"),
    (('year = 1299', 'year = 1200'), r"year: year 1200 is not 1297-9999"),
    (('phase = "move"', 'phase = "lunch"'), r"phase: unknown phase 'lunch'"),
    (('player1 = "scotland"', 'player1 = "france"'), r"current\.player1: unknown side 'france'"),
    (('cards = { england = "move1-1", scotland = "move1-2" }', 'cards = { england = "move3-1" }'),
     r"current\.cards\.england: move3-1 is also in a hand"),
    (('year = 1299', 'year = 1299\nedward = "III"'), r'edward: expected "I" or "II", found \'III\' \(6\.1\)'),
    (('year = 1299', 'year = 1299\nking = "Wallace"'), r"king: unknown king 'Wallace'"),
    (('year = 1299', 'year = 1299\nwinner = "france"'), r"winner: unknown side 'france'"),
    (('year = 1299', 'year = 1299\noptions = { bid = "E4" }'), r"options\.bid: unknown tournament bid 'E4' \(9\.2\)"),
    (('england = ["move1-1"]', 'england = ["move1-1", "move2-5"]'),
     r"current\.cards\.england: move1-1 must also be the last card in played\.england \(3\.1\)"),
    (('player1 = "scotland"', 'player1 = "scotland"\nmoved = ["Gandalf"]'), r"current\.moved: unknown block 'Gandalf'"),
    (('dead = ["Moray"]', 'dead = ["Moray"]\n[battles.Narnia]\nattacker = "england"'),
     r"battles\.Narnia: unknown area 'Narnia' \(1\.1\)"),
    (('dead = ["Moray"]', 'dead = ["Moray"]\n[battles.Fife]\nattacker = "wales"'),
     r"battles\.Fife\.attacker: unknown side 'wales'"),
    (('dead = ["Moray"]', 'dead = ["Moray"]\n[battles.Fife]\nattacker = "england"\nmain = ["Gandalf"]'),
     r"battles\.Fife\.main: unknown block 'Gandalf'"),
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
    with pytest.raises(FormatError, match=r"nope\.toml: no such file"):  # the one reader's sentence (protocol §3.1)
        load_position(tmp_path / "nope.toml")


# --- the state's one canonical form and its hash ----------------------------------------------------

def test_state_hash_is_the_sha256_of_its_canonical_json() -> None:
    import hashlib
    import json

    from pbem.hammer.rules.state import GameState
    state = setup("braveheart", Options(), Drbg(b"state-hash-key-0" * 2))
    body = state.canonical_bytes()
    assert state.hash() == hashlib.sha256(body).hexdigest()
    assert body == json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"),
                              ensure_ascii=False).encode("utf-8")
    again = GameState.from_dict(json.loads(body))
    assert again.hash() == state.hash() and again.to_dict() == state.to_dict()


def test_state_hash_ignores_dict_insertion_order_and_sees_every_change() -> None:
    state = setup("braveheart", Options(), Drbg(b"state-hash-key-1" * 2))
    shuffled = state.copy()
    shuffled.blocks = dict(reversed(list(shuffled.blocks.items())))
    assert shuffled.hash() == state.hash()
    moved = state.copy()
    moved.blocks["Wallace"].location = "Angus"
    weaker = state.copy()
    weaker.blocks["Wallace"].strength -= 1
    later = state.copy()
    later.current.crossings["england|Angus-Buchan"] = 1
    assert len({state.hash(), moved.hash(), weaker.hash(), later.hash()}) == 4


def test_state_check_reports_impossible_states() -> None:
    state = setup("braveheart", Options(), Drbg(b"state-hash-key-2" * 2))
    assert state.check() == []
    state.blocks["Wallace"].strength = 5
    state.blocks["Edward"].owner = "scotland"
    state.blocks["Douglas"].location = "Narnia"
    problems = state.check()
    assert "Wallace has strength 5, not 1-4" in problems
    assert "Edward cannot belong to scotland" in problems
    assert "Douglas is in unknown place 'Narnia'" in problems
