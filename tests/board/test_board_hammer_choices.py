"""docs/board.md: every choice and destination the Hammer board offers, at every kind of pause a game
makes (card, moves, event, winter, each decide question), gives a draft the referee's own check
accepts; the board's first draft is accepted as it stands (it is the deadline's default)."""

from __future__ import annotations

from typing import Any

import pytest
from hammer.pause_points import R, pause_points

from pbem.core.board import BoardAction
from pbem.hammer.play import drafts
from pbem.hammer.play.boardview import HammerBoard

BOARD = HammerBoard()
PER_KIND = 2  # states of each pause kind tried (the first ones found)


def _reports() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for kind, found in sorted(pause_points().items()):
        for paused in found[:PER_KIND]:
            step = int(paused.state.get("step", 0))
            for side in sorted(R.owes(paused.state)):
                out.append((f"{kind}/{side}", R.report(paused.state, side, paused.log, "board-test", step)))
    return out


REPORTS = _reports()


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=[n for n, _ in REPORTS])
def test_board_every_choice_offered_is_accepted_by_the_referees_check(name: str, report: dict[str, Any]) -> None:
    d = BOARD.start(report)
    drafts.check_draft(d, report)  # the first draft: the deadline's default
    view = BOARD.view(report, d, [])
    assert view.asks == report["asks"]
    for choice in view.choices:
        after = BOARD.act(report, d, BoardAction("choose", choice=choice.id))
        drafts.check_draft(after, report)  # raises, naming the rule, if the board offered an illegal choice
        assert any(c.id == choice.id and c.chosen for c in BOARD.view(report, after, []).choices) or \
            choice.id.startswith("plans:round") or choice.chosen, f"{name}: {choice.id} not shown as chosen"
    for piece in view.pieces[:3]:
        for dest in BOARD.dests(report, d, (piece.id,)):
            drafts.check_draft(BOARD.act(report, d, BoardAction("move", (piece.id,), dest)), report)


def test_board_choices_cover_every_kind_of_order() -> None:
    kinds = {name.split("/")[0].split(":")[0] for name, _ in REPORTS}
    assert {"card", "moves", "event", "decide", "winter"} <= kinds


def test_board_winter_release_and_ask_are_choices_the_check_accepts() -> None:
    """docs/orders.md "Winter": the plan's ``release`` (7.32, 7.5) and ``ask`` keys are set by clicks too,
    so no winter answer needs the TOML draft; each click lands in the draft's [winter] table."""
    name, report = next((n, r) for n, r in REPORTS if n.startswith("winter/") and
                        r["options"]["winter_plan"].get("release"))
    d = BOARD.start(report)
    ids = [c.id for c in BOARD.view(report, d, []).choices]
    release = next(i for i in ids if i.startswith("winter:release:"))
    ask = next(i for i in ids if i.startswith("winter:ask:"))
    for choice in (release, ask):
        d = BOARD.act(report, d, BoardAction("choose", choice=choice))
    drafts.check_draft(d, report)
    assert isinstance(d, drafts.Draft)
    winter = d.sections["winter"]
    assert winter["release"] == [release.rsplit(":", 1)[1]] and winter["ask"] == [ask.rsplit(":", 1)[1]], name


def test_board_winter_builds_of_several_rps_in_one_area_7_6() -> None:
    """docs/orders.md "Winter": ``builds`` holds one entry per RP of an area (7.6); the board sets each
    RP's entry in turn, every one offered accepted by the check, so no build needs the TOML draft."""
    for name, report in REPORTS:
        if not name.startswith("winter/"):
            continue
        d = BOARD.start(report)
        first = [c.id for c in BOARD.view(report, d, []).choices if c.id.startswith("winter:builds.")
                 and not c.id.endswith(":pass")]
        for choice in first:
            after = BOARD.act(report, d, BoardAction("choose", choice=choice))
            second = [c.id for c in BOARD.view(report, after, []).choices
                      if c.id.startswith(choice.split(":")[1].replace("builds.", "winter:builds.") + ".2:")]
            if second:
                after = BOARD.act(report, after, BoardAction("choose", choice=second[0]))
                drafts.check_draft(after, report)
                assert isinstance(after, drafts.Draft)
                area = choice.split(":")[1].removeprefix("builds.")
                assert after.sections["winter"]["builds"][area] == [choice.split(":", 2)[2],
                                                                    second[0].split(":", 2)[2]], name
                return
    raise AssertionError("no winter pause with an area of two RPs")
