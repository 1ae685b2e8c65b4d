"""5.0-5.8 exact battle odds (pbem.hammer.show.odds, docs/battles.md "Odds"): the distribution the
engine's own battle code and deciders give, checked against battles the engine fights with real
dice (a few thousand here; bench/battle_odds.py runs 100,000 on thirteen positions)."""

from __future__ import annotations

import copy
import json
import sys
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.hammer.play.cases import load_battle
from pbem.hammer.play.position import load_position
from pbem.hammer.rules.blocks import blocks as block_specs
from pbem.hammer.show.odds import battle_odds, estimates, pct, sight_odds, sight_of, simulate, view_odds
from pbem.hammer.show.views import view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from battle_odds import compare  # noqa: E402

CASES = ROOT / "tests" / "hammer" / "cases"
SMALL = [
    (CASES / "5_31-combat-turn-order.toml", "Fife", {}),
    (CASES / "9_1-the-game-ends-at-the-hit-that-kills-edward-ii.toml", "Fife", {}),
    (CASES / "5_5-the-owner-chooses-who-a-border-limit-leaves-behind.toml", "Fife", {}),
    (CASES / "4_4-border-movement-example.toml", "Galloway",
     {"scotland": {"plans": {"battle": {"retreat_from_round": 2, "retreat_if_outnumbered": True}}}}),
]


@pytest.mark.parametrize("path,area,plans", SMALL, ids=lambda x: getattr(x, "stem", None))
def test_5_odds_agree_with_battles_the_engine_fights(path: Path, area: str, plans: dict) -> None:
    state, decider = load_battle(str(path), area, None, plans)
    exact = battle_odds(state, area, decider)
    state, decider = load_battle(str(path), area, None, plans)
    seen = simulate(state, area, decider, 2000, b"odds-test-stream")
    assert compare(exact, seen, 2000, sigmas=5) == []


@pytest.mark.parametrize("path,area", [
    (ROOT / "examples/positions/battle-fife.toml", "Fife"),
    (CASES / "5_33-player-2-reinforcements-arrive-in-round-2.toml", "Buchan"),
    (CASES / "5_32-main-attack-and-reserves.toml", "Buchan"),
    (CASES / "5_5-retreat-lost-plan-key.toml", "Fife"),
    (CASES / "9_1-the-game-ends-at-the-hit-that-kills-edward-ii.toml", "Fife"),
], ids=lambda x: getattr(x, "stem", None))
def test_5_the_fast_path_gives_the_engine_driven_distribution_exactly(path: Path, area: str) -> None:
    state, decider = load_battle(str(path), area)
    fast = battle_odds(state, area, decider)
    state, decider = load_battle(str(path), area)
    general = battle_odds(state, area, decider, general=True)
    assert fast.blocks == general.blocks
    assert (fast.outcomes(), fast.forced_out) == (general.outcomes(), general.forced_out)


def test_5_odds_are_exact_fractions_that_sum_to_one() -> None:
    state, decider = load_battle(str(CASES / "9_1-the-game-ends-at-the-hit-that-kills-the-king.toml"), "Fife")
    odds = battle_odds(state, "Fife", decider)
    assert odds.attacker_wins + odds.defender_holds + odds.game_over == 1
    assert odds.game_over > 0  # the King may fall (9.1)
    for b in odds.blocks:
        assert isinstance(b.holds, Fraction)
        assert b.holds + b.retreated + b.captured + b.eliminated == 1
        assert 0 <= b.expected_steps <= b.strength


def test_5_odds_leave_the_position_unchanged() -> None:
    state, decider = load_battle(str(ROOT / "examples/positions/battle-fife.toml"), "Fife")
    before = state.hash()
    battle_odds(state, "Fife", decider)
    assert state.hash() == before


def test_5_odds_command_prints_the_distribution_and_refuses_a_quiet_area() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["odds", str(CASES / "5_31-combat-turn-order.toml"), "--battle", "Fife"])
    assert r.exit_code == 0, r.output
    assert "england wins:" in r.output and "Barclay (scotland, 1)" in r.output
    r = runner.invoke(app, ["odds", str(ROOT / "examples/positions/battle-fife.toml"), "--battle", "Lennox"])
    assert r.exit_code == 1 and r.output.startswith("error: ") and "5.0" in r.output


def test_2_0_a_side_s_estimate_reads_its_view_only() -> None:
    """The enemy's hidden blocks change; the side's view, hence its estimate, does not."""
    state = load_position(ROOT / "examples/positions/battle-fife.toml")
    other = state.copy()
    other.blocks["Barclay"].strength = 1  # the Scots' strengths are hidden from England
    v1, v2 = view(state, "england"), view(other, "england")
    assert v1 == v2
    a, b = view_odds(v1, "Fife"), view_odds(v2, "Fife")
    assert a is not None and b is not None and a == b


def test_battles_odds_from_a_report_kept_estimates_follow_what_the_view_shows_of_the_battle() -> None:
    """docs/battles.md "Odds from a report": a report's estimate is kept per what its view shows of
    the battle (``Sight``); a view that shows the battle otherwise (a strength, a block gone, an
    area's control) gets its own estimate, equal to one reckoned afresh, and a view that differs
    elsewhere only (the hand) gets the kept one."""
    state = load_position(ROOT / "examples/positions/battle-fife.toml")
    base = view(state, "england")
    own = next(b for b in base["blocks"] if b["area"] == "Fife")
    changed = [copy.deepcopy(base) for _ in range(3)]
    next(b for b in changed[0]["blocks"] if b["block"] == own["block"])["strength"] = 1
    scot = next(n for n, sp in sorted(block_specs().items()) if "scotland" in sp.sides and not sp.is_noble
                and n not in ("Wallace", "King") and not sp.celtic)
    changed[1]["dead"] = {**(changed[1].get("dead") or {}), "scotland": [scot]}  # a block known gone
    changed[2]["control"] = {**(changed[2].get("control") or {}), "Lennox": "scotland"}
    first = estimates(base, ["Fife"])
    assert first["Fife"] and first == estimates(base, ["Fife"])
    for v in changed:
        assert sight_of(v, "Fife") != sight_of(base, "Fife")
        odds = sight_odds(sight_of(v, "Fife"))          # reckoned afresh, not kept
        assert odds is not None
        assert estimates(v, ["Fife"])["Fife"]["attacker_wins"] == pct(odds.attacker_wins)
    assert estimates(changed[0], ["Fife"]) != first
    elsewhere = {**copy.deepcopy(base), "hand": ["x"]}
    assert sight_of(elsewhere, "Fife") == sight_of(base, "Fife") and estimates(elsewhere, ["Fife"]) == first


# --- odds as data (docs/battles.md "Odds as data") ----------------------------------------------------

SCHEMA = json.loads((ROOT / "schemas" / "odds.schema.json").read_text(encoding="utf-8"))
REINFORCED = CASES / "5_33-player-2-reinforcements-arrive-in-round-2.toml"


def control_change_position(tmp_path: Path) -> Path:
    """5.33's example with Grant alone defending Buchan: the English often clear the line in round
    1, the Scottish reinforcements arriving in round 2 take battlefield control, attack, and must
    retreat after round 3 (5.32 note)."""
    text = REINFORCED.read_text(encoding="utf-8").replace('Buchan = ["Buchan:1", "Grant:1"]', 'Buchan = ["Grant:1"]')
    path = tmp_path / "control-change.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _odds_json(*args: str) -> dict:
    r = CliRunner().invoke(app, ["odds", *args, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    jsonschema.validate(data, SCHEMA)
    return data


def test_battles_odds_as_data_json_gives_exact_fractions_that_sum_to_one() -> None:
    """docs/battles.md "Odds as data": every probability is "numerator/denominator", exact; the three
    outcomes sum to exactly 1 and each block's four fates too; they are battle_odds' own fractions."""
    path = CASES / "9_1-the-game-ends-at-the-hit-that-kills-the-king.toml"
    data = _odds_json(str(path), "--battle", "Fife")
    state, decider = load_battle(str(path), "Fife")
    odds = battle_odds(state, "Fife", decider)
    f = Fraction
    assert (f(data["attacker_wins"]), f(data["defender_holds"]), f(data["game_ends"])) == odds.outcomes()
    assert f(data["attacker_wins"]) + f(data["defender_holds"]) + f(data["game_ends"]) == 1
    for b, row in zip(odds.blocks, data["blocks"], strict=True):
        fates = [f(row[k]) for k in ("holds", "retreated", "captured", "eliminated")]
        assert fates == [b.holds, b.retreated, b.captured, b.eliminated] and sum(fates) == 1
        assert f(row["expected_steps"]) == b.expected_steps
    assert {s: f(v) for s, v in data["expected_lost"].items()} == odds.expected_lost
    assert all("%" not in str(v) for v in data.values())


def test_9_1_the_king_s_death_is_filed_once_as_the_game_ending() -> None:
    """The King killed ends the game (9.1): that mass is game_ends, never an English win, and is
    exactly the King's chance of being eliminated; a forced retreat is counted only within a win."""
    path = CASES / "9_1-the-game-ends-at-the-hit-that-kills-the-king.toml"
    state, decider = load_battle(str(path), "Fife")
    odds = battle_odds(state, "Fife", decider)
    king = next(b for b in odds.blocks if b.block == "King")
    assert odds.game_over == king.eliminated > 0
    assert odds.attacker_wins == 0  # England cannot hold Fife but by killing the King, which ends the game
    assert odds.forced_out["england"] <= odds.defender_holds
    assert sum(odds.outcomes()) == 1
    data = _odds_json(str(path), "--battle", "Fife")
    assert Fraction(data["game_ends"]) == king.eliminated and data["attacker_wins"] == "0/1"


def _engine_counts(path: Path, battles: int) -> dict[str, int]:
    """How often the engine's own battles (battle.fight, seeded dice) end with each side holding
    after the other was forced out after round 3, read from the battle logs alone."""
    from pbem.core.drbg import Drbg
    from pbem.hammer.rules.battle import fight
    from pbem.hammer.show.odds import plan_deciders

    counts = {"england": 0, "scotland": 0}
    rng = Drbg(b"control-change..")
    base, _ = load_battle(str(path), "Buchan")  # the case's steps run once; each battle fights a copy
    for _ in range(battles):
        state = base.copy()
        log = fight(state, "Buchan", rng, plan_deciders(state))
        forced = {e.actor for e in log if e.what == "retreat" and e.facts.get("forced")}
        end = next(e for e in log if e.what == "battle_end")
        if forced and end.facts.get("winner"):
            assert forced == {"england", "scotland"} - {end.facts["winner"]}
            counts[str(end.facts["winner"])] += 1
    return counts


def test_5_32_note_a_forced_retreat_after_a_control_change_is_filed_under_the_side_that_stayed(
        tmp_path: Path) -> None:
    """After the Scottish reinforcements take battlefield control, it is Scotland that must retreat
    after round 3 and England that holds Buchan: the odds file that mass under England's win (forced
    out: scotland), never as "scotland holds ... of which the attacker retreats"."""
    path = control_change_position(tmp_path)
    state, decider = load_battle(str(path), "Buchan")
    odds = battle_odds(state, "Buchan", decider)
    assert odds.attacker == "england"
    assert 0 < odds.forced_out["scotland"] <= odds.attacker_wins
    assert 0 < odds.forced_out["england"] <= odds.defender_holds
    n = 1500
    seen = _engine_counts(path, n)
    for holder, out in (("england", "scotland"), ("scotland", "england")):
        p = odds.forced_out[out]
        se = (float(p * (1 - p)) / n) ** 0.5
        assert abs(seen[holder] / n - float(p)) < 5 * se, (holder, seen[holder], float(p))
    r = CliRunner().invoke(app, ["odds", str(path), "--battle", "Buchan"])
    wins = next(line for line in r.output.splitlines() if "england wins:" in line)
    holds = next(line for line in r.output.splitlines() if "scotland holds:" in line)
    assert "of which scotland" in wins and "5.32" in wins and "of which england retreats" in holds
    data = _odds_json(str(path), "--battle", "Buchan")
    assert Fraction(data["forced_out"]["scotland"]) == odds.forced_out["scotland"]


def test_battles_odds_the_policy_each_side_follows_is_printed_with_the_result(tmp_path: Path) -> None:
    """docs/battles.md "Odds": the odds hold only for what each side was assumed to do, so the text
    and the JSON say it: the referee's defaults, or the standing plan's keys for this battle."""
    plans = tmp_path / "plans.toml"
    plans.write_text('[scotland.plans]\nhits = ["Douglas"]\n[scotland.plans.battle]\nretreat_from_round = 2\n'
                     'retreat_if_outnumbered = true\n', encoding="utf-8")
    pos = str(ROOT / "examples/positions/battle-fife.toml")
    r = CliRunner().invoke(app, ["odds", pos, "--battle", "Fife", "--plans", str(plans)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1] == "  england follows the referee's defaults (docs/battles.md): never retreats by choice"
    assert lines[2] == ("  scotland follows its standing plans: retreat_from_round = 2; retreat_if_outnumbered = true; "
                        "hits = Douglas (retreats from round 2 when outnumbered)")
    data = _odds_json(pos, "--battle", "Fife", "--plans", str(plans))
    assert data["policies"] == {
        "england": {"source": "defaults", "retreat": "never retreats by choice", "plans": {}},
        "scotland": {"source": "plans", "retreat": "retreats from round 2 when outnumbered",
                     "plans": {"retreat_from_round": 2, "retreat_if_outnumbered": True, "hits": ["Douglas"]}}}
