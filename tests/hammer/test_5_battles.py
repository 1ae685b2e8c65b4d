"""5.0-5.9 battles (with 1.4 home fire, 6.1 Edward, 9.1 the kings), fought with scripted dice."""

from __future__ import annotations

import pytest
from fakes import Recorder, ScriptedDice, bare_state, battle_at, put

from pbem.hammer.rules.battle import DefaultBattleDecider, apply_hits, battle_order, border_raid, fight, fight_defection
from pbem.hammer.rules.decisions import Question, Scripted
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, entry, redacted
from pbem.hammer.rules.state import DEAD, POOL, GameState
from pbem.hammer.show.battle_log import format_log

E, S = "england", "scotland"


def actions(plan: dict[tuple[int, str], str], default: str = "pass"):  # type: ignore[no-untyped-def]
    """A rule for Recorder: battle actions by (round, block), ``default`` otherwise."""
    def rule(q: Question) -> str | None:
        if q.kind != "battle_action":
            return None
        answer = plan.get((q.context["round"], q.context["block"]), default)
        return answer if answer in q.options else "pass"
    return rule


def turns(rec: Recorder, round_: int) -> list[str]:
    return [q.context["block"] for q in rec.asked if q.kind == "battle_action" and q.context["round"] == round_]


def entries(log: list[LogEntry], what: str) -> list[LogEntry]:
    return [e for e in log if e.what == what]


def run(state: GameState, area: str, dice: list[int], rec: Recorder) -> list[LogEntry]:
    rng = ScriptedDice(dice)
    log = fight(state, area, rng, rec)
    assert rng.dice == [], f"dice left over: {rng.dice}"
    return log


# --- 5.1 ---------------------------------------------------------------------------------------------

def test_5_1_battle_order_player1_list_first_then_alphabetical() -> None:
    state = bare_state()
    for area in ("Mar", "Angus", "Fife", "Lennox"):
        battle_at(state, area, E)
    assert battle_order(state, ["Lennox", "Fife"]) == ["Lennox", "Fife", "Angus", "Mar"]
    assert battle_order(state, []) == ["Angus", "Fife", "Lennox", "Mar"]
    with pytest.raises(IllegalOrder, match=r"5\.1"):
        battle_order(state, ["Ross"])


# --- 5.31 --------------------------------------------------------------------------------------------

def test_5_31_combat_order_example_noble_knight_infantry_infantry() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "York Infantry")
    put(state, S, "Fife", "Atholl", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights", "York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({}))
    run(state, "Fife", [], rec)
    assert turns(rec, 1) == ["Atholl", "York Knights", "Campbell", "York Infantry"]
    assert turns(rec, 3) == turns(rec, 1)
    # 5.3: not concluded after three rounds, the attacker retreats
    assert state.blocks_in("Fife") == ["Atholl", "Campbell"]
    assert state.control("Fife") == S


def test_5_3_attacker_must_retreat_after_round_3_each_block_chooses() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "York Infantry")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights", "York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(lambda q: {"York Infantry": "Mentieth", "York Knights": "Angus"}.get(q.context.get("block", ""))
                   if q.kind == "retreat" else actions({})(q))
    log = run(state, "Fife", [], rec)
    asked = [q for q in rec.asked if q.kind == "retreat"]
    assert [q.options for q in asked] == [("Angus", "Atholl", "Mentieth")] * 2
    assert state.blocks["York Knights"].location == "Angus"
    assert state.blocks["York Infantry"].location == "Mentieth"
    assert all(e.facts["forced"] for e in entries(log, "retreat"))
    assert entries(log, "battle_end")[0].facts["winner"] == S


# --- 5.4, 5.41 --------------------------------------------------------------------------------------

def test_5_4_a_die_per_step_hits_at_or_below_rating() -> None:
    state = bare_state()
    put(state, E, "Fife", "Lancaster Knights", strength=3)
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["Lancaster Knights"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [2, 4, 5], Recorder(actions({(1, "Lancaster Knights"): "fire"})))
    fire = entries(log, "fire")[0]
    assert fire.facts["rating"] == "B3" and fire.facts["hits"] == 1
    dice = fire.facts["dice"]
    assert isinstance(dice, list)
    assert [(d["value"], d["index"], d["hit"]) for d in dice] == [(2, 0, True), (4, 1, False), (5, 2, False)]
    assert state.blocks["Campbell"].strength == 3


def test_5_41_three_hits_on_three_4_step_blocks_reduce_each_to_3() -> None:
    state = bare_state()
    put(state, S, "Fife", "Campbell", "Graham", "Barclay")
    log = apply_hits(state, ["Barclay", "Campbell", "Graham"], 3, DefaultBattleDecider())
    assert [state.blocks[b].strength for b in ("Barclay", "Campbell", "Graham")] == [3, 3, 3]
    assert [e.facts["block"] for e in log] == ["Barclay", "Campbell", "Graham"]


def test_5_41_owner_chooses_among_ties_only() -> None:
    state = bare_state()
    put(state, S, "Fife", "Campbell", "Graham", "Barclay")
    put(state, S, "Fife", "Lindsay", strength=1)
    dec = Scripted({S: ["Graham", "Campbell"]})
    apply_hits(state, ["Barclay", "Campbell", "Graham", "Lindsay"], 3, dec)
    assert [q.options for q in dec.asked] == [("Barclay", "Campbell", "Graham"), ("Barclay", "Campbell")]
    assert all(q.kind == "hit" and q.side == S for q in dec.asked)
    assert {b: state.blocks[b].strength for b in ("Barclay", "Campbell", "Graham", "Lindsay")} == \
        {"Barclay": 3, "Campbell": 3, "Graham": 3, "Lindsay": 1}


def test_5_41_hits_go_to_the_strongest() -> None:
    state = bare_state()
    put(state, S, "Fife", "Campbell")
    put(state, S, "Fife", "Graham", strength=2)
    apply_hits(state, ["Campbell", "Graham"], 2, Scripted())  # never a tie at the top: no question
    assert (state.blocks["Campbell"].strength, state.blocks["Graham"].strength) == (2, 2)


def test_1_4_noble_defending_home_fires_b3() -> None:
    state = bare_state()
    put(state, S, "Atholl", "Atholl")
    put(state, E, "Atholl", "York Infantry")
    battle_at(state, "Atholl", E, main=["York Infantry"], entered={E: ["Atholl-Fife"]})
    log = run(state, "Atholl", [3, 3, 3, 6, 1, 6, 6], Recorder(actions({}, default="fire")))
    fires = entries(log, "fire")
    assert fires[0].facts["block"] == "Atholl" and fires[0].facts["rating"] == "B3" and fires[0].facts["hits"] == 3
    assert state.blocks["York Infantry"].location == POOL
    assert entries(log, "battle_end")[0].facts["winner"] == S


def test_1_4_noble_attacking_home_fires_b2() -> None:
    state = bare_state()
    put(state, S, "Atholl", "Atholl")
    put(state, E, "Atholl", "York Infantry")
    battle_at(state, "Atholl", S, main=["Atholl"], entered={S: ["Atholl-Fife"]})
    log = run(state, "Atholl", [3, 3, 3, 6, 6, 6, 6], Recorder(actions({(1, "Atholl"): "fire",
                                                                    (1, "York Infantry"): "fire"})))
    fire = entries(log, "fire")[0]
    assert fire.facts["block"] == "Atholl" and fire.facts["rating"] == "B2" and fire.facts["hits"] == 0
    assert state.blocks["York Infantry"].strength == 4


def test_1_4_noble_defecting_during_battle_defends_home_at_b3() -> None:
    """Mar, captured by the Scots defending Mar, fires B3 for them the next round (1.4, 5.7)."""
    state = bare_state()
    put(state, E, "Mar", "Mar", strength=1)
    put(state, E, "Mar", "York Knights")
    put(state, S, "Mar", "Douglas")
    battle_at(state, "Mar", E, main=["Mar", "York Knights"], entered={E: ["Angus-Mar"]})
    plan = {(1, "Douglas"): "fire", (2, "Mar"): "fire"}
    state.blocks["York Knights"].strength = 1  # Douglas's one hit: England chooses Mar among the tied
    rec = Recorder(actions(plan), fallback=Scripted({S: [], E: ["Mar"]}, fallback=DefaultBattleDecider()))
    log = run(state, "Mar", [1, 6, 6, 6, 1], rec)
    assert state.blocks["Mar"].owner == S
    mar_fire = [e for e in entries(log, "fire") if e.facts["block"] == "Mar"][0]
    assert mar_fire.facts["round"] == 2 and mar_fire.actor == S and mar_fire.facts["rating"] == "B3"
    assert state.blocks["York Knights"].location == POOL


def test_5_4_schiltroms_scots_infantry_fire_one_better_without_english_archers() -> None:
    state = bare_state()
    state.options.schiltroms = True
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [6, 6, 6, 6, 3, 3, 3, 3], Recorder(actions({}, default="fire")))
    assert entries(log, "fire")[1].facts["rating"] == "C3" and entries(log, "fire")[1].facts["hits"] == 4
    assert state.blocks["York Knights"].location == POOL


def test_5_4_schiltroms_not_when_english_archers_fight() -> None:
    state = bare_state()
    state.options.schiltroms = True
    put(state, E, "Fife", "York Knights", "Lancaster Archers")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights", "Lancaster Archers"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({(1, "York Knights"): "fire", (1, "Lancaster Archers"): "fire", (1, "Campbell"): "fire"}))
    log = run(state, "Fife", [6] * 7 + [3, 3, 3, 3], rec)
    assert entries(log, "fire")[2].facts["rating"] == "C2" and entries(log, "fire")[2].facts["hits"] == 0


def test_5_4_without_the_option_no_schiltroms() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({(1, "York Knights"): "fire", (1, "Campbell"): "fire"}))
    log = run(state, "Fife", [6, 6, 6, 6, 3, 3, 3, 3], rec)
    assert entries(log, "fire")[1].facts["rating"] == "C2"


# --- 5.2 -----------------------------------------------------------------------------------------

def test_5_2_celtic_unity_5_or_6_sends_the_block_to_the_pool() -> None:
    state = bare_state()
    put(state, E, "Fife", "Wales Archers", "Ulster Infantry", "York Knights")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["Wales Archers", "Ulster Infantry", "York Knights"],
              entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({}))
    log = run(state, "Fife", [4, 5], rec)  # Ulster Infantry 4 stays, Wales Archers 5 leaves
    celtic = entries(log, "celtic")
    assert [(c.facts["block"], c.facts["die"], c.facts["result"]) for c in celtic] == [
        ("Ulster Infantry", 4, "stays"), ("Wales Archers", 5, "pool")]
    assert state.blocks["Wales Archers"].location == POOL
    assert "Wales Archers" not in turns(rec, 1)


def test_5_2_celtic_reserves_roll_when_revealed_in_round_2() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "Wales Infantry")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights"], attacker_reserves=["Wales Infantry"],
              entered={E: ["Angus-Fife", "Fife-Mentieth"]})
    log = run(state, "Fife", [6], Recorder(actions({})))
    (roll,) = entries(log, "celtic")
    assert roll.facts["round"] == 2 and roll.facts["block"] == "Wales Infantry" and roll.facts["result"] == "pool"


def test_5_2_a_celtic_loss_can_end_the_battle() -> None:
    state = bare_state()
    put(state, E, "Fife", "Wales Infantry")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["Wales Infantry"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [5], Recorder(actions({})))
    assert entries(log, "battle_end")[0].facts["winner"] == S and state.control("Fife") == S


# --- 5.32, 5.33 -----------------------------------------------------------------------------------

def test_5_32_reserves_neither_fire_nor_take_hits_in_round_1_and_arrive_even_alone() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", strength=3)
    put(state, E, "Fife", "York Infantry")
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["York Knights"], attacker_reserves=["York Infantry"],
              entered={E: ["Angus-Fife", "Fife-Mentieth"]})
    rec = Recorder(actions({(1, "York Knights"): "fire", (1, "Campbell"): "fire"}))
    log = run(state, "Fife", [6, 6, 6, 1, 1, 1, 1], rec)
    assert turns(rec, 1) == ["York Knights", "Campbell"]
    assert state.blocks["York Knights"].location == POOL
    assert [e.facts["block"] for e in entries(log, "hit")] == ["York Knights"] * 3  # the 4th hit is lost
    reveal2 = [e for e in entries(log, "reveal") if e.facts["round"] == 2]
    assert reveal2 == [entry("reveal", E, PUBLIC, area="Fife", round=2, seen_by=S, rule="5.32",
                             blocks=[{"block": "York Infantry", "strength": 4}])]
    assert turns(rec, 2) == ["Campbell", "York Infantry"]


def test_5_32_reserves_stay_hidden_when_the_battle_ends_in_round_1() -> None:
    state = bare_state()
    put(state, S, "Fife", "Campbell", "Graham")
    put(state, E, "Fife", "York Infantry", strength=1)
    battle_at(state, "Fife", S, main=["Campbell"], attacker_reserves=["Graham"],
              entered={S: ["Fife-Mentieth", "Atholl-Fife"]})
    log = run(state, "Fife", [6, 1, 6, 6, 6], Recorder(actions({}, default="fire")))
    assert not [e for e in entries(log, "reveal") if any(b["block"] == "Graham" for b in e.facts["blocks"])]
    assert entries(log, "battle_end")[0].facts["hidden_reserves"] == {S: 1}
    assert state.blocks["Graham"].location == "Fife"


def test_5_32_battlefield_control_changes_when_defenders_die_before_reinforcements() -> None:
    state = bare_state()
    state.current.player1 = E
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Campbell", strength=1)
    put(state, S, "Fife", "Graham")
    battle_at(state, "Fife", E, main=["York Knights"], defender_reserves=["Graham"],
              entered={E: ["Angus-Fife"], S: ["Fife-Mentieth"]})
    rec = Recorder(actions({(1, "York Knights"): "fire"}))
    log = run(state, "Fife", [1, 6, 6, 6], rec)
    (switch,) = entries(log, "control")
    assert switch.facts["round"] == 2 and switch.facts["attacker"] == S and switch.facts["defender"] == E
    assert turns(rec, 2) == ["York Knights", "Graham"]
    # the new attacker must retreat after round 3; never through Angus-Fife, which England used (5.5)
    (q,) = [q for q in rec.asked if q.kind == "retreat"]
    assert q.side == S and q.options == ("Atholl", "Mentieth")
    assert state.control("Fife") == E and state.blocks["Graham"].location == "Atholl"


def test_5_33_reinforcements_example_arrive_in_round_2() -> None:
    state = bare_state()
    state.current.player1 = E
    english = ["York Knights", "Lancaster Knights", "York Infantry", "Lancaster Infantry"]
    put(state, E, "Buchan", *english)
    put(state, S, "Buchan", "Campbell", "Graham", "Douglas", "Barclay", "Lindsay")
    battle_at(state, "Buchan", E, main=english, defender_reserves=["Douglas", "Barclay", "Lindsay"],
              entered={E: ["Angus-Buchan"], S: ["Buchan-Strathspey"]})
    rec = Recorder(actions({}))
    log = run(state, "Buchan", [], rec)
    assert sorted(turns(rec, 1)) == sorted(english + ["Campbell", "Graham"])
    assert sorted(turns(rec, 2)) == sorted(english + ["Campbell", "Graham", "Douglas", "Barclay", "Lindsay"])
    (r2,) = [e for e in entries(log, "reveal") if e.facts["round"] == 2]
    assert r2.actor == S and [b["block"] for b in r2.facts["blocks"]] == ["Barclay", "Douglas", "Lindsay"]
    assert all(q.options == ("Angus", "Badenoch", "Mar") for q in rec.asked if q.kind == "retreat")


# --- 5.5 ----------------------------------------------------------------------------------------------

def test_5_5_retreat_only_to_friendly_or_neutral_areas() -> None:
    from pbem.hammer.rules.retreat import retreat_areas
    state = bare_state()
    put(state, S, "Fife", "Campbell")
    put(state, E, "Fife", "York Knights")
    put(state, E, "Angus", "York Infantry")                       # enemy
    put(state, S, "Mentieth", "Graham")
    put(state, E, "Mentieth", "Lancaster Infantry")               # contested
    assert retreat_areas(state, "Campbell", "Fife", {}) == ["Atholl"]  # neutral
    put(state, S, "Atholl", "Barclay")
    assert retreat_areas(state, "Campbell", "Fife", {}) == ["Atholl"]  # friendly


def test_5_5_border_limit_per_combat_round() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights")
    put(state, E, "Angus", "York Infantry")
    put(state, E, "Mentieth", "Lancaster Infantry")
    put(state, S, "Fife", "Barclay", "Campbell", "Graham")
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    plan = {(1, "Barclay"): "retreat:Atholl", (1, "Campbell"): "retreat:Atholl", (2, "Graham"): "retreat:Atholl"}
    rec = Recorder(actions(plan))
    run(state, "Fife", [], rec)
    graham = [q for q in rec.asked if q.kind == "battle_action" and q.context["block"] == "Graham"]
    assert graham[0].options == ("fire", "pass")                       # Fife-Atholl is red: 2 a round
    assert graham[1].options == ("fire", "retreat:Atholl", "pass")     # a new round, a new count
    assert state.blocks_in("Atholl") == ["Barclay", "Campbell", "Graham"]


def test_5_5_border_control() -> None:
    from pbem.hammer.rules.retreat import retreat_areas
    from pbem.hammer.rules.state import Battle
    state = bare_state()
    state.current.player1 = E
    put(state, S, "Fife", "Campbell")
    put(state, E, "Fife", "York Knights")
    b = Battle(area="Fife", attacker=E, entered={E: ["Angus-Fife", "Fife-Mentieth"], S: ["Fife-Mentieth"]})
    assert retreat_areas(state, "Campbell", "Fife", {}, b) == ["Atholl", "Mentieth"]   # Scots are Player 2
    assert retreat_areas(state, "York Knights", "Fife", {}, b) == ["Angus", "Atholl"]  # England is Player 1
    assert retreat_areas(state, "Campbell", "Fife", {}, b, border_control=False) == ["Angus", "Atholl", "Mentieth"]


def test_5_5_no_retreat_into_the_other_sides_country() -> None:
    from pbem.hammer.rules.retreat import retreat_areas
    state = bare_state()
    put(state, E, "England", "York Knights")
    put(state, S, "England", "Campbell")
    assert retreat_areas(state, "York Knights", "England", {}) == []
    assert retreat_areas(state, "Campbell", "England", {}) == ["Annan", "Dunbar", "Teviot"]
    state = bare_state()
    put(state, E, "Annan", "Lancaster Knights")
    put(state, S, "Annan", "Graham")
    assert "England" in retreat_areas(state, "Lancaster Knights", "Annan", {})
    assert "England" not in retreat_areas(state, "Graham", "Annan", {})


def test_4_7_norse_retreat_by_sea_to_friendly_coastal_areas_only() -> None:
    from pbem.hammer.rules.retreat import retreat_areas
    state = bare_state()
    put(state, S, "Fife", "Norse")
    put(state, E, "Fife", "York Knights")
    put(state, S, "Ross", "Campbell")        # friendly coastal
    put(state, S, "Mar", "Graham")           # friendly, not coastal
    put(state, S, "England", "Barclay")      # friendly(!) but England
    assert retreat_areas(state, "Norse", "Fife", {}) == ["Ross"]


def test_5_8_black_cross_unable_to_retreat_is_dead() -> None:
    state = bare_state()
    put(state, S, "Fife", "Wallace")
    put(state, E, "Fife", "York Knights")
    for area, name in (("Angus", "York Infantry"), ("Atholl", "Lancaster Infantry"), ("Mentieth", "Durham Infantry")):
        put(state, E, area, name)
    battle_at(state, "Fife", S, main=["Wallace"], entered={S: ["Fife-Mentieth"]})
    log = run(state, "Fife", [], Recorder(actions({})))
    assert state.blocks["Wallace"].location == DEAD
    assert entries(log, "no_retreat")[0].facts["block"] == "Wallace"
    assert state.control("Fife") == E


# --- 5.6 ----------------------------------------------------------------------------------------------

def test_5_6_victors_regroup_reserves_included_without_border_control() -> None:
    state = bare_state()
    state.current.player1 = S
    put(state, S, "Fife", "Campbell", "Graham")
    put(state, E, "Fife", "York Infantry", strength=1)
    battle_at(state, "Fife", S, main=["Campbell"], attacker_reserves=["Graham"],
              entered={S: ["Fife-Mentieth", "Atholl-Fife"], E: ["Angus-Fife"]})
    rec = Recorder(lambda q: ("Angus" if q.context["block"] == "Campbell" else "stay") if q.kind == "regroup"
                   else actions({}, default="fire")(q))
    log = run(state, "Fife", [6, 1, 6, 6, 6], rec)
    regroups = [q for q in rec.asked if q.kind == "regroup"]
    assert [q.context["block"] for q in regroups] == ["Campbell", "Graham"]
    assert regroups[0].options == ("stay", "Angus", "Atholl", "Mentieth")
    assert state.blocks["Campbell"].location == "Angus" and state.blocks["Graham"].location == "Fife"
    (e,) = entries(log, "regroup")
    assert e.visibility == redacted("to")  # the enemy sees that Campbell regrouped, not where (5.6)
    assert e.to_data()["public"] is False and e.to_data()["redact"] == ["to"]


# --- 5.7, 5.8 -------------------------------------------------------------------------------------------

def test_5_7_noble_killed_changes_sides_at_strength_1_and_fights_next_round() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Mar", "Campbell", strength=1)
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    rec = Recorder(lambda q: "Mar" if q.kind == "hit" else actions({(1, "York Knights"): "fire"})(q))
    log = run(state, "Fife", [1, 6, 6, 6], rec)
    (gone,) = entries(log, "eliminated")
    assert gone.facts["block"] == "Mar" and gone.facts["to"] == "captured" and gone.facts["now"] == E
    assert [q.context["block"] for q in rec.asked if q.kind == "battle_action" and q.context["round"] == 2] == \
        ["Mar", "York Knights", "Campbell"]
    mar_q = [q for q in rec.asked if q.kind == "battle_action" and q.context["block"] == "Mar"]
    assert [q.side for q in mar_q] == [S, E, E]
    # England (attacker) retreats after round 3, Mar with it
    assert state.blocks["Mar"].owner == E and state.blocks["Mar"].strength == 1
    assert state.blocks["Mar"].location != "Fife"


def test_5_7_moray_never_defects_and_dies() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Moray", strength=1)
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [1, 6, 6, 6], Recorder(actions({(1, "York Knights"): "fire"})))
    assert state.blocks["Moray"].location == DEAD and state.blocks["Moray"].owner == S
    assert entries(log, "battle_end")[0].facts["winner"] == E


def test_5_8_black_cross_killed_is_dead_others_go_to_the_pool() -> None:
    state = bare_state()
    put(state, E, "Fife", "Hobelars", "York Infantry", strength=1)
    put(state, S, "Fife", "Douglas")
    battle_at(state, "Fife", E, main=["Hobelars", "York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({}, default="fire"))
    log = run(state, "Fife", [6, 1, 1, 6, 6], rec)
    assert turns(rec, 1) == ["Hobelars", "Douglas"]
    (tie,) = [q for q in rec.asked if q.kind == "hit"]
    assert tie.side == E and tie.options == ("Hobelars", "York Infantry")
    assert state.blocks["Hobelars"].location == DEAD
    assert state.blocks["York Infantry"].location == POOL
    assert entries(log, "battle_end")[0].facts["winner"] == S


# --- 6.1, 9.1 ------------------------------------------------------------------------------------------

def _edward_battle(edward: str) -> GameState:
    state = bare_state()
    state.edward = edward
    put(state, E, "Fife", "Edward", strength=1)
    put(state, S, "Fife", "Douglas")
    battle_at(state, "Fife", E, main=["Edward"], entered={E: ["Angus-Fife"]})
    run(state, "Fife", [6, 1, 6, 6, 6], Recorder(actions({}, default="fire")))
    return state


def test_6_1_edward_i_killed_becomes_edward_ii_in_the_pool() -> None:
    state = _edward_battle("I")
    assert state.edward == "II" and state.blocks["Edward"].location == POOL and not state.winner


def test_9_1_edward_ii_killed_in_battle_scotland_wins() -> None:
    state = _edward_battle("II")
    assert state.winner == S and "Edward II" in state.win_reason


def test_9_1_scottish_king_killed_in_battle_england_wins() -> None:
    state = bare_state()
    state.king = "Bruce"
    put(state, S, "Fife", "King", "Campbell", strength=1)
    put(state, E, "Fife", "York Knights")
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    rec = Recorder(lambda q: "King" if q.kind == "hit" else actions({}, default="fire")(q))
    log = run(state, "Fife", [6, 1, 6, 6, 6], rec)  # the King misses; the Knights' hit: tie, the King
    assert state.winner == E
    assert state.blocks["King"].location == DEAD
    assert entries(log, "battle_end")[-1].facts["game_over"] is True


# --- 5.9 -----------------------------------------------------------------------------------------------

def test_5_9_border_raid_england_removes_a_non_noble_hidden_to_the_pool() -> None:
    state = bare_state()
    put(state, S, "England", "Campbell")
    put(state, E, "Fife", "Hobelars")
    put(state, E, "England", "York Infantry")
    put(state, E, "Mar", "Mar")
    dec = Scripted({E: ["Hobelars"]})
    log = border_raid(state, dec)
    assert dec.asked[0].kind == "raid_loss" and dec.asked[0].options == ("Hobelars", "York Infantry")
    assert state.blocks["Hobelars"].location == POOL            # black cross, but not killed in battle
    secret = [e for e in log if e.visibility != PUBLIC]
    assert secret and secret[0].facts["block"] == "Hobelars" and secret[0].visibility == PRIVATE
    assert secret[0].to_data()["public"] is False                # the Scots are not told which
    assert all("block" not in e.facts for e in log if e.visibility == PUBLIC)


def test_5_9_no_raid_loss_with_only_nobles_or_no_raiders() -> None:
    state = bare_state()
    put(state, E, "Mar", "Mar")
    assert border_raid(state, Scripted()) == []
    put(state, S, "England", "Campbell")
    assert border_raid(state, Scripted())[0].facts["removed"] == 0
    assert state.blocks["Mar"].location == "Mar"


# --- defection battles ----------------------------------------------------------------------------------

def test_6_21_defection_battle_defectors_attack_at_once() -> None:
    state = bare_state()
    put(state, E, "Mar", "Mar")        # just defected: attacks, so no home bonus
    put(state, S, "Mar", "Campbell")
    rec = Recorder(actions({(1, "Mar"): "fire", (1, "Campbell"): "fire"}))
    rng = ScriptedDice([2, 2, 3, 6, 6])
    log = fight_defection(state, "Mar", ["Mar"], rng, rec)
    assert log[0].facts["attacker"] == E
    fire = entries(log, "fire")[0]
    assert fire.facts["block"] == "Mar" and fire.facts["rating"] == "B2" and fire.facts["hits"] == 2
    assert state.blocks["Mar"].location != "Mar" and state.control("Mar") == S   # retreated after round 3
    assert "Mar" not in state.current.battles and state.current.fight is None


# --- resuming ---------------------------------------------------------------------------------------------

def _tied_position() -> GameState:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "Lancaster Knights")
    put(state, E, "Fife", "York Infantry")
    put(state, S, "Fife", "Campbell", "Graham", "Barclay")
    battle_at(state, "Fife", E, main=["York Knights", "Lancaster Knights"], attacker_reserves=["York Infantry"],
              entered={E: ["Angus-Fife", "Fife-Mentieth"]})
    return state


def test_5_0_a_paused_battle_resumes_and_ends_as_an_unbroken_one() -> None:
    from pbem.core.drbg import Drbg
    from pbem.hammer.rules.decisions import NeedDecision
    key = bytes(range(32))
    whole = _tied_position()
    whole_log = fight(whole, "Fife", Drbg(key), DefaultBattleDecider())

    state = _tied_position()
    rng = Drbg(key)
    answers: dict[str, list[str]] = {E: [], S: []}
    pauses = 0
    while True:
        rng = Drbg(key, rng.position)                      # the stream continued where it stopped
        try:
            log = fight(state, "Fife", rng, _Counting(answers))
            break
        except NeedDecision as pause:
            pauses += 1
            q = pause.question
            answers[q.side].append(DefaultBattleDecider().decide(q))
            state = GameState.from_dict(state.to_dict())   # saved and loaded as plain data
    assert pauses > 3
    assert log == whole_log
    assert state.to_dict() == whole.to_dict()


class _Counting:
    """Answers what it has been told, then pauses."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers

    def decide(self, q: Question) -> str:
        from pbem.hammer.rules.decisions import NeedDecision
        if self.answers[q.side]:
            return self.answers[q.side].pop(0)
        raise NeedDecision(q)


def test_5_0_battle_log_formats_die_by_die() -> None:
    state = bare_state()
    put(state, E, "Fife", "Lancaster Knights", strength=3)
    put(state, S, "Fife", "Campbell")
    battle_at(state, "Fife", E, main=["Lancaster Knights"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [2, 4, 5], Recorder(actions({(1, "Lancaster Knights"): "fire"})))
    text = format_log(log)
    assert "Lancaster Knights (england) fires B3: 2*[#0] 4[#1] 5[#2] -> 1 hit(s)" in text
    assert "hit on Campbell -> strength 3" in text
