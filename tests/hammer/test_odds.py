"""5.0-5.8 exact battle odds (pbem.hammer.odds, docs/battles.md "Odds"): the distribution the
engine's own battle code and deciders give, checked against battles the engine fights with real
dice (a few thousand here; bench/battle_odds.py runs 100,000 on thirteen positions)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.hammer.odds import battle_odds, load_battle, simulate, view_odds
from pbem.hammer.position import load_position
from pbem.hammer.views import view

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
    assert (fast.attacker_wins, fast.defender_holds, fast.forced_retreat, fast.game_over) == \
        (general.attacker_wins, general.defender_holds, general.forced_retreat, general.game_over)


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
