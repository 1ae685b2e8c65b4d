"""``pbem demo`` and the self-play gate: 20 whole games through the protocol with no failure.

The 20 games are 20 cases marked ``slow`` (a few seconds each), so test workers can share them
out and ``-m "not slow"`` leaves them out of a quick run; a last case holds the 20 together."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import run

from pbem.hammer.demo import GameSummary, play_bot_game


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
GAMES = 20
_played: dict[int, GameSummary] = {}  # the games of this run, for the gate over all 20 (below)


def _game(folder: Path, i: int) -> GameSummary:
    bots = BOT_PAIRS[i % 4]
    s = play_bot_game(folder / f"g{i}", "braveheart", {"england": bots[0], "scotland": bots[1]},
                      f"selfplay-{i}".encode())
    _played[i] = s
    return s


@pytest.mark.slow
@pytest.mark.parametrize("i", range(GAMES), ids=lambda i: f"game{i:02d}")
def test_e2e_twenty_bot_games_through_sealed_files_ledger_verify_and_audit(tmp_path: Path, i: int) -> None:
    """One of the 20 self-play games (one case each, so test workers can share them out)."""
    s = _game(tmp_path, i)
    assert s.winner, f"game {i} ended"
    assert s.verified and s.audited, f"game {i}"
    assert s.steps == sum(s.steps_by_kind.values()) and s.game_turns > 0
    # docs/round-trips.md: at most 2.5 exchanges a game turn besides the decide steps a side's
    # plans asked for (the random bot's plans ask now and then; a side chooses each of those).
    asked = s.steps_by_kind.get("decide", 0)
    assert (s.steps - asked) / s.game_turns <= 2.5, "round trips per game turn (docs/round-trips.md)"


@pytest.mark.slow
def test_e2e_twenty_bot_games_together_keep_the_round_trips_and_use_every_role(tmp_path: Path) -> None:
    """Over the 20 games: at most 2.5 exchanges per game turn on average, decide steps included;
    both sides move as Player 1 (from [if_player1]) and as Player 2, and Player 1's attacks pin
    Player 2's blocks (4.1, 4.6). Uses the games the cases above played in this process; plays
    any they did not (a run with -k, or one shared out between workers)."""
    games = [_played.get(i) or _game(tmp_path, i) for i in range(GAMES)]
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
