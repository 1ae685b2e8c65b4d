"""``pbem demo`` and the self-play gate: 10 whole games through the protocol with no failure.

The gate is marked ``slow`` (``-m "not slow"`` leaves it out of a quick run): one case per game,
which checks that game, and one over all 10 together. Each game is played once in a run, by the
first worker that asks for it (tests/support/run_once.py), so the two workers share the games and
the case over all 10 reads what the cases of each played. It was 20 games in 21 cases, whose case
over all 20 played again the games another worker had played; then one test of 10 games that one
worker ran alone while the other finished the rest of the suite. Ten, not
twenty: the keys are fresh, so each game's dice differ on every run, and over twenty games
measured with coverage.py in branch mode the first ten reached all but 8 of the 7,027 arcs
(line-to-line transitions) of pbem/ that the twenty reached; each of those 8 was reached by one
or two of the twenty (chance, not a rule path the gate keeps) and is reached every time by the
battle and winter tests of tests/hammer (docs/performance.md "Test suite")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import run
from support.run_once import run_once

from pbem.hammer.play.demo import GameSummary, play_bot_game


@pytest.mark.slow
def test_e2e_demo_plays_a_whole_game_and_prints_a_consistent_summary(tmp_path: Path) -> None:
    out = run("demo", "--folder", tmp_path / "d", "--seed", "readme")
    assert re.search(r"^winner: (england|scotland) \(.+\)$", out, re.M), out
    years, turns = map(int, re.search(r"^years played: (\d+); game turns: (\d+)$", out, re.M).groups())
    assert 1 <= years <= 9 and years <= turns <= years * 5   # a year may end early on two Events (3.12)
    steps = re.search(r"^steps \(exchanges, one adjudication each\): (\d+) = (.+)$", out, re.M)
    orders = re.search(r"^orders sealed \(one per side owing\): (\d+) = (.+)$", out, re.M)
    assert steps and orders, out
    for total, parts in (steps.groups(), orders.groups()):
        assert int(total) == sum(int(p.split()[0]) for p in parts.split(" + ")), out
    assert int(steps.group(1)) <= int(orders.group(1)) <= 2 * int(steps.group(1))
    ratio = float(re.search(r"^exchanges per game turn: (\d+\.\d\d)", out, re.M).group(1))
    assert ratio == round(int(steps.group(1)) / turns, 2)
    assert "verify: ok; audit: ok" in out
    assert re.search(r"^group moves: england \d+ as Player 1, \d+ as Player 2; scotland \d+ as Player 1, \d+ as "
                     r"Player 2; Player 2 pinned \(4\.6\) in \d+ moves steps$", out, re.M), out
    assert re.search(r"^time taken: \d+\.\ds$", out, re.M)
    assert f"files: {tmp_path / 'd'}" in out
    assert (tmp_path / "d" / "game" / "ledger" / "0000.toml").exists()
    assert any((tmp_path / "d" / "outbox").glob("*.asc")) and any((tmp_path / "d" / "drafts").glob("*.toml"))


BOT_PAIRS = [("simple", "random"), ("random", "simple"), ("random", "random"), ("simple", "simple")]
GAMES = 10


def _game(tmp_path_factory: pytest.TempPathFactory, i: int) -> GameSummary:
    """Game ``i`` of this run, played once by whichever worker asks first (tests/support/run_once.py)."""
    bots = BOT_PAIRS[i % 4]

    def play(folder: Path) -> GameSummary:
        return play_bot_game(folder / "g", "braveheart", {"england": bots[0], "scotland": bots[1]},
                             f"selfplay-{i}".encode())
    return run_once(tmp_path_factory, f"selfplay-{i}", play)


@pytest.mark.slow
@pytest.mark.parametrize("i", range(GAMES))
def test_e2e_a_bot_game_through_sealed_files_ends_verifies_audits_and_keeps_the_round_trips(
        tmp_path_factory: pytest.TempPathFactory, i: int) -> None:
    """Each game ends, verifies and audits, within 2.5 exchanges per game turn besides the decide
    steps its plans asked for (docs/round-trips.md; the random bot's plans ask now and then)."""
    s = _game(tmp_path_factory, i)
    assert s.winner, f"game {i} ended"
    assert s.verified and s.audited, f"game {i}"
    assert s.steps == sum(s.steps_by_kind.values()) and s.game_turns > 0
    asked = s.steps_by_kind.get("decide", 0)
    assert (s.steps - asked) / s.game_turns <= 2.5, f"round trips per game turn in game {i} (docs/round-trips.md)"


@pytest.mark.slow
def test_e2e_ten_bot_games_keep_the_round_trips_and_move_both_sides_as_player_1_and_player_2(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Over the 10 games (each played once in the run, by whichever worker came first): at most 2.5
    exchanges per game turn on average, decide steps included; both sides move as Player 1 (from
    [if_player1]) and as Player 2, and Player 1's attacks pin Player 2's blocks (4.1, 4.6)."""
    games = [_game(tmp_path_factory, i) for i in range(GAMES)]
    assert sum(s.steps for s in games) / sum(s.game_turns for s in games) <= 2.5, \
        "round trips per game turn (docs/round-trips.md)"
    moves: dict[str, int] = {}
    for s in games:
        for role, n in s.group_moves.items():
            moves[role] = moves.get(role, 0) + n
    for side in ("england", "scotland"):
        for role in ("player1", "player2"):
            assert moves.get(f"{side}/{role}", 0) > 0, moves
    assert sum(s.pinned_steps for s in games) > 0
