"""5.1, docs/reports.md: "battles to fight" lists only battles still to fight, and a pending
question says which battle and round it belongs to (issue 14 item 2)."""

from __future__ import annotations

from test_7_steps import paused_on_a_hit

from pbem.cli.report import render_report
from pbem.hammer.show.render import pending_battles, question_where


def test_5_1_the_battle_in_progress_is_not_listed_under_battles_to_fight() -> None:
    _, out = paused_on_a_hit()
    for side in ("scotland", "england"):
        rep = out.reports[side]
        v = rep["view"]
        assert v["fight"]["area"] == "Fife" and "Fife" in [b["area"] for b in v["battles"]]  # still in the state
        assert "Fife" not in [b["area"] for b in pending_battles(v)]
        text = render_report(rep)
        listed = (
            text.split("battles to fight:")[1].split("battle in progress")[0] if "battles to fight:" in text else ""
        )
        assert "Fife" not in listed
        assert "battle in progress in Fife, round 1" in text


def test_5_1_a_battle_that_ended_is_never_listed_under_battles_to_fight() -> None:
    v = {"battles": [{"area": "Fife"}, {"area": "Lennox"}], "fight": {},
         "log": [{"what": "battle_end", "area": "Fife", "winner": "england", "rounds": 2}]}
    assert [b["area"] for b in pending_battles(v)] == ["Lennox"]


def test_5_1_a_pending_question_names_its_battle_and_round() -> None:
    _, out = paused_on_a_hit()
    text = render_report(out.reports["scotland"])
    question = [line for line in text.splitlines() if line.strip().startswith("question ")]
    assert question and "in the battle in Fife, round 1" in question[0]
    fight = {"area": "Fife", "round": 2}
    assert question_where({"context": {"block": "Wallace"}}, {"fight": fight}) == " in the battle in Fife, round 2"
    assert question_where({"context": {"area": "Lennox", "round": 3}}, {"fight": {}}) == \
        " in the battle in Lennox, round 3"
    assert question_where({"context": {"year": 1297}}, {"fight": {}}) == ""
