"""Hammer of the Scots with no referee: what a Game Turn costs in trips of the post (docs/round-trips.md, peer mode;
docs/hammer-peer.md §4; protocol §13.4, a step one side owes).

Braveheart's first year between the demo's bots through the demo's driver (pbem/core/peer/autoplay.py: in each trip
every side sends all it can write from what it holds, and takes the others' at the trip's end; each trip's
messages carry its clock). By design a Game Turn is at most 4 trips (the cards' commits, their reveals, Player 2's
play, Player 1's answer), and each reveal question (a pause) at most one more; Player 2's Move round is its play
and Player 1's reveal, no commit, and no question ever asks Player 1 for a block in line (5.1): its answer opened
them, worked out on the seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.core import identity
from pbem.core import ruleset as rs
from pbem.core.peer import autoplay
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts, hidden_rules

SIDES = ("england", "scotland")


def _next_year(out: peer.Outcome) -> bool:
    g = out.state.get("game", {})
    return bool(g) and g["year"] > 1297 and g["turn"] >= 1


PLAN = {"battle": {"regroup": "stay"}}  # a standing plan (docs/plans.md), sealed with every card and moves order


def _first_year(tmp: Path, plans: bool) -> Path:
    """England's folder after Braveheart's first year, its winter and the next year's first card; with ``plans``,
    both sides seal a standing plan with every card and moves order."""
    hidden = hidden_rules(rs.load("hammer", {}))
    assert hidden is not None

    def bot(side: str, public: dict[str, Any], facts: Facts) -> Any:
        order = hidden.bot_order(public, side, facts)  # type: ignore[attr-defined]
        if plans and isinstance(order, dict) and hidden.owes(public).get(side) in ("card", "moves"):
            return {**order, "plans": PLAN}
        return order

    keys = {s: identity.generate(s) for s in SIDES}
    dirs = {s: tmp / s for s in SIDES}
    autoplay.opened(dirs, keys, "hammer", "braveheart", {}, 24, length=1024)
    autoplay.play(dirs, keys, bot, until=_next_year)
    return dirs["england"]


@pytest.fixture(scope="module", params=[False, True], ids=["default plans", "standing plans"])
def year(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    return _first_year(tmp_path_factory.mktemp("trips"), bool(request.param))


def _entries(game_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((game_dir / "ledger").iterdir())]


def _heads(entries: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Step -> the game (year, turn, phase, player 1) at its head: the latest state before it."""
    heads: dict[int, dict[str, Any]] = {}
    game: dict[str, Any] = {}
    for e in entries:
        heads[e["entry"]] = game
        game = (e.get("state") or {}).get("game", game)
    heads[len(entries)] = game
    return heads


def test_hammer_peer_13_4_a_game_turn_costs_four_trips_and_one_more_per_reveal_question(year: Path) -> None:
    """The trips whose messages work toward a Game Turn's steps (its card round, its Move round, a pause's open),
    over the year's five Game Turns: at most 4 a turn, plus one per pause those steps wrote (and the year's last
    answer, which no next turn shares)."""
    entries = _entries(year)
    heads = _heads(entries)
    man = peer.manifest(year)
    turn_steps = {n for n, g in heads.items() if g.get("phase") in ("card", "move") and g.get("year") == 1297}
    trips = {m.clock for m in peer.messages(year, man) if m.step in turn_steps
             and m.phase not in ("join", "start", "shuffle", "lock", "keys", "final")}
    pauses = sum(1 for e in entries if e["kind"] == "pause" and e["resumes"] in turn_steps)
    assert heads[len(entries)]["year"] == 1298
    # a Game Turn's fourth trip (Player 1's answer) carries the next turn's first commit; the year's last answer
    # carries the winter's first play instead, so it counts once more here
    assert len(trips) <= 4 * 5 + 1 + pauses, (len(trips), pauses)


def test_hammer_peer_13_4_player_2s_move_round_is_its_play_and_player_1s_answer(year: Path) -> None:
    """Each Move round of the year: Player 2's play and Player 1's reveal (no commit, no order of Player 1), and the
    round's first question never asks Player 1 for a block in line (5.1): its answer to the play opened every block
    of its own the battles read before they needed Player 2's."""
    entries = _entries(year)
    heads = _heads(entries)
    man = peer.manifest(year)
    moves = [n for n, g in heads.items() if g.get("phase") == "move" and n < len(entries)
             and entries[n]["kind"] in ("step", "pause") and entries[n - 1]["kind"] != "pause"]  # a round's head
    by_step: dict[int, list[tuple[str, str]]] = {}
    for m in peer.messages(year, man):
        by_step.setdefault(m.step, []).append((m.phase, m.side))
    assert moves
    for n in moves:  # the round's own messages carry its head's number (an entry after a pause holds its open)
        player1 = heads[n]["current"]["player1"]
        assert sorted(by_step[n]) == [("play", next(s for s in SIDES if s != player1)), ("reveal", player1)], n
    for e in entries:  # the round's first question (one after Player 2's open may ask Player 1 for a later battle)
        if e["kind"] == "pause" and e["entry"] == e["resumes"] and heads[e["resumes"]].get("phase") == "move":
            q = e["question"]
            player1 = heads[e["resumes"]]["current"]["player1"]
            assert q["owner"] != player1 or not q["rule"].startswith("5.1:"), q


def test_hammer_peer_13_4_player_2s_play_opens_its_standing_plan_when_it_fights(year: Path) -> None:
    """Player 2's plan, which almost every battle reads (hits, retreats, regroups), opens with its play when it has a
    block in a battle (docs/hammer-peer.md §4): no pause of a Move round asks Player 2 for its plan."""
    entries = _entries(year)
    heads = _heads(entries)
    for e in entries:
        if e["kind"] == "pause" and heads[e["resumes"]].get("phase") == "move":
            player1 = heads[e["resumes"]]["current"]["player1"]
            assert e["question"]["owner"] == player1 or "plan-" not in e["question"]["label"], e["question"]
