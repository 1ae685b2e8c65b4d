"""4.6 pinning, 4.7 the Norse, 5.32 main attack and reserves, 5.33 reinforcements, the Truce."""

from __future__ import annotations

import pytest
from fakes import Recorder, ScriptedDice
from positions import go, moves, place, turn

from pbem.hammer.rules.battle import fight
from pbem.hammer.rules.board import board
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import PRIVATE_UNMARKED
from pbem.hammer.rules.movement import apply_moves, legal_steps
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.state import GameState

SIX = ["Wallace", "Douglas", "Campbell", "Graham", "MacDonald", "Lindsay"]


def illegal(state: GameState, side: str, order, rule: str, text: str = "") -> None:
    before = state.hash()
    with pytest.raises(IllegalOrder) as exc:
        apply_moves(state, side, order)
    assert exc.value.rule == rule, str(exc.value)
    assert text in str(exc.value), str(exc.value)
    assert state.hash() == before


def pinning_example() -> GameState:
    """4.6: six Scots in Buchan attacked by 3 English from Angus and 2 from Strathspey."""
    state = place(turn("england", england=2), "scotland", "Buchan", *SIX)
    place(state, "england", "Angus", "York Knights", "Durham Knights", "Lancaster Knights")
    place(state, "england", "Strathspey", "York Infantry", "Durham Infantry")
    knights = ["York Knights", "Durham Knights", "Lancaster Knights"]
    apply_moves(state, "england", moves(go("Angus", (knights, ["Buchan"])),
                                        go("Strathspey", (["York Infantry", "Durham Infantry"], ["Buchan"])),
                                        main_attack={"Buchan": {"from": "Angus", "via": "Angus"}}))
    return state


# --- 4.6 -----------------------------------------------------------------------------------------

def test_4_6_buchan_borders_exactly_strathspey_badenoch_mar_and_angus() -> None:
    assert board().neighbours("Buchan") == ("Angus", "Badenoch", "Mar", "Strathspey")


def test_4_6_rulebook_example_five_pinned_one_may_leave_via_badenoch_or_mar() -> None:
    state = pinning_example()
    assert state.current.battles["Buchan"].entered == {"england": ["Angus-Buchan", "Buchan-Strathspey"]}
    steps = legal_steps(state, "scotland")
    assert sorted({s.path[0] for s in steps if s.origin == "Buchan"}) == ["Badenoch", "Mar"]
    illegal(state, "scotland", moves(go("Buchan", (["Wallace", "Douglas"], ["Mar"]))), "4.6", "only 1 may leave")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Angus"]))), "4.6", "border the enemy used")
    illegal(state, "scotland", moves(go("Buchan", (["Wallace"], ["Strathspey"]))), "4.6")
    trial = state.copy()
    apply_moves(trial, "scotland", moves(go("Buchan", (["Wallace"], ["Badenoch"]))))
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace"], ["Mar", "Angus"]))))
    assert state.block("Wallace").location == "Angus"


def test_4_6_player_2_chooses_which_blocks_are_pinned() -> None:
    state = pinning_example()
    pinned = ["Douglas", "Campbell", "Graham", "MacDonald", "Lindsay"]
    illegal(state, "scotland", moves(go("Buchan", (["Douglas"], ["Mar"])), pins={"Buchan": pinned}), "4.6",
            "Douglas: it is pinned in Buchan")
    illegal(state, "scotland", moves(pins={"Buchan": pinned[:4]}), "4.6", "pin exactly 5 of yours, not 4")
    illegal(state, "scotland", moves(pins={"Mar": []}), "4.6", "no blocks of yours stand attacked")
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace"], ["Mar"])), pins={"Buchan": pinned}))
    assert state.block("Wallace").location == "Mar"


def test_4_6_unpinned_blocks_may_attack() -> None:
    state = pinning_example()
    place(state, "england", "Mar", "Hobelars")
    apply_moves(state, "scotland", moves(go("Buchan", (["Wallace"], ["Mar"]))))
    battle = state.current.battles["Mar"]
    assert battle.attacker == "scotland" and battle.main == ["Wallace"] and battle.main_border == "Buchan-Mar"


def test_4_6_when_attackers_outnumber_defenders_all_are_pinned() -> None:
    state = place(turn("england"), "scotland", "Mar", "Douglas")
    place(state, "england", "Angus", "York Knights", "Durham Knights")
    apply_moves(state, "england", moves(go("Angus", (["York Knights", "Durham Knights"], ["Mar"]))))
    illegal(state, "scotland", moves(go("Mar", (["Douglas"], ["Buchan"]))), "4.6", "only 0 may leave")
    assert [s for s in legal_steps(state, "scotland") if s.origin == "Mar"] == []


# --- 5.32 / 5.33 ---------------------------------------------------------------------------------

def test_5_32_rulebook_example_angus_group_is_the_main_attack_mar_group_in_reserve() -> None:
    state = place(turn("england", england=2), "scotland", "Buchan", "Douglas")
    place(state, "england", "Angus", "York Knights", "Durham Knights", "York Infantry", "Durham Infantry")
    place(state, "england", "Mar", "Lancaster Infantry", "Cumbria Infantry")
    two = (go("Angus", (["York Knights", "Durham Knights", "York Infantry", "Durham Infantry"], ["Buchan"])),
           go("Mar", (["Lancaster Infantry", "Cumbria Infantry"], ["Buchan"])))
    illegal(state, "england", moves(*two), "5.32", "name the Main Attack")
    illegal(state, "england", moves(*two, main_attack={"Buchan": {"from": "Angus", "via": "Mar"}}), "5.32",
            "no group of yours started in Angus and entered Buchan from Mar")
    illegal(state, "england", moves(*two, main_attack={"Fife": {"from": "Angus", "via": "Angus"}}), "5.32",
            "no attack there")
    apply_moves(state, "england", moves(*two, main_attack={"Buchan": {"from": "Angus", "via": "Angus"}}))
    battle = state.current.battles["Buchan"]
    assert battle.main == ["Durham Infantry", "Durham Knights", "York Infantry", "York Knights"]
    assert battle.main_origin == "Angus" and battle.main_border == "Angus-Buchan"
    assert battle.attacker_reserves == ["Cumbria Infantry", "Lancaster Infantry"]
    assert battle.entered == {"england": ["Angus-Buchan", "Buchan-Mar"]}


def test_5_32_rulebook_example_fought_the_mar_group_stays_out_of_round_1() -> None:
    state = place(turn("england", england=2), "scotland", "Buchan", "Douglas")
    place(state, "england", "Angus", "York Knights", "Durham Knights", "York Infantry", "Durham Infantry")
    place(state, "england", "Mar", "Lancaster Infantry", "Cumbria Infantry")
    apply_moves(state, "england", moves(
        go("Angus", (["York Knights", "Durham Knights", "York Infantry", "Durham Infantry"], ["Buchan"])),
        go("Mar", (["Lancaster Infantry", "Cumbria Infantry"], ["Buchan"])),
        main_attack={"Buchan": {"from": "Angus", "via": "Angus"}}))
    rec = Recorder(lambda q: "pass" if q.kind == "battle_action" else None)
    log = fight(state, "Buchan", ScriptedDice([]), rec)
    by_round = {r: [q.context["block"] for q in rec.asked if q.kind == "battle_action" and q.context["round"] == r]
                for r in (1, 2)}
    assert by_round[1] == ["Durham Knights", "York Knights", "Douglas", "Durham Infantry", "York Infantry"]
    assert by_round[2] == ["Durham Knights", "York Knights", "Douglas", "Cumbria Infantry", "Durham Infantry",
                           "Lancaster Infantry", "York Infantry"]
    (reserves,) = [e for e in log if e.what == "reveal" and e.facts["round"] == 2]
    assert [b["block"] for b in reserves.facts["blocks"]] == ["Cumbria Infantry", "Lancaster Infantry"]


def the_5_33_example_moved() -> GameState:
    """5.33's example after both Move Phases: England attacks Buchan from Angus with 4 blocks,
    the Scots reinforce their 2 defenders with 3 blocks from Moray."""
    state = place(turn("england", england=1, scotland=1), "scotland", "Buchan", "Douglas", "Campbell")
    place(state, "scotland", "Moray", "Graham", "MacDonald", "Lindsay")
    place(state, "england", "Angus", "York Knights", "Durham Knights", "York Infantry", "Durham Infantry")
    apply_moves(state, "england", moves(go("Angus", (["York Knights", "Durham Knights", "York Infantry",
                                                      "Durham Infantry"], ["Buchan"]))))
    apply_moves(state, "scotland", moves(go("Moray", (["Graham", "MacDonald", "Lindsay"], ["Strathspey", "Buchan"]))))
    return state


def test_5_33_rulebook_example_fought_the_moray_blocks_arrive_in_round_2() -> None:
    state = the_5_33_example_moved()
    rec = Recorder(lambda q: "pass" if q.kind == "battle_action" else None)
    fight(state, "Buchan", ScriptedDice([]), rec)
    round_1 = [q.context["block"] for q in rec.asked if q.kind == "battle_action" and q.context["round"] == 1]
    round_2 = [q.context["block"] for q in rec.asked if q.kind == "battle_action" and q.context["round"] == 2]
    assert not {"Graham", "MacDonald", "Lindsay"} & set(round_1)
    assert {"Graham", "MacDonald", "Lindsay"} <= set(round_2)
    # the English must retreat after round 3, never through Buchan-Strathspey, which the Scots used (5.5)
    retreats = [q.options for q in rec.asked if q.kind == "retreat"]
    assert retreats == [("Angus", "Badenoch", "Mar")] * 4
    assert state.control("Buchan") == "scotland"


def test_5_32_one_origin_through_two_borders_is_two_groups() -> None:
    state = place(turn("england"), "scotland", "Buchan", "Douglas")
    place(state, "england", "Strathspey", "York Knights", "Durham Knights")
    order = go("Strathspey", (["York Knights"], ["Buchan"]), (["Durham Knights"], ["Badenoch", "Buchan"]))
    illegal(state, "england", moves(order), "5.32")
    apply_moves(state, "england", moves(order, main_attack={"Buchan": {"from": "Strathspey", "via": "Badenoch"}}))
    battle = state.current.battles["Buchan"]
    assert battle.main == ["Durham Knights"] and battle.attacker_reserves == ["York Knights"]


def test_5_33_player_2_blocks_moving_into_its_battle_are_reserves() -> None:
    state = the_5_33_example_moved()
    battle = state.current.battles["Buchan"]
    assert battle.attacker == "england"
    assert battle.defender_reserves == ["Graham", "Lindsay", "MacDonald"]
    assert battle.entered == {"england": ["Angus-Buchan"], "scotland": ["Buchan-Strathspey"]}


# --- 4.7 -----------------------------------------------------------------------------------------

def test_4_7_the_norse_move_by_sea_coast_to_coast_for_one_point() -> None:
    state = place(turn("scotland", scotland=1), "scotland", "Moray", "Norse", "Douglas")
    order = parse_moves({"moves": [{"from": "Moray", "sea_to": "Argyll", "blocks": ["Norse"]}]})
    log = apply_moves(state, "scotland", order)
    assert state.block("Norse").location == "Argyll"
    assert [e.facts["points"] for e in log if e.visibility == PRIVATE_UNMARKED] == [1]
    assert state.current.crossings == {}


def test_4_7_the_norse_never_move_by_land_nor_with_other_blocks() -> None:
    state = place(turn("scotland"), "scotland", "Moray", "Norse", "Douglas")
    illegal(state, "scotland", moves(go("Moray", (["Norse"], ["Strathspey"]))), "4.7", "only by sea")
    illegal(state, "scotland", moves({"from": "Moray", "sea_to": "Argyll", "blocks": ["Norse", "Douglas"]}), "4.7",
            "only the Norse move by sea")


def test_4_7_the_norse_never_enter_england_nor_inland_areas() -> None:
    state = place(turn("scotland"), "scotland", "Moray", "Norse")
    illegal(state, "scotland", moves({"from": "Moray", "sea_to": "England", "blocks": ["Norse"]}), "4.7", "England")
    illegal(state, "scotland", moves({"from": "Moray", "sea_to": "Badenoch", "blocks": ["Norse"]}), "4.7", "coastal")
    dests = sorted(s.destination for s in legal_steps(state, "scotland"))
    assert dests == sorted(a for a in board().coastal_areas() if a not in ("England", "Moray"))


def test_4_7_a_norse_attack_is_its_own_group_and_closes_no_border() -> None:
    state = place(turn("scotland", scotland=2), "scotland", "Moray", "Norse")
    place(state, "scotland", "Angus", "Douglas")
    place(state, "england", "Fife", "York Infantry")
    sea = {"from": "Moray", "sea_to": "Fife", "blocks": ["Norse"]}
    illegal(state, "scotland", moves(sea, go("Angus", (["Douglas"], ["Fife"]))), "5.32")
    apply_moves(state, "scotland", moves(sea, go("Angus", (["Douglas"], ["Fife"])),
                                         main_attack={"Fife": {"from": "Angus", "via": "Angus"}}))
    battle = state.current.battles["Fife"]
    assert battle.main == ["Douglas"] and battle.attacker_reserves == ["Norse"]
    assert battle.entered == {"scotland": ["Angus-Fife"]}


def test_4_7_the_norse_alone_is_a_main_attack_by_sea() -> None:
    state = place(turn("scotland"), "scotland", "Moray", "Norse")
    place(state, "england", "Fife", "York Infantry")
    apply_moves(state, "scotland", moves({"from": "Moray", "to": "Fife", "blocks": ["Norse"]}))
    battle = state.current.battles["Fife"]
    assert battle.main == ["Norse"] and battle.main_border == "sea" and battle.entered == {}


# --- Truce (3.12) ------------------------------------------------------------------------------

def test_3_12_truce_the_opponent_may_move_but_not_attack() -> None:
    state = place(turn("scotland", truce="scotland"), "england", "Angus", "York Knights")
    place(state, "scotland", "Buchan", "Douglas")
    illegal(state, "england", moves(go("Angus", (["York Knights"], ["Buchan"]))), "3.12", "Truce forbids attacking")
    apply_moves(state, "england", moves(go("Angus", (["York Knights"], ["Fife"]))))
    assert state.block("York Knights").location == "Fife"


def test_5_9_truce_the_scots_cannot_enter_england_even_if_empty() -> None:
    state = place(turn("england", truce="england"), "scotland", "Annan", "Wallace")
    illegal(state, "scotland", moves(go("Annan", (["Wallace"], ["England"]))), "5.9", "during a Truce")
    assert all(s.destination != "England" for s in legal_steps(state, "scotland"))
    apply_moves(state, "scotland", moves(go("Annan", (["Wallace"], ["Carrick"]))))


# --- sidebars: Closing Borders, Attacker or Defender ---------------------------------------------

def test_5_5_closing_borders_sidebar_example_player_1s_move_closes_no_border() -> None:
    state = place(turn("scotland"), "scotland", "Badenoch", "Campbell", "Graham")
    place(state, "england", "Mar", "York Knights")
    apply_moves(state, "scotland", moves(go("Badenoch", (["Campbell", "Graham"], ["Atholl"]))))
    apply_moves(state, "england", moves(go("Mar", (["York Knights"], ["Atholl"]))))
    battle = state.current.battles["Atholl"]
    assert battle.attacker == "england" and battle.entered == {"england": ["Atholl-Mar"]}
    # either side may retreat to Badenoch; the Scots, first to do it, close it to the English
    rec = Recorder(lambda q: ("retreat:Badenoch" if q.context["block"] == "Campbell" and q.context["round"] == 1
                              else "pass") if q.kind == "battle_action" else None)
    fight(state, "Atholl", ScriptedDice([]), rec)
    knights = [q.options for q in rec.asked if q.kind == "battle_action" and q.context["block"] == "York Knights"]
    assert "retreat:Badenoch" in knights[0] and "retreat:Badenoch" not in knights[1]
    assert "retreat:Mar" in knights[0]


def test_5_attacker_or_defender_sidebar_one_side_attacks_one_battle_and_defends_another() -> None:
    state = place(turn("england"), "scotland", "Fife", "Campbell")
    place(state, "scotland", "Mentieth", "Graham")
    place(state, "england", "Angus", "York Knights")
    place(state, "england", "Lothian", "York Infantry")
    apply_moves(state, "england", moves(go("Angus", (["York Knights"], ["Fife"]))))
    apply_moves(state, "scotland", moves(go("Mentieth", (["Graham"], ["Lothian"]))))
    assert {a: b.attacker for a, b in state.current.battles.items()} == {"Fife": "england", "Lothian": "scotland"}
    rec = Recorder(lambda q: "pass" if q.kind == "battle_action" else None)
    for area in ("Fife", "Lothian"):
        fight(state, area, ScriptedDice([]), rec)
    # each attacker, not won in three rounds, retreats (5.3)
    assert state.control("Fife") == "scotland" and state.control("Lothian") == "england"
    assert state.block("York Knights").location == "Angus" and state.block("Graham").location == "Dunbar"
