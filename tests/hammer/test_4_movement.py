"""4.0-4.5 and 2.13: group moves, paths, stops, border limits, the Anglo-Scottish border, control."""

from __future__ import annotations

import pytest
from positions import go, moves, place, turn

from pbem.hammer.rules.board import board
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PRIVATE_UNMARKED
from pbem.hammer.rules.movement import apply_moves, legal_group_moves, legal_steps, move_points
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.state import GameState


def illegal(state, side, order, rule: str, text: str = "") -> IllegalOrder:
    before = state.hash()
    with pytest.raises(IllegalOrder) as exc:
        apply_moves(state, side, order)
    assert exc.value.rule == rule, str(exc.value)
    assert str(exc.value).endswith(f"({rule})")
    assert text in str(exc.value)
    assert state.hash() == before, "an illegal order must change nothing"
    return exc.value


# --- 4.0 -----------------------------------------------------------------------------------------

def test_4_0_no_moves_is_legal_and_ends_the_move_phase() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace")
    assert apply_moves(state, "scotland", moves()) == []
    assert state.current.moves_done == ["scotland"]
    assert state.block("Wallace").location == "Buchan"


def test_4_0_blocks_pass_through_friendly_and_vacant_areas() -> None:
    state = place(turn("scotland"), "scotland", "Strathspey", "Wallace")
    place(state, "scotland", "Buchan", "Douglas")
    apply_moves(state, "scotland", moves(go("Strathspey", (["Wallace"], ["Buchan", "Angus", "Fife"]))))
    assert state.block("Wallace").location == "Fife"
    assert state.current.moved == ["Wallace"]
    assert state.current.crossings == {"scotland|Buchan-Strathspey": 1, "scotland|Angus-Buchan": 1,
                                       "scotland|Angus-Fife": 1}


def test_4_0_a_block_must_stop_on_entering_an_area_with_enemy_blocks() -> None:
    state = place(turn("scotland"), "scotland", "Strathspey", "Wallace")
    place(state, "england", "Buchan", "York Infantry")
    illegal(state, "scotland", moves(go("Strathspey", (["Wallace"], ["Buchan", "Angus"]))), "4.0",
            "must stop in Buchan")
    apply_moves(state, "scotland", moves(go("Strathspey", (["Wallace"], ["Buchan"]))))
    assert state.current.battles["Buchan"].attacker == "scotland"


def test_4_0_a_block_moves_only_once_per_game_turn() -> None:
    state = place(turn("scotland", scotland=2), "scotland", "Buchan", "Wallace")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"])), go("Angus", (["Wallace"], ["Fife"]))),
            "4.0", "already moved")
    state.current.moved = ["Wallace"]  # e.g. moved earlier this turn
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"]))), "4.0", "already moved")


def test_4_0_a_path_enters_no_area_twice() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus", "Buchan"]))), "4.0", "no area twice")


def test_4_0_a_failing_move_leaves_the_earlier_ones_unmade() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace")
    place(state, "scotland", "Fife", "Douglas")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"])), go("Fife", (["Douglas"], ["Lothian"]))),
            "1.1", "Fife→Lothian: no border between these areas")
    assert state.block("Wallace").location == "Buchan" and state.current.moved == []


# --- 1.1 / 2.13 ----------------------------------------------------------------------------------

def test_1_1_no_move_between_areas_without_a_border() -> None:
    state = place(turn("scotland"), "scotland", "Carrick", "Wallace")
    illegal(state, "scotland", moves(go("Carrick", (["Wallace"], ["Argyll"]))), "1.1",
            "Carrick→Argyll: no border between these areas (1.1)")


def test_2_13_a_path_is_no_longer_than_the_move_rating() -> None:
    state = place(turn("scotland"), "scotland", "Strathspey", "Douglas")  # infantry, move 2
    illegal(state, "scotland", moves(go("Strathspey", (["Douglas"], ["Buchan", "Angus", "Fife"]))), "2.13")
    apply_moves(state, "scotland", moves(go("Strathspey", (["Douglas"], ["Buchan", "Angus"]))))
    assert state.block("Douglas").location == "Angus"


# --- 4.1 -----------------------------------------------------------------------------------------

def test_4_1_player_1_moves_first_then_player_2_once() -> None:
    state = place(turn("england"), "scotland", "Buchan", "Wallace")
    illegal(state, "scotland", moves(), "4.1", "Player 1 (england) moves first")
    apply_moves(state, "england", moves())
    apply_moves(state, "scotland", moves())
    assert state.current.moves_done == ["england", "scotland"]
    illegal(state, "scotland", moves(), "4.1", "already made its Move Phase")


def test_4_1_after_an_event_player_2_moves_at_once() -> None:
    state = place(turn("england", england=0), "scotland", "Buchan", "Wallace")
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"]))))
    assert state.block("Wallace").location == "Angus"


# --- 4.2 -----------------------------------------------------------------------------------------

def test_4_2_rulebook_example_group_in_buchan_with_move_2() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Douglas", "Campbell")
    reach = legal_group_moves(state, "scotland")["Buchan"]
    expected = ["Angus", "Atholl", "Badenoch", "Fife", "Mar", "Moray", "Strathspey"]
    assert reach == {"Campbell": expected, "Douglas": expected}


def test_4_2_the_card_value_is_the_number_of_group_moves() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Buchan", "Wallace")
    place(state, "scotland", "Fife", "Douglas")
    assert move_points(state, "scotland") == 1
    two = moves(go("Buchan", (["Wallace"], ["Angus"])), go("Fife", (["Douglas"], ["Angus"])))
    illegal(state, "scotland", two, "4.2", "0 of the card's 1 are left")
    state.current.cards["scotland"] = "move2-5"
    apply_moves(state, "scotland", two)
    assert state.blocks_in("Angus") == ["Douglas", "Wallace"]


def test_3_12_an_event_card_gives_no_group_moves() -> None:
    state = place(turn("scotland", scotland=0), "scotland", "Buchan", "Wallace")
    assert move_points(state, "scotland") == 0
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"]))), "4.2")
    assert legal_steps(state, "scotland") == []


def test_4_2_one_group_move_may_split_to_several_areas_for_one_point() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Buchan", "Wallace", "Douglas", "Campbell")
    order = moves(go("Buchan", (["Wallace"], ["Angus", "Fife"]), (["Douglas"], ["Mar"]),
                     (["Campbell"], ["Strathspey"])))
    log = apply_moves(state, "scotland", order)
    assert [state.block(b).location for b in ("Wallace", "Douglas", "Campbell")] == ["Fife", "Mar", "Strathspey"]
    assert [e.facts["points"] for e in log if e.visibility == PRIVATE_UNMARKED] == [1]


def test_4_2_two_entries_from_one_area_are_one_group_move_split() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Buchan", "Wallace", "Douglas")
    order = moves(go("Buchan", (["Wallace"], ["Angus"])), go("Buchan", (["Douglas"], ["Mar"])))
    log = apply_moves(state, "scotland", order)
    assert state.block("Douglas").location == "Mar" and state.block("Wallace").location == "Angus"
    assert [e.facts["points"] for e in log if e.visibility == PRIVATE_UNMARKED] == [1, 0]


def test_4_2_a_group_moves_only_blocks_standing_in_its_area() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace")
    place(state, "scotland", "Fife", "Douglas")
    illegal(state, "scotland", moves(go("Buchan", (["Douglas"], ["Angus"]))), "4.2", "stands in Fife")
    place(state, "england", "Mar", "York Infantry")
    illegal(state, "scotland", moves(go("Mar", (["York Infantry"], ["Buchan"]))), "4.2", "not one of your blocks")


def test_4_2_the_to_shorthand_takes_the_first_legal_path() -> None:
    state = place(turn("scotland"), "scotland", "Strathspey", "Wallace")
    order = parse_moves({"moves": [{"from": "Strathspey", "to": "Fife", "blocks": ["Wallace"]}]})
    log = apply_moves(state, "scotland", order)
    assert state.block("Wallace").location == "Fife"
    assert log[0].facts["parts"] == [{"blocks": ["Wallace"], "path": ["Buchan", "Angus", "Fife"]}]


def test_4_2_order_shape_errors_are_invalid_not_illegal() -> None:
    with pytest.raises(InvalidOrder, match="not an area"):
        parse_moves({"moves": [{"from": "Narnia", "to": "Fife", "blocks": ["Wallace"]}]})
    with pytest.raises(InvalidOrder, match="not a block"):
        parse_moves({"moves": [{"from": "Fife", "to": "Angus", "blocks": ["Gandalf"]}]})
    with pytest.raises(InvalidOrder, match="exactly one of"):
        parse_moves({"moves": [{"from": "Fife", "blocks": ["Wallace"]}]})
    with pytest.raises(InvalidOrder, match="unknown key"):
        parse_moves({"moves": [], "cheat": True})


# --- 4.3 -----------------------------------------------------------------------------------------

def test_4_3_blocks_crossing_a_red_border_must_stop() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Badenoch", "Lochaber"]))), "4.3",
            "must stop in Badenoch: it crossed a red border")


def test_4_3_rulebook_example_six_from_buchan_close_angus_to_strathspey_not_to_mar() -> None:
    state = turn("scotland")
    six = ["Wallace", "Douglas", "Campbell", "Graham", "MacDonald", "Lindsay"]
    place(state, "scotland", "Buchan", *six)
    place(state, "scotland", "Strathspey", "Fraser", "Barclay")
    place(state, "scotland", "Mar", "Grant", "Keith")
    first = go("Buchan", (six, ["Angus"]))
    illegal(state, "scotland", moves(first, go("Strathspey", (["Fraser", "Barclay"], ["Buchan", "Angus"]))),
            "4.3", "6 of your blocks have already crossed the green border Angus-Buchan")
    apply_moves(state, "scotland", moves(first, go("Mar", (["Grant", "Keith"], ["Angus"]))))
    assert len(state.blocks_in("Angus")) == 8
    assert state.current.crossings["scotland|Angus-Buchan"] == 6
    assert state.current.crossings["scotland|Angus-Mar"] == 2


def test_4_3_a_red_border_lets_two_blocks_a_side_cross() -> None:
    state = place(turn("scotland"), "scotland", "Buchan", "Wallace", "Douglas", "Campbell")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace", "Douglas", "Campbell"], ["Badenoch"]))), "4.3",
            "red border Badenoch-Buchan")
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace", "Douglas"], ["Badenoch"]))))
    assert state.blocks_in("Badenoch") == ["Douglas", "Wallace"]


def test_4_3_passing_through_counts_against_the_limit() -> None:
    state = place(turn("scotland"), "scotland", "Strathspey", "Wallace", "Keith", "Etterick")
    place(state, "scotland", "Angus", "Douglas", "Campbell", "Graham", "MacDonald")
    through = go("Strathspey", (["Wallace", "Keith", "Etterick"], ["Buchan", "Angus", "Fife"]))
    four = go("Angus", (["Douglas", "Campbell", "Graham", "MacDonald"], ["Buchan"]))
    illegal(state, "scotland", moves(through, four), "4.3", "green border Angus-Buchan")
    apply_moves(state, "scotland", moves(through, go("Angus", (["Douglas", "Campbell", "Graham"], ["Buchan"]))))
    assert state.current.crossings["scotland|Angus-Buchan"] == 6


def test_4_3_each_player_has_its_own_border_limits() -> None:
    state = place(turn("england", england=1, scotland=1), "england", "Lothian", "York Infantry", "Durham Infantry")
    place(state, "scotland", "Lanark", "Douglas", "Campbell")
    apply_moves(state, "england", moves(go("Lothian", (["York Infantry", "Durham Infantry"], ["Selkirk"]))))
    place(state, "scotland", "Lothian", "Graham", "MacDonald")  # (a test-only position change)
    state.current.moved.clear()
    apply_moves(state, "scotland", moves(go("Lothian", (["Graham", "MacDonald"], ["Selkirk"]))))
    assert state.current.crossings == {"england|Lothian-Selkirk": 2, "scotland|Lothian-Selkirk": 2}


# --- 4.4 / 5.9 -----------------------------------------------------------------------------------

def test_4_4_rulebook_example_two_blocks_cross_with_a_move_2_and_both_arrive_in_round_1() -> None:
    state = place(turn("england", england=2), "england", "England", "York Knights", "Durham Knights")
    place(state, "scotland", "Galloway", "Douglas")
    apply_moves(state, "england", moves(go("England", (["York Knights"], ["Annan", "Galloway"])),
                                        go("England", (["Durham Knights"], ["Annan", "Galloway"]))))
    battle = state.current.battles["Galloway"]
    assert battle.attacker == "england"
    assert battle.main == ["Durham Knights", "York Knights"] and battle.attacker_reserves == []
    assert battle.main_origin == "England" and battle.main_border == "Annan-Galloway"


def test_4_4_each_block_crossing_costs_one_move_point() -> None:
    state = place(turn("england", england=2), "england", "England", "York Knights", "Durham Knights", "Hobelars")
    three = moves(go("England", (["York Knights", "Durham Knights", "Hobelars"], ["Annan"])))
    illegal(state, "england", three, "4.4", "3 blocks crossing the Anglo-Scottish border")
    log = apply_moves(state, "england", moves(go("England", (["York Knights", "Durham Knights"], ["Annan"]))))
    assert [e.facts["points"] for e in log if e.visibility == PRIVATE_UNMARKED] == [2]


def test_4_4_a_group_with_one_crosser_costs_one_point() -> None:
    state = place(turn("england", england=1), "england", "Annan", "York Knights", "Durham Knights")
    apply_moves(state, "england",
                moves(go("Annan", (["York Knights"], ["England"]), (["Durham Knights"], ["Carrick"]))))
    assert state.block("York Knights").location == "England"
    assert state.block("Durham Knights").location == "Carrick"


def test_4_4_blocks_entering_england_must_stop() -> None:
    state = place(turn("scotland"), "scotland", "Annan", "Wallace")
    illegal(state, "scotland", moves(go("Annan", (["Wallace"], ["England", "Dunbar"]))), "4.4",
            "must stop in England")


def test_4_4_blocks_crossing_the_red_dashed_border_into_teviot_must_stop() -> None:
    state = place(turn("england"), "england", "England", "Hobelars")
    illegal(state, "england", moves(go("England", (["Hobelars"], ["Teviot", "Selkirk"]))), "4.3",
            "must stop in Teviot")
    apply_moves(state, "england", moves(go("England", (["Hobelars"], ["Dunbar", "Lothian"]))))
    assert state.block("Hobelars").location == "Lothian"


def test_5_9_the_scots_may_invade_england() -> None:
    state = place(turn("scotland"), "scotland", "Annan", "Wallace")
    place(state, "england", "England", "York Infantry")
    apply_moves(state, "scotland", moves(go("Annan", (["Wallace"], ["England"]))))
    assert state.current.battles["England"].attacker == "scotland"


# --- 4.5 -----------------------------------------------------------------------------------------

def test_4_5_control_changes_at_once_so_player_2_must_stop_where_player_1_went() -> None:
    state = place(turn("england", england=1, scotland=1), "england", "Dunbar", "Hobelars")
    place(state, "scotland", "Lanark", "Wallace")
    apply_moves(state, "england", moves(go("Dunbar", (["Hobelars"], ["Lothian"]))))
    assert state.control("Lothian") == "england"
    illegal(state, "scotland", moves(go("Lanark", (["Wallace"], ["Lothian", "Dunbar"]))), "4.0", "must stop in Lothian")
    apply_moves(state, "scotland", moves(go("Lanark", (["Wallace"], ["Lothian"]))))
    assert state.control("Lothian") == "contested"
    assert state.current.battles["Lothian"].attacker == "scotland"


# --- 4.0 / 4.5 more ------------------------------------------------------------------------------

def test_4_0_moves_cannot_be_saved_the_next_turn_has_only_its_own_card() -> None:
    from pbem.hammer.rules.cardphase import play_cards
    state = place(turn("scotland", england=1, scotland=3), "scotland", "Buchan", "Wallace")
    place(state, "scotland", "Fife", "Douglas")
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"]))))  # 2 of 3 unused
    state.hands = {"england": ["move1-3"], "scotland": ["move1-4"]}
    state.played = {"england": [], "scotland": []}
    play_cards(state, {"england": "move1-3", "scotland": "move1-4"})
    assert move_points(state, "scotland") == 1
    state.current.moves_done = ["england"]
    illegal(state, "scotland", moves(go("Angus", (["Wallace"], ["Fife"])), go("Fife", (["Douglas"], ["Mentieth"]))),
            "4.2", "0 of the card's 1 are left")


def test_4_5_an_area_player_1_leaves_is_neutral_at_once_so_player_2_passes_through() -> None:
    state = place(turn("england", england=1, scotland=1), "england", "Lothian", "Hobelars")
    place(state, "scotland", "Lanark", "Wallace")
    assert state.control("Lothian") == "england" and state.control("Lanark") == "scotland"
    apply_moves(state, "england", moves(go("Lothian", (["Hobelars"], ["Mentieth"]))))
    assert state.control("Lothian") == "neutral"
    apply_moves(state, "scotland", moves(go("Lanark", (["Wallace"], ["Lothian", "Dunbar"]))))
    assert state.block("Wallace").location == "Dunbar" and "Lothian" not in state.current.battles


def test_4_5_an_area_a_side_has_just_attacked_is_contested_at_once_for_its_later_moves() -> None:
    state = place(turn("scotland", scotland=2), "scotland", "Buchan", "Douglas")
    place(state, "scotland", "Strathspey", "Wallace")
    place(state, "england", "Angus", "Hobelars")
    first = go("Buchan", (["Douglas"], ["Angus"]))
    illegal(state, "scotland", moves(first, go("Strathspey", (["Wallace"], ["Buchan", "Angus", "Fife"]))), "4.0",
            "must stop in Angus")
    apply_moves(state, "scotland", moves(first, go("Strathspey", (["Wallace"], ["Buchan", "Angus"])),
                                         main_attack={"Angus": {"from": "Buchan", "via": "Buchan"}}))
    assert state.control("Angus") == "contested"
    assert state.current.battles["Angus"].attacker_reserves == ["Wallace"]


# --- 4.4 / 5.9 more ------------------------------------------------------------------------------

def test_5_9_a_scottish_border_raid_costs_one_move_point_per_block() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Annan", "Wallace", "Douglas")
    illegal(state, "scotland", moves(go("Annan", (["Wallace", "Douglas"], ["England"]))), "4.4",
            "2 blocks crossing the Anglo-Scottish border cost one move point each")
    state.current.cards["scotland"] = "move2-5"
    log = apply_moves(state, "scotland", moves(go("Annan", (["Wallace", "Douglas"], ["England"]))))
    assert [e.facts["points"] for e in log if e.visibility == PRIVATE_UNMARKED] == [2]
    assert state.blocks_in("England") == ["Douglas", "Wallace"]


def test_4_4_a_move_3_lets_three_blocks_cross_the_border() -> None:
    state = place(turn("england", england=3), "england", "England", "York Knights", "Durham Knights", "Hobelars",
                  "York Infantry")
    apply_moves(state, "england", moves(go("England", (["York Knights", "Durham Knights"], ["Annan"])),
                                        go("England", (["Hobelars"], ["Dunbar"]))))
    assert state.blocks_in("England") == ["York Infantry"]
    state = place(turn("england", england=3), "england", "England", "York Knights", "Durham Knights", "Hobelars",
                  "York Infantry")
    illegal(state, "england", moves(go("England", (["York Knights", "Durham Knights"], ["Annan"])),
                                    go("England", (["Hobelars", "York Infantry"], ["Dunbar"]))), "4.4")


def test_4_4_the_red_dashed_border_into_teviot_lets_only_two_blocks_a_side_cross() -> None:
    state = place(turn("england", england=3), "england", "England", "York Knights", "Durham Knights", "Hobelars")
    illegal(state, "england", moves(go("England", (["York Knights", "Durham Knights"], ["Teviot"])),
                                    go("England", (["Hobelars"], ["Teviot"]))), "4.3", "red border England-Teviot")


def test_4_2_the_norse_are_not_part_of_their_areas_group_and_need_their_own_move_point() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Moray", "Norse", "Douglas")
    both = moves(go("Moray", (["Douglas"], ["Strathspey"])), {"from": "Moray", "sea_to": "Fife", "blocks": ["Norse"]})
    illegal(state, "scotland", both, "4.2", "0 of the card's 1 are left")
    state.current.cards["scotland"] = "move2-5"
    apply_moves(state, "scotland", both)
    assert (state.block("Douglas").location, state.block("Norse").location) == ("Strathspey", "Fife")


# --- 4.6 more ------------------------------------------------------------------------------------

def attacked_in_buchan(english: int = 2) -> "GameState":
    """England (Player 1, Move 1) attacked Buchan from Angus with ``english`` blocks; Scots to move."""
    state = place(turn("england", england=1, scotland=1), "scotland", "Buchan", "Wallace", "Douglas", "Campbell")
    knights = ["York Knights", "Durham Knights", "Lancaster Knights"][:english]
    place(state, "england", "Angus", *knights)
    apply_moves(state, "england", moves(go("Angus", (knights, ["Buchan"]))))
    return state


def test_4_6_pins_must_name_the_defenders_own_blocks_in_that_area() -> None:
    state = attacked_in_buchan()
    place(state, "scotland", "Mar", "Graham")
    illegal(state, "scotland", moves(pins={"Buchan": ["Wallace", "Graham"]}), "4.6",
            "Graham is not one of your blocks there")
    illegal(state, "scotland", moves(pins={"Buchan": ["Wallace", "York Knights"]}), "4.6",
            "York Knights is not one of your blocks there")


def test_4_6_unpinned_blocks_move_normally_through_open_borders() -> None:
    state = attacked_in_buchan()
    apply_moves(state, "scotland", moves(go("Buchan", (["Campbell"], ["Strathspey", "Moray"])),
                                         pins={"Buchan": ["Wallace", "Douglas"]}))
    assert state.block("Campbell").location == "Moray"
    assert state.blocks_in("Buchan", "scotland") == ["Douglas", "Wallace"]


def test_4_6_closing_borders_a_player_1_move_that_starts_no_battle_closes_no_border() -> None:
    """Sidebar: the Scots (P1) move Badenoch -> Atholl; the English (P2) attack Atholl. Only the
    English attack closes a border; the Scots' own move closes none."""
    state = place(turn("scotland", england=1, scotland=1), "scotland", "Badenoch", "Wallace", "Douglas")
    place(state, "england", "Strathspey", "York Knights")
    apply_moves(state, "scotland", moves(go("Badenoch", (["Wallace", "Douglas"], ["Atholl"]))))
    assert state.current.battles == {} and state.control("Badenoch") == "neutral"
    apply_moves(state, "england", moves(go("Strathspey", (["York Knights"], ["Badenoch", "Atholl"]))))
    battle = state.current.battles["Atholl"]
    assert battle.attacker == "england" and battle.entered == {"england": ["Atholl-Badenoch"]}


def test_4_6_norse_in_battle_a_norse_attack_pins_but_closes_no_border() -> None:
    """Sidebar "Norse in Battle": the Norse pin one defender; the other may leave by any border."""
    state = place(turn("scotland", england=1, scotland=1), "scotland", "Moray", "Norse")
    place(state, "england", "Fife", "York Knights", "Durham Knights")
    apply_moves(state, "scotland", moves({"from": "Moray", "sea_to": "Fife", "blocks": ["Norse"]}))
    exits = sorted({s.path[0] for s in legal_steps(state, "england") if s.origin == "Fife"})
    assert exits == sorted(board().neighbours("Fife"))
    illegal(state, "england", moves(go("Fife", (["York Knights", "Durham Knights"], ["Angus"]))), "4.6",
            "only 1 may leave")


# --- 4.7 more ------------------------------------------------------------------------------------

def test_4_7_the_norse_sail_only_from_a_coastal_area_and_to_another_one() -> None:
    state = place(turn("scotland"), "scotland", "Badenoch", "Norse")  # e.g. placed inland by hand
    illegal(state, "scotland", moves({"from": "Badenoch", "sea_to": "Fife", "blocks": ["Norse"]}), "4.7",
            "from a coastal area to a coastal area")
    assert legal_steps(state, "scotland") == []
    state = place(turn("scotland"), "scotland", "Moray", "Norse")
    illegal(state, "scotland", moves({"from": "Moray", "sea_to": "Moray", "blocks": ["Norse"]}), "4.7",
            "another coastal area")


def test_4_7_a_norse_move_must_be_declared_with_its_origin() -> None:
    shorthand = parse_moves({"moves": [{"from": "Moray", "to": "Fife", "blocks": ["Norse"]}]}).moves[0]
    assert shorthand.is_sea
    assert (shorthand.origin, shorthand.sea_to, shorthand.sea_blocks) == ("Moray", "Fife", ("Norse",))
    with pytest.raises(InvalidOrder, match="lacks 'from'"):
        parse_moves({"moves": [{"sea_to": "Fife", "blocks": ["Norse"]}]})
    with pytest.raises(InvalidOrder, match=r"a sea move is \{ from, sea_to, blocks \}"):
        parse_moves({"moves": [{"from": "Moray", "sea_to": "Fife", "blocks": ["Norse"], "path": ["Fife"]}]})


# --- 3.12 Truce more -----------------------------------------------------------------------------

def test_3_12_truce_the_norse_may_not_attack_by_sea_either() -> None:
    state = place(turn("england", truce="england"), "scotland", "Moray", "Norse")
    place(state, "england", "Fife", "York Infantry")
    illegal(state, "scotland", moves({"from": "Moray", "sea_to": "Fife", "blocks": ["Norse"]}), "3.12",
            "Truce forbids attacking")
    assert "Fife" not in {s.destination for s in legal_steps(state, "scotland")}
    apply_moves(state, "scotland", moves({"from": "Moray", "sea_to": "Argyll", "blocks": ["Norse"]}))


def test_5_9_raids_and_truces_scots_already_in_england_may_stay_or_leave_but_not_return() -> None:
    state = place(turn("england", truce="england", scotland=2), "scotland", "England", "Wallace", "Douglas")
    apply_moves(state, "scotland", moves(go("England", (["Wallace"], ["Annan"]))))
    assert state.block("Wallace").location == "Annan" and state.block("Douglas").location == "England"
    state = place(turn("england", truce="england"), "scotland", "England", "Wallace")
    illegal(state, "scotland", moves(go("England", (["Wallace"], ["Annan", "England"]))), "4.0", "no area twice")


# --- orders as data: every malformed order is one InvalidOrder sentence ----------------------------

WALLACE = {"from": "Fife", "path": ["Angus"], "blocks": ["Wallace"]}


@pytest.mark.parametrize(("data", "message"), [
    (["moves"], "a move order is a table, not list"),
    ({"moves": {"from": "Fife"}}, "'moves' must be a list of group moves"),
    ({"moves": ["Fife"]}, "move 1: a group move is a table"),
    ({"moves": [{"path": ["Angus"], "blocks": ["Wallace"]}]}, "move 1: the group move lacks 'from'"),
    ({"moves": [{"from": "Fife", "to": "Angus"}]}, "the part lacks 'blocks'"),
    ({"moves": [{"from": "Fife", "to": "Angus", "blocks": []}]}, "give a non-empty list of block names"),
    ({"moves": [{"from": "Fife", "to": "Angus", "blocks": "Wallace"}]}, "give a non-empty list of block names"),
    ({"moves": [{"from": "Fife", "to": "Angus", "blocks": ["Wallace", "Wallace"]}]}, "block 'Wallace' is listed twice"),
    ({"moves": [{"from": "Fife", "path": [], "blocks": ["Wallace"]}]},
     "a path is a non-empty list of the areas entered"),
    ({"moves": [{"from": "Fife", "path": "Angus", "blocks": ["Wallace"]}]}, "a path is a non-empty list"),
    ({"moves": [{"from": "Fife", "path": ["Angus", "Narnia"], "blocks": ["Wallace"]}]},
     "'Narnia' is not an area of the map (1.1)"),
    ({"moves": [{"from": "Fife", "parts": []}]}, "'parts' must be a non-empty list"),
    ({"moves": [{"from": "Fife", "parts": ["Angus"]}]}, "parts[1]: a part is a table"),
    ({"moves": [{"from": "Fife", "parts": [{"blocks": ["Wallace"], "to": "Angus"}], "to": "Angus"}]},
     "give either 'parts' or 'blocks' with 'path' or 'to', not both"),
    ({"moves": [{"from": "Fife", "parts": [{"blocks": ["Wallace"], "to": "Angus"},
                                           {"blocks": ["Wallace"], "to": "Mentieth"}]}]},
     "block 'Wallace' is listed twice"),
    ({"moves": [{"from": "Fife", "parts": [{"blocks": ["Wallace"], "to": "Angus", "via": "x"}]}]}, "unknown key 'via'"),
    ({"moves": [WALLACE], "main_attack": ["Angus"]}, "'main_attack' must be a table of battle areas"),
    ({"moves": [WALLACE], "main_attack": {"Angus": "Fife"}}, "main_attack.Angus: give { from = AREA"),
    ({"moves": [WALLACE], "main_attack": {"Angus": {"from": "Fife"}}}, "main_attack.Angus: give { from = AREA"),
    ({"moves": [WALLACE], "main_attack": {"Angus": {"from": "Fife", "via": "Narnia"}}}, "'Narnia' is not an area"),
    ({"moves": [], "pins": ["Fife"]}, "'pins' must be a table of areas"),
    ({"moves": [], "pins": {"Fife": ["Gandalf"]}}, "'Gandalf' is not a block of the game (2.0)"),
    ({"moves": [], "pins": {"Fife": ["Wallace", "Wallace"]}}, "block 'Wallace' is listed twice"),
    ({"moves": [{"from": "Moray", "sea_to": "Fife", "blocks": []}]}, "give a non-empty list of block names"),
])
def test_orders_a_malformed_move_order_is_one_invalid_order_sentence(data: object, message: str) -> None:
    with pytest.raises(InvalidOrder) as exc:
        parse_moves(data)
    assert message in str(exc.value), str(exc.value)
    assert "\n" not in str(exc.value)


def test_orders_a_move_order_round_trips_through_its_plain_data() -> None:
    data = {"moves": [{"from": "Fife", "parts": [{"blocks": ["Wallace"], "path": ["Angus", "Buchan"]},
                                                 {"blocks": ["Douglas"], "to": "Mentieth"}]},
                      {"from": "Moray", "sea_to": "Argyll", "blocks": ["Norse"]}],
            "main_attack": {"Buchan": {"from": "Fife", "via": "Angus"}},
            "pins": {"Lennox": ["Campbell"]}}
    assert parse_moves(data).to_dict() == data
    assert parse_moves(None).to_dict() == {"moves": []}


def test_4_2_the_generator_lists_more_of_a_group_that_already_moved_as_free() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Buchan", "Wallace", "Douglas")
    place(state, "scotland", "Mar", "Campbell")
    done = moves(go("Buchan", (["Wallace"], ["Angus"])))
    steps = legal_steps(state, "scotland", done)
    assert {s.origin for s in steps} == {"Buchan"} and {s.block for s in steps} == {"Douglas"}
    for step in steps:  # each is accepted by the validator, still on a Move 1 card
        work = state.copy()
        apply_moves(work, "scotland",
                    moves(go("Buchan", (["Wallace"], ["Angus"])), go("Buchan", (["Douglas"], list(step.path)))))
