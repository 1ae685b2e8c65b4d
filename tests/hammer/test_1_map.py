"""1.1-1.4: areas and borders, castle limits, cathedrals, noble homes; data validation."""

from __future__ import annotations

import copy

import pytest

from pbem.hammer.rules.blocks import blocks, nobles, parse_blocks
from pbem.hammer.rules.board import board, load_toml_resource, parse_board
from pbem.hammer.rules.cards import parse_cards
from pbem.hammer.rules.errors import DataError


def map_data() -> dict:
    return copy.deepcopy(load_toml_resource("map.toml"))


def block_data() -> dict:
    return copy.deepcopy(load_toml_resource("blocks.toml"))


def test_1_1_the_map_has_23_areas_and_49_borders() -> None:
    b = board()
    assert len(b.areas) == 23 and "England" in b.areas
    assert len(b.borders) == 49
    assert sum(1 for x in b.borders.values() if x.kind == "red") == 28


def test_1_1_areas_without_a_border_are_not_adjacent() -> None:
    b = board()
    assert b.border("Carrick", "Argyll") is None and "Argyll" not in b.neighbours("Carrick")
    assert b.border("Lothian", "Fife") is None and "Fife" not in b.neighbours("Lothian")
    assert b.border("Buchan", "Angus") is not None and b.border("Buchan", "Angus").kind == "green"


def test_1_1_adjacency_is_symmetric_and_every_area_has_a_border() -> None:
    b = board()
    for name in b.areas:
        assert b.neighbours(name)
        for other in b.neighbours(name):
            assert name in b.neighbours(other)


def test_1_1_a_border_naming_an_unknown_area_is_a_data_error() -> None:
    data = map_data()
    data["borders"]["green"].append(["Fife", "Atlantis"])
    with pytest.raises(DataError, match="unknown area 'Atlantis'"):
        parse_board(data)


def test_1_1_a_border_listed_twice_is_a_data_error() -> None:
    data = map_data()
    data["borders"]["red"].append(["Angus", "Buchan"])
    with pytest.raises(DataError, match="listed twice"):
        parse_board(data)


def test_1_2_castle_limits_are_0_to_3() -> None:
    limits = {a.castle for a in board().areas.values()}
    assert limits == {0, 1, 2, 3}
    assert board().area("Mentieth").castle == 3 and board().area("Selkirk").castle == 0
    data = map_data()
    data["areas"]["Fife"]["castle"] = 4
    with pytest.raises(DataError, match="castle limit 4, not 0-3"):
        parse_board(data)


def test_1_3_three_cathedrals_add_one_to_the_scottish_limit_only() -> None:
    b = board()
    assert sorted(a.name for a in b.areas.values() if a.cathedral) == ["Fife", "Lennox", "Strathspey"]
    assert b.area("Fife").castle_limit("scotland") == 3
    assert b.area("Fife").castle_limit("england") == 2
    assert b.area("Angus").castle_limit("scotland") == b.area("Angus").castle_limit("england") == 2


def test_1_4_fourteen_nobles_each_shown_at_home() -> None:
    assert len(nobles()) == 14
    for name in nobles():
        for home in blocks()[name].homes:
            assert name in board().area(home).homes
    assert blocks()["Buchan"].homes == ("Buchan",)


def test_1_4_bruce_and_comyn_have_two_homes() -> None:
    assert sorted(blocks()["Bruce"].homes) == ["Annan", "Carrick"]
    assert sorted(blocks()["Comyn"].homes) == ["Badenoch", "Lochaber"]
    assert [n for n in nobles() if len(blocks()[n].homes) == 2] == ["Comyn", "Bruce"]


def test_1_4_a_noble_without_a_home_is_a_data_error() -> None:
    data = block_data()
    entry = next(b for b in data["blocks"] if b["name"] == "Atholl")
    entry["homes"] = []
    with pytest.raises(DataError, match="noble 'Atholl' has no home area"):
        parse_blocks(data)


def test_2_0_a_duplicate_block_is_a_data_error() -> None:
    data = block_data()
    data["blocks"].append(copy.deepcopy(data["blocks"][0]))
    with pytest.raises(DataError, match="duplicate block 'Wallace'"):
        parse_blocks(data)


def card_data() -> dict:
    return copy.deepcopy(load_toml_resource("cards.toml"))


def test_1_1_an_area_with_no_border_is_a_data_error() -> None:
    data = map_data()
    data["areas"]["Atlantis"] = dict(data["areas"]["Fife"], homes=[])
    with pytest.raises(DataError, match="area 'Atlantis' has no border"):
        parse_board(data)


def test_4_4_a_map_without_england_is_a_data_error() -> None:
    data = map_data()
    del data["areas"]["England"]
    data["borders"] = {k: [p for p in v if "England" not in p] for k, v in data["borders"].items()}
    with pytest.raises(DataError, match="no England area"):
        parse_board(data)


def test_1_4_a_noble_whose_home_is_unknown_or_unmarked_is_a_data_error() -> None:
    data = block_data()
    entry = next(b for b in data["blocks"] if b["name"] == "Atholl")
    entry["homes"] = ["Atlantis"]
    with pytest.raises(DataError, match="unknown home area 'Atlantis'"):
        parse_blocks(data)
    entry["homes"] = ["Fife"]
    with pytest.raises(DataError, match="Fife does not show 'Atholl'"):
        parse_blocks(data)


def test_1_4_a_shield_on_the_map_without_its_noble_is_a_data_error() -> None:
    data = block_data()
    data["blocks"] = [b for b in data["blocks"] if b["name"] != "Atholl"]
    with pytest.raises(DataError, match="Atholl is home of 'Atholl'"):
        parse_blocks(data)


def test_2_22_a_noble_without_a_faction_is_a_data_error() -> None:
    data = block_data()
    next(b for b in data["blocks"] if b["name"] == "Atholl").pop("faction")
    with pytest.raises(DataError, match="noble 'Atholl' has no faction"):
        parse_blocks(data)


def test_3_0_a_deck_of_other_than_25_cards_or_a_move_card_of_value_4_is_a_data_error() -> None:
    data = card_data()
    data["move"][0]["count"] += 1
    with pytest.raises(DataError, match="26 cards, not 25"):
        parse_cards(data)
    data = card_data()
    data["move"][0]["value"] = 4
    with pytest.raises(DataError, match="value 4, not 1-3"):
        parse_cards(data)


def test_1_1_buchan_borders_exactly_strathspey_badenoch_mar_and_angus_as_in_4_6() -> None:
    assert board().neighbours("Buchan") == ("Angus", "Badenoch", "Mar", "Strathspey")
    kinds = {n: board().border("Buchan", n).kind for n in board().neighbours("Buchan")}
    assert kinds == {"Angus": "green", "Badenoch": "red", "Mar": "green", "Strathspey": "green"}


def test_4_4_the_anglo_scottish_border_and_its_red_dashed_stretch_into_teviot() -> None:
    crossings = {b.key: b.kind for b in board().borders.values() if b.anglo_scottish}
    assert crossings == {"Annan-England": "green", "Dunbar-England": "green", "England-Teviot": "red"}
