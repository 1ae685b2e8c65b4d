"""``pbem demo`` and the self-play gate: 20 whole games through the protocol with no failure."""

from __future__ import annotations

import re
from pathlib import Path

from e2e_support import run

from pbem.hammer.demo import play_bot_game


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


def test_e2e_twenty_bot_games_through_sealed_files_ledger_verify_and_audit(tmp_path: Path) -> None:
    turns = steps = pinned = 0
    moves: dict[str, int] = {}
    for i in range(20):
        bots = [("simple", "random"), ("random", "simple"), ("random", "random"), ("simple", "simple")][i % 4]
        s = play_bot_game(tmp_path / f"g{i}", "braveheart", {"england": bots[0], "scotland": bots[1]},
                          f"selfplay-{i}".encode())
        assert s.winner, f"game {i} ended"
        assert s.verified and s.audited, f"game {i}"
        assert s.steps == sum(s.steps_by_kind.values()) and s.game_turns > 0
        turns += s.game_turns
        steps += s.steps
        pinned += s.pinned_steps
        for role, n in s.group_moves.items():
            moves[role] = moves.get(role, 0) + n
    assert steps / turns <= 2.5, "round trips per game turn (docs/round-trips.md)"
    # 4.1, 4.6: both sides move, as Player 1 (from [if_player1]) and as Player 2, and Player 1's
    # attacks pin Player 2's blocks.
    for side in ("england", "scotland"):
        for role in ("player1", "player2"):
            assert moves.get(f"{side}/{role}", 0) > 0, moves
    assert pinned > 0
