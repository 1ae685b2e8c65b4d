"""docs/playing.md §3, "Since your last report": everything since the last report this player
opened (remembered in its game folder, ``.pbem/opened.json``), not since the previous step."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run, runner

from pbem.cli.key import load_key
from pbem.cli.main import app
from pbem.core import game as core_game


def _moves(hand: list[str]) -> list[tuple[int, str]]:
    return sorted((int(c[4]), c) for c in hand if c.startswith("move"))


def play_a_turn_skipping_a_report(root: Path) -> tuple[Path, str, str, str]:
    """Player 1 opens its first report, plays the higher card with a move into an enemy area riding with
    it (3.1, 4.1), and does not open the report of step 1, where only Player 2 owes (its moves). Returns
    the game folder, Player 1, the area it moved from and the area attacked."""
    g, k = new_game(root), root / "keys"
    reps = {s: core_game.open_report(report_of(g, s), load_key(k / f"{s}.key", None), g)
            for s in ("england", "scotland")}
    e, s = _moves(reps["england"]["view"]["hand"]), _moves(reps["scotland"]["view"]["hand"])
    first = "england" if e[-1][0] >= s[0][0] else "scotland"  # England wins ties (3.1)
    other = "scotland" if first == "england" else "england"
    cards = {first: (e if first == "england" else s)[-1][1], other: (s if first == "england" else e)[0][1]}
    rep = reps[first]
    origin, block, to = next((o, b, t) for o, reach in sorted(rep["options"]["moves"].items())
                             for b, dests in sorted(reach.items()) for t in dests if t in rep["view"]["enemy_blocks"])
    run("report", "open", report_of(g, first), "--key", k / f"{first}.key")  # read: remembered
    for side in (first, other):
        body = f'game = "{rep["game"]}"\nside = "{side}"\nstep = 0\nkind = "card"\n\n[card]\nplay = "{cards[side]}"\n'
        if side == first:
            body += f'\n[if_player1]\nmoves = [ {{ from = "{origin}", to = "{to}", blocks = ["{block}"] }} ]\n'
        (root / f"{side}.toml").write_text(body)
        run("orders", "seal", root / f"{side}.toml", "--key", k / f"{side}.key", "--game", g, "--out",
            root / f"{side}.asc")
    run("adjudicate", g, root / "england.asc", root / "scotland.asc", "--key", k / "referee.key")
    assert core_game.status(g)["owes"] == {other: "moves"}  # Player 1 owes nothing at step 1
    (root / "o.toml").write_text(f'game = "{rep["game"]}"\nside = "{other}"\nstep = 1\nkind = "moves"\n\n'
                                 "[moves]\nmoves = []\n")
    run("orders", "seal", root / "o.toml", "--key", k / f"{other}.key", "--game", g, "--out", root / "o.asc")
    run("adjudicate", g, root / "o.asc", "--key", k / "referee.key")
    return g, first, origin, to


def _summary(out: str) -> str:
    return out.split("since your last report:", 1)[1].split("-" * 78, 1)[0]


def test_since_your_last_report_keeps_a_skipped_reports_card_reveal_and_attack(tmp_path: Path) -> None:
    g, first, origin, to = play_a_turn_skipping_a_report(tmp_path)
    key = tmp_path / "keys" / f"{first}.key"
    skipped = _summary(run("report", "open", report_of(g, first), "--key", key, "--game", g, "--svg",
                           tmp_path / "m.svg", "--html", tmp_path / "p.html"))
    # the cards are told in side order ("England played ...; you played ..."): "you" is either
    assert re.search(r"Cards revealed: [^<]*you played", (tmp_path / "p.html").read_text())  # the page tells the same
    # the reveal and Player 1's own move are told in step 1's report only
    step1 = core_game.open_report(g / "reports" / f"0001-{first}.pbem", load_key(key, None), g)
    assert any(e.get("what") == "cards" for e in step1["log"])
    assert re.search(r"Cards revealed: [^\n]*you played", skipped) and "Player 1 is you" in skipped, skipped
    assert f"You moved from {origin}" in skipped, skipped
    assert f"Battle in {to}" in skipped, skipped
    assert json.loads((g / ".pbem" / "opened.json").read_text())["last"][first] == 2
    again = _summary(run("report", "open", report_of(g, first), "--key", key))
    assert "Cards revealed" not in again and f"Battle in {to}" in again  # read now: only the step's own news


def test_since_your_last_report_counts_from_the_first_report_opened_only(tmp_path: Path) -> None:
    """A player whose folder remembers nothing is told the step's news, as before; a damaged record is
    refused in one sentence and left as it is."""
    g, first, _, _ = play_a_turn_skipping_a_report(tmp_path)
    key = tmp_path / "keys" / f"{first}.key"
    (g / ".pbem" / "opened.json").write_text("{not json")
    bad = runner.invoke(app, ["report", "open", str(report_of(g, first)), "--key", str(key)])
    assert bad.exit_code == 1 and "is not a record of the reports you opened" in bad.output
    assert (g / ".pbem" / "opened.json").read_text() == "{not json"
    (g / ".pbem" / "opened.json").unlink()
    fresh = _summary(run("report", "open", report_of(g, first), "--key", key))
    assert "Cards revealed" not in fresh


@pytest.mark.parametrize("lost", ["missing", "foreign"])
def test_since_your_last_report_says_which_skipped_reports_it_could_not_open(tmp_path: Path, lost: str) -> None:
    g, first, _, _ = play_a_turn_skipping_a_report(tmp_path)
    key = tmp_path / "keys" / f"{first}.key"
    skipped = g / "reports" / f"0001-{first}.pbem"
    if lost == "missing":
        skipped.rename(tmp_path / "away.pbem")
    else:  # another step's report in its place
        skipped.write_bytes((g / "reports" / f"0000-{first}.pbem").read_bytes())
    out = run("report", "open", report_of(g, first), "--key", key)
    assert "Your reports of step 1 could not be opened from" in out


def test_since_your_last_report_tells_a_line_a_question_showed_ahead_once() -> None:
    """docs/playing.md §5: a report paused on a question shows the lines its call wrote so far; the next
    report tells the call again from its start. Joined, each line is told once; a repeat inside one
    report is kept."""
    from pbem.cli.report import joined_logs
    paused = [{"n": 1}, {"n": 2}, {"n": 3}]
    resumed = [{"n": 2}, {"n": 3}, {"n": 4}]
    assert joined_logs([paused, resumed]) == [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]
    assert joined_logs([[{"n": 1}], [{"n": 2}], [{"n": 2}, {"n": 2}]]) == [{"n": 1}, {"n": 2}, {"n": 2}]
    assert joined_logs([[{"n": 1}, {"n": 1}], [{"n": 5}]]) == [{"n": 1}, {"n": 1}, {"n": 5}]
