"""5.0-5.9 clause by clause where test_5_battles.py leaves a gap: retreat windows, captured nobles,
hidden reserves in the log, the Norse in battle, and the steps standing plans read (docs/plans.md)."""

from __future__ import annotations

import pytest
from fakes import Recorder, ScriptedDice, bare_state, battle_at, put
from test_5_battles import actions, entries, run, turns

from pbem.hammer.rules.battle import border_raid, fight, fight_defection
from pbem.hammer.rules.decisions import BySide, Question, Scripted
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import LogEntry
from pbem.hammer.rules.plans import decider
from pbem.hammer.rules.state import DEAD, POOL, GameState
from pbem.hammer.show.battle_log import format_log
from pbem.hammer.show.views import filter_log, public_log

E, S = "england", "scotland"


def asked(rec: Recorder, kind: str, block: str = "") -> list[Question]:
    return [q for q in rec.asked if q.kind == kind and (not block or q.context.get("block") == block)]


# --- 5.2 Celtic Unity, 5.32 reserves hidden, the log's reveals --------------------------------------

def _round_one_win_with_a_hidden_welsh_reserve() -> tuple[list[LogEntry], Recorder]:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "Wales Infantry")
    put(state, S, "Fife", "Campbell", strength=1)
    battle_at(state, "Fife", E, main=["York Knights"], attacker_reserves=["Wales Infantry"],
              entered={E: ["Angus-Fife", "Fife-Mentieth"]})
    rec = Recorder(lambda q: ("Angus" if q.context["block"] == "Wales Infantry" else "stay")
                   if q.kind == "regroup" else actions({(1, "York Knights"): "fire"})(q))
    log = run(state, "Fife", [1, 6, 6, 6], rec)   # no die is left for a Celtic roll: none is made
    assert state.blocks["Wales Infantry"].location == "Angus"
    return log, rec


def test_5_2_a_celtic_reserve_never_revealed_never_rolls() -> None:
    log, _ = _round_one_win_with_a_hidden_welsh_reserve()
    assert entries(log, "celtic") == []
    assert entries(log, "battle_end")[0].facts["hidden_reserves"] == {E: 1}


def test_5_32_a_reserve_that_never_fought_stays_hidden_from_the_enemy_even_when_it_regroups() -> None:
    log, _ = _round_one_win_with_a_hidden_welsh_reserve()
    (reveal,) = [e for e in entries(log, "reveal") if e.actor == E]
    assert reveal.facts["seen_by"] == S and [b["block"] for b in reveal.facts["blocks"]] == ["York Knights"]
    assert "Wales Infantry" in repr(filter_log(log, E))          # the owner knows its own block
    assert "Wales Infantry" not in repr(filter_log(log, S))      # the Scots never saw it
    assert "Wales Infantry" not in repr(public_log(log))
    (regroup,) = [e for e in filter_log(log, S) if e["what"] == "regroup"]
    assert regroup["redacted"] == ["block", "to"] and regroup["side"] == E


def test_5_1_the_log_says_which_blocks_each_side_saw_revealed() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "York Infantry")
    put(state, S, "Fife", "Campbell", "Graham")
    battle_at(state, "Fife", E, main=["York Knights"], attacker_reserves=["York Infantry"],
              defender_reserves=["Graham"], entered={E: ["Angus-Fife", "Fife-Mentieth"], S: ["Atholl-Fife"]})
    log = run(state, "Fife", [], Recorder(actions({})))
    seen = [(e.facts["round"], e.facts["seen_by"], [b["block"] for b in e.facts["blocks"]])
            for e in entries(log, "reveal")]
    assert seen == [(1, S, ["York Knights"]), (1, E, ["Campbell"]), (2, S, ["York Infantry"]), (2, E, ["Graham"])]
    assert entries(log, "battle_end")[0].facts["hidden_reserves"] == {}


# --- 5.5 border limits by window -------------------------------------------------------------------

def _english_in_fife_hemmed_in(*english: str) -> GameState:
    """England attacked Fife from Atholl; Angus and Mentieth are Scottish: the only way out is the
    red Atholl-Fife border (2 blocks)."""
    state = bare_state()
    put(state, E, "Fife", *english)
    put(state, S, "Fife", "Campbell")
    put(state, S, "Angus", "Graham")
    put(state, S, "Mentieth", "Barclay")
    battle_at(state, "Fife", E, main=list(english), entered={E: ["Atholl-Fife"]})
    return state


def test_5_5_border_limit_applies_to_the_mandatory_retreat_the_third_block_is_eliminated() -> None:
    state = _english_in_fife_hemmed_in("Lancaster Infantry", "York Infantry", "York Knights")
    rec = Recorder(actions({}))
    log = run(state, "Fife", [], rec)
    assert [(q.kind, q.options) for q in rec.asked if q.kind == "retreat_lost"] == [
        ("retreat_lost", ("Lancaster Infantry", "York Infantry", "York Knights"))]  # the owner chooses (5.5)
    assert [(e.facts["block"], e.facts["to"]) for e in entries(log, "retreat")] == [("York Infantry", "Atholl"),
                                                                        ("York Knights", "Atholl")]
    assert [e.facts["block"] for e in entries(log, "no_retreat")] == ["Lancaster Infantry"]  # default: the least loss
    assert state.blocks["Lancaster Infantry"].location == POOL    # no black cross: to the Draw Pool (5.8)
    assert entries(log, "battle_end")[0].facts["winner"] == S


def test_5_5_two_land_blocks_with_room_for_one_the_owner_chooses_which_is_lost() -> None:
    """The mandatory retreat resumed with one crossing of the red Atholl-Fife border already used in its
    window: two English land blocks must go and one may, so the owner is asked which is lost (5.5), not
    the first in name order taken by default."""
    from pbem.hammer.rules.battle_state import Fight
    from pbem.hammer.rules.retreat import crossing_key

    state = _english_in_fife_hemmed_in("Lancaster Infantry", "York Infantry")
    state.current.fight = Fight(area="Fife", attacker=E, defender=S, original_attacker=E, round=3,
                                stage="forced_retreat", line=["Campbell", "Lancaster Infantry", "York Infantry"],
                                queue=["Lancaster Infantry", "York Infantry"], used={crossing_key(E, "Atholl-Fife"): 1},
                                lost={E: 0, S: 0})

    def leave(q: Question) -> str | None:
        return "York Infantry" if q.kind == "retreat_lost" else actions({})(q)
    rec = Recorder(leave)
    log = run(state, "Fife", [], rec)
    assert [(q.kind, q.options, q.context["room"]) for q in rec.asked if q.kind == "retreat_lost"] == [
        ("retreat_lost", ("Lancaster Infantry", "York Infantry"), 1)]
    assert [e.facts["block"] for e in entries(log, "no_retreat")] == ["York Infantry"]   # the owner's choice
    assert [(e.facts["block"], e.facts["to"]) for e in entries(log, "retreat")] == [("Lancaster Infantry", "Atholl")]
    assert state.blocks["York Infantry"].location == POOL and state.blocks["Lancaster Infantry"].location == "Atholl"


def test_5_5_the_mandatory_retreat_is_a_new_window_after_round_3_retreats() -> None:
    state = _english_in_fife_hemmed_in("Durham Infantry", "Lancaster Infantry", "York Infantry", "York Knights")
    plan = {(3, "Durham Infantry"): "retreat:Atholl", (3, "Lancaster Infantry"): "retreat:Atholl"}
    rec = Recorder(actions(plan))
    log = run(state, "Fife", [], rec)
    assert asked(rec, "battle_action", "York Infantry")[-1].options == ("fire", "pass")  # round 3: red border full
    assert state.blocks_in("Atholl") == ["Durham Infantry", "Lancaster Infantry", "York Infantry", "York Knights"]
    assert [e.facts["forced"] for e in entries(log, "retreat")] == [False, False, True, True]


def test_5_6_regroup_border_limits_apply_in_a_window_of_their_own() -> None:
    state = bare_state()
    put(state, S, "Fife", "Barclay", "Campbell", "Graham", "Lindsay")
    put(state, E, "Fife", "York Infantry", strength=1)
    put(state, E, "Angus", "Lancaster Infantry")
    put(state, E, "Mentieth", "Durham Infantry")
    battle_at(state, "Fife", E, main=["York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(lambda q: "Atholl" if q.kind == "regroup"
                   else actions({(1, "Barclay"): "retreat:Atholl", (1, "Campbell"): "fire"})(q))
    run(state, "Fife", [1, 6, 6, 6], rec)
    # Barclay's retreat counted in round 1's window, not the regroup's; the regroup's own limit is 2
    assert [(q.context["block"], q.options) for q in asked(rec, "regroup")] == [("Campbell", ("stay", "Atholl")),
                                                                               ("Graham", ("stay", "Atholl"))]
    assert state.blocks_in("Atholl") == ["Barclay", "Campbell", "Graham"] and state.blocks_in("Fife") == ["Lindsay"]


# --- 5.5 Closing Borders (sidebar), unable to retreat ----------------------------------------------

def _atholl(keith_retreats: bool) -> Recorder:
    """Player 1 (Scots) moved into Atholl from Badenoch without a battle; England attacks from Mar."""
    state = bare_state()
    state.current.player1 = S
    put(state, S, "Atholl", "Keith", "Campbell")
    put(state, E, "Atholl", "York Knights")
    battle_at(state, "Atholl", E, main=["York Knights"], entered={E: ["Atholl-Mar"]})
    rec = Recorder(actions({(1, "Keith"): "retreat:Badenoch"} if keith_retreats else {}))
    run(state, "Atholl", [], rec)
    return rec


def test_5_5_closing_borders_whoever_retreats_first_closes_the_border_to_the_enemy() -> None:
    assert "retreat:Badenoch" in asked(_atholl(False), "battle_action", "York Knights")[0].options
    rec = _atholl(True)
    assert "retreat:Badenoch" not in asked(rec, "battle_action", "York Knights")[0].options
    assert "retreat:Badenoch" in asked(rec, "battle_action", "Campbell")[0].options


def test_5_7_a_noble_unable_to_retreat_is_captured_and_stays_with_the_victor() -> None:
    # two may take the red border; England leaves Ross and York Infantry behind (5.5)
    state = _english_in_fife_hemmed_in("Lancaster Infantry", "Mar", "Ross", "York Infantry")

    def leave(q: Question) -> str | None:
        if q.kind == "retreat_lost":
            return next(b for b in ("Ross", "York Infantry") if b in q.options)
        return actions({})(q)
    log = run(state, "Fife", [], Recorder(leave))
    assert [e.facts["block"] for e in entries(log, "no_retreat")] == ["Ross", "York Infantry"]
    assert (state.blocks["Ross"].owner, state.blocks["Ross"].location, state.blocks["Ross"].strength) == (S, "Fife", 1)
    assert state.blocks["York Infantry"].location == POOL


# --- 5.7 captured nobles ------------------------------------------------------------------------------

def test_5_7_a_captured_noble_takes_no_hits_the_round_it_changes_sides_and_fights_next_round() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", strength=1)
    put(state, S, "Fife", "Mar", "Douglas", strength=1)
    battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
    rec = Recorder(lambda q: "Mar" if q.kind == "hit" else actions({(1, "Mar"): "pass"}, default="fire")(q))
    log = run(state, "Fife", [1, 1, 6, 6, 6, 6], rec)
    # York Knights' hit: Mar and Douglas tied, the Scots choose Mar; Douglas's hit cannot go to Mar
    assert [q.side for q in asked(rec, "hit")] == [S]
    assert [(e.facts["round"], e.facts["block"]) for e in entries(log, "hit")] == [(1, "Mar"), (1, "York Knights")]
    assert state.blocks["York Knights"].location == POOL
    # England fights on with Mar alone from round 2, and must retreat after round 3
    assert turns(rec, 2) == ["Mar", "Douglas"] and [q.side for q in asked(rec, "battle_action", "Mar")] == [S, E, E]
    assert state.blocks["Mar"].owner == E and state.blocks["Mar"].location == "Angus"


# --- 1.4 home fire ---------------------------------------------------------------------------------

def test_1_4_noble_reinforcing_its_home_this_turn_fires_b3() -> None:
    state = bare_state()
    put(state, S, "Mar", "Campbell", "Mar")
    put(state, E, "Mar", "York Infantry")
    battle_at(state, "Mar", E, main=["York Infantry"], defender_reserves=["Mar"],
              entered={E: ["Angus-Mar"], S: ["Buchan-Mar"]})
    log = run(state, "Mar", [3, 3, 3], Recorder(actions({(2, "Mar"): "fire"})))
    (fire,) = entries(log, "fire")
    assert (fire.facts["round"], fire.facts["block"], fire.facts["rating"], fire.facts["hits"]) == (2, "Mar", "B3", 3)
    assert state.blocks["York Infantry"].strength == 1


def test_1_4_after_the_control_switch_the_old_attacker_defends_and_its_noble_at_home_fires_b3() -> None:
    state = bare_state()
    put(state, E, "Mar", "Mar")
    put(state, S, "Mar", "Campbell", strength=1)
    put(state, S, "Mar", "Graham")
    battle_at(state, "Mar", E, main=["Mar"], defender_reserves=["Graham"],
              entered={E: ["Angus-Mar"], S: ["Buchan-Mar"]})
    log = run(state, "Mar", [1, 6, 6, 3, 3, 3], Recorder(actions({(1, "Mar"): "fire", (2, "Mar"): "fire"})))
    assert [(e.facts["round"], e.facts["rating"], e.facts["hits"]) for e in entries(log, "fire")] == [
        (1, "B2", 1), (2, "B3", 3)]
    assert state.control("Mar") == E and state.blocks["Graham"].location == "Atholl"


# --- 5.41 hits at once -------------------------------------------------------------------------------

def test_5_41_hits_apply_at_once_a_block_eliminated_before_its_turn_never_fires() -> None:
    state = bare_state()
    put(state, S, "Fife", "Wallace")
    put(state, E, "Fife", "York Infantry", strength=2)
    battle_at(state, "Fife", E, main=["York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({}, default="fire"))
    run(state, "Fife", [1, 1, 6, 6], rec)
    assert turns(rec, 1) == ["Wallace"] and state.blocks["York Infantry"].location == POOL


# --- 5.32 note: battlefield control -----------------------------------------------------------------

def test_5_32_after_the_control_switch_the_old_attacker_goes_first_within_a_letter() -> None:
    state = bare_state()
    state.current.player1 = E
    put(state, E, "Fife", "York Knights")
    put(state, S, "Fife", "Campbell", strength=1)
    put(state, S, "Fife", "Keith")
    battle_at(state, "Fife", E, main=["York Knights"], defender_reserves=["Keith"],
              entered={E: ["Angus-Fife"], S: ["Fife-Mentieth"]})
    rec = Recorder(actions({(1, "York Knights"): "fire"}))
    log = run(state, "Fife", [1, 6, 6, 6], rec)
    assert entries(log, "control")[0].facts["defender"] == E
    assert turns(rec, 2) == turns(rec, 3) == ["York Knights", "Keith"]    # both B: the defender first
    assert state.control("Fife") == E and state.blocks["Keith"].location in ("Atholl", "Mentieth")


# --- 4.7 Norse in battle ------------------------------------------------------------------------------

def test_4_7_norse_retreat_options_change_as_other_blocks_retreat() -> None:
    state = bare_state()
    put(state, S, "Fife", "Norse", "Keith")
    put(state, E, "Fife", "York Infantry")
    battle_at(state, "Fife", E, main=["York Infantry"], entered={E: ["Angus-Fife"]})
    rec = Recorder(actions({(1, "Keith"): "retreat:Mentieth", (2, "Norse"): "retreat:Mentieth"}))
    log = run(state, "Fife", [], rec)
    norse = asked(rec, "battle_action", "Norse")
    assert norse[0].options == ("fire", "pass")                         # no friendly coastal area yet
    assert norse[1].options == ("fire", "retreat:Mentieth", "pass")     # Keith made Mentieth friendly
    assert [(e.facts["block"], e.facts["sea"]) for e in entries(log, "retreat")] == [("Keith", False), ("Norse", True)]
    assert state.control("Fife") == E


# --- 5.9 border raids -----------------------------------------------------------------------------------

def test_5_9_raids_and_truces_scots_already_in_england_still_cost_a_block_hidden_from_them() -> None:
    state = bare_state()
    state.current.truce = E
    put(state, S, "England", "Campbell")
    put(state, E, "Lothian", "York Infantry", "Lancaster Archers")
    log = border_raid(state, Scripted({E: ["Lancaster Archers"]}))
    assert state.blocks["Lancaster Archers"].location == POOL
    assert "Lancaster Archers" not in repr(filter_log(log, S))
    assert "Lancaster Archers" in repr(filter_log(log, E))
    assert [e.get("removed") for e in filter_log(log, S)] == [1]


# --- 6.1 Edward, defection battles -----------------------------------------------------------------------

def test_9_1_edward_ii_killed_is_logged_dead_not_pooled() -> None:
    state = bare_state()
    state.edward = "II"
    put(state, E, "Fife", "Edward", strength=1)
    put(state, S, "Fife", "Douglas")
    battle_at(state, "Fife", E, main=["Edward"], entered={E: ["Angus-Fife"]})
    log = run(state, "Fife", [6, 1, 6, 6, 6], Recorder(actions({}, default="fire")))
    (gone,) = entries(log, "eliminated")
    assert gone.facts["to"] == DEAD == state.blocks["Edward"].location and state.winner == S


def _hemmed_in_attacker(side: str, leader: str) -> tuple[GameState, list[LogEntry]]:
    """``leader`` attacked Fife alone from Mentieth; every neighbour is the enemy's: after round 3
    it cannot retreat, which is being eliminated in battle (5.5, 5.8)."""
    enemy = S if side == E else E
    state = bare_state()
    state.king = "Bruce"
    put(state, side, "Fife", leader)
    keep = {E: ["York Knights", "York Infantry", "Lancaster Infantry", "Durham Infantry"],
            S: ["Campbell", "Graham", "Barclay", "Lindsay"]}[enemy]
    for area, name in zip(("Fife", "Angus", "Atholl", "Mentieth"), keep):
        put(state, enemy, area, name)
    battle_at(state, "Fife", side, main=[leader], entered={side: ["Fife-Mentieth"]})
    log = run(state, "Fife", [], Recorder(actions({})))
    assert [e.facts["block"] for e in entries(log, "no_retreat")] == [leader]
    return state, log


def test_9_1_the_scottish_king_unable_to_retreat_is_eliminated_in_battle_england_wins() -> None:
    state, log = _hemmed_in_attacker(S, "King")
    assert state.winner == E and state.blocks["King"].location == DEAD
    assert entries(log, "battle_end")[-1].facts["game_over"] is True


def test_6_1_edward_i_unable_to_retreat_becomes_edward_ii_in_the_pool() -> None:
    state, _ = _hemmed_in_attacker(E, "Edward")
    assert state.edward == "II" and state.blocks["Edward"].location == POOL and not state.winner


def test_6_21_defection_battle_victorious_defectors_may_regroup() -> None:
    state = bare_state()
    put(state, E, "Mar", "Mar")
    put(state, S, "Mar", "Campbell", strength=1)
    rec = Recorder(lambda q: "Buchan" if q.kind == "regroup" else None)
    log = fight_defection(state, "Mar", ["Mar"], ScriptedDice([1, 6, 6]), rec)
    (q,) = asked(rec, "regroup")
    assert q.side == E and q.options == ("stay", "Angus", "Atholl", "Badenoch", "Buchan")
    assert state.blocks["Mar"].location == "Buchan" and entries(log, "battle_end")[0].facts["winner"] == E


# --- the steps standing plans read (docs/plans.md) ----------------------------------------------------

def test_5_31_battle_questions_give_own_and_enemy_steps_in_line_and_steps_lost() -> None:
    state = bare_state()
    put(state, E, "Fife", "York Knights", "Wales Infantry")
    put(state, S, "Fife", "Campbell")
    put(state, S, "Fife", "Graham", strength=3)
    battle_at(state, "Fife", E, main=["York Knights"], attacker_reserves=["Wales Infantry"],
              entered={E: ["Angus-Fife", "Fife-Mentieth"]})
    rec = Recorder(actions({(1, "York Knights"): "fire"}))
    log = run(state, "Fife", [1, 1, 6, 6, 5], rec)   # 2 hits; Wales Infantry leaves at once in round 2

    def seen(q: Question) -> tuple[int, int, int]:
        return q.context["own_steps"], q.context["enemy_steps"], q.context["steps_lost"]

    yk = asked(rec, "battle_action", "York Knights")
    assert seen(yk[0]) == (4, 7, 0)                  # its reserve is not counted
    assert seen(asked(rec, "battle_action", "Campbell")[0]) == (5, 4, 2)
    assert seen(yk[1]) == (4, 5, 3)                  # the Celtic loss counts: 3 steps
    assert entries(log, "celtic")[0].facts["index"] == 4
    (retreat,) = asked(rec, "retreat")
    assert seen(retreat) == (4, 5, 3)


def _outnumbered(plans: dict, dice: list[int]) -> tuple[GameState, list[LogEntry]]:
    state = bare_state()
    put(state, E, "Fife", "York Infantry")
    put(state, S, "Fife", "Campbell", "Graham")
    battle_at(state, "Fife", E, main=["York Infantry"], entered={E: ["Angus-Fife"]})
    both = BySide(decider(E, {"plans": plans}), decider(S, {}))
    rng = ScriptedDice(dice)
    log = fight(state, "Fife", rng, both)   # no NeedDecision: the plan reads the question alone
    assert rng.dice == []
    return state, log


def test_5_31_a_plan_retreat_if_outnumbered_retreats_without_a_pause() -> None:
    state, log = _outnumbered({"battle": {"retreat_if_outnumbered": True}}, [2, 6, 6, 6] + [6] * 4)
    (retreat,) = entries(log, "retreat")
    assert (retreat.facts["round"], retreat.facts["block"], retreat.facts["to"]) == (1, "York Infantry", "Angus")
    assert entries(log, "battle_end")[0].facts["winner"] == S


def test_5_31_a_plan_retreat_if_steps_lost_waits_for_the_losses() -> None:
    one_hit = [2, 6, 6, 6] + [6] * 4
    state, log = _outnumbered({"battle": {"retreat_if_steps_lost": 2, "retreat_to": ["Atholl"]}},
                              one_hit + [6] * 3 + one_hit)
    (retreat,) = entries(log, "retreat")
    assert (retreat.facts["round"], retreat.facts["block"], retreat.facts["to"]) == (2, "York Infantry", "Atholl")
    assert format_log(log).count("fires") == 5


# --- bad answers -------------------------------------------------------------------------------------

def test_5_31_an_answer_not_offered_is_rejected_naming_the_rule_and_the_battle_resumes_unchanged() -> None:
    def position() -> GameState:
        state = bare_state()
        put(state, E, "Fife", "York Knights")
        put(state, S, "Fife", "Campbell")
        battle_at(state, "Fife", E, main=["York Knights"], entered={E: ["Angus-Fife"]})
        return state

    dice = [1, 6, 6, 6] + [1, 1, 1] + [1] + [1, 6]   # Campbell wins in round 2
    whole = position()
    whole_log = run(whole, "Fife", list(dice), Recorder(actions({}, default="fire")))

    state = position()
    rng = ScriptedDice(dice)
    bad = Recorder(lambda q: "retreat:Angus" if q.kind == "battle_action" and q.context["block"] == "Campbell"
                   else actions({}, default="fire")(q))
    with pytest.raises(IllegalOrder, match=r"scotland answered 'retreat:Angus' to battle_action, .*\(5\.31\)"):
        fight(state, "Fife", rng, bad)
    saved = state.to_dict()
    assert saved["current"]["fight"]["index"] == 1                  # stopped at Campbell's turn, nothing done
    state = GameState.from_dict(saved)
    assert fight(state, "Fife", rng, Recorder(actions({}, default="fire"))) == whole_log and rng.dice == []
    assert state.to_dict() == whole.to_dict()


def test_5_8_a_block_lost_for_want_of_a_retreat_counts_in_steps_lost() -> None:
    state = bare_state()
    put(state, S, "Fife", "Barclay", "Norse")
    put(state, S, "Ross", "Campbell")
    put(state, S, "Moray", "Graham")
    put(state, E, "Fife", "York Knights")
    for area, name in (("Angus", "York Infantry"), ("Atholl", "Lancaster Infantry"), ("Mentieth", "Durham Infantry")):
        put(state, E, area, name)
    battle_at(state, "Fife", S, main=["Barclay"], attacker_reserves=["Norse"], entered={S: ["Fife-Mentieth"]})
    rec = Recorder(actions({}))
    log = run(state, "Fife", [], rec)
    assert [e.facts["block"] for e in entries(log, "no_retreat")] == ["Barclay"]
    (q,) = asked(rec, "retreat")
    assert q.context["block"] == "Norse" and q.options == ("Moray", "Ross")
    assert (q.context["own_steps"], q.context["steps_lost"]) == (3, 4)
