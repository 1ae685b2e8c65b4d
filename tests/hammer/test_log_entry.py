"""A log line is a typed record whose visibility is its own field (issue 15 item 2, docs/reports.md).

The record and its data form round-trip exactly, key for key, for every way a line can say who
sees it; and the visibility rule (views.entry_for) reads the visibility, never the actor.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from pbem.hammer.rules.log import (
    PRIVATE,
    PRIVATE_UNMARKED,
    PUBLIC,
    REFEREE,
    LogEntry,
    Seen,
    Visibility,
    as_entry,
    entry,
    redacted,
)
from pbem.hammer.show.views import entry_for, filter_log, public_log

LINES: list[Line] = [
    {"what": "fire", "side": "england", "public": True, "block": "Wallace", "dice": [{"value": 6, "hit": True}]},
    {"what": "winter", "side": "", "public": True, "step": "7.1", "noble": "Argyll"},
    {"what": "moves", "side": "scotland", "from": "Fife", "points": 1},
    {"what": "discard", "side": "england", "public": False, "cards": ["move1-1"]},
    {"what": "retreat", "side": "scotland", "public": False, "redact": ["to"], "block": "Moray", "to": "Mar"},
    {"what": "new_year", "public": True, "year": 1298},
    {"what": "note", "visible_to": ["england"], "text": "x"},
    {"what": "note", "visible_to": ["both"], "public": False, "text": "x"},
    {"what": "secret", "area": "Fife"},
    {"what": "secret", "public": False, "area": "Fife"},
    {"what": "odd", "side": "england", "redact": ["to"], "to": "Mar"},
    {"what": "winter", "side": "scotland", "public": False, "step": "7.62", "area": "Fife", "block": "Moray"},
]


def canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("data", LINES, ids=[f"{i}-{d['what']}" for i, d in enumerate(LINES)])
def test_reports_log_line_round_trips_between_record_and_data_form(data: dict[str, Any]) -> None:
    record = LogEntry.from_data(data)
    assert record.to_data() == data
    assert canon(record.to_data()) == canon(data)
    assert LogEntry.from_data(record.to_data()) == record


def test_reports_visibility_is_its_own_field_apart_from_the_actor() -> None:
    public_by_england = LogEntry.from_data(LINES[0])
    private_of_england = LogEntry.from_data(LINES[3])
    assert public_by_england.actor == private_of_england.actor == "england"
    assert public_by_england.visibility.seen is Seen.PUBLIC
    assert private_of_england.visibility.seen is Seen.ACTOR
    assert LogEntry.from_data(LINES[4]).visibility == redacted("to")
    assert LogEntry.from_data(LINES[8]).visibility.seen is Seen.REFEREE
    assert LogEntry.from_data(LINES[6]).visibility.sides == ("england",)


def test_reports_a_visible_to_naming_one_side_as_a_string_reads_as_a_list() -> None:
    line = LogEntry.from_data({"what": "note", "visible_to": "scotland"})
    assert line.visibility.sides == ("scotland",) and line.to_data()["visible_to"] == ["scotland"]
    assert entry_for(line, "scotland") is not None and entry_for(line, "england") is None


def test_reports_a_line_is_seen_as_its_visibility_says_whatever_its_actor() -> None:
    line = entry("fire", "england", PUBLIC, block="Wallace")
    assert entry_for(line, "scotland") == line.to_data()
    secret = entry("discard", "england", PRIVATE, cards=["move1-1"])
    assert entry_for(secret, "england") == secret.to_data()
    assert entry_for(secret, "scotland") is None
    unmarked = entry("moves", "england", PRIVATE_UNMARKED, points=2)
    assert "public" not in unmarked.to_data() and entry_for(unmarked, "scotland") is None
    assert entry_for(entry("dice", None, REFEREE, n=3), "england") is None
    assert entry_for(entry("dice", None, REFEREE, n=3), "scotland") is None


def test_reports_5_5_a_retreat_destination_is_hidden_from_the_enemy_only() -> None:
    line = entry("retreat", "scotland", redacted("to"), block="Moray", to="Mar")
    assert entry_for(line, "scotland") == line.to_data()
    seen = entry_for(line, "england")
    assert seen is not None and "to" not in seen and seen["redacted"] == ["to"] and seen["block"] == "Moray"


def test_reports_7_62_the_enemy_sees_where_a_winter_draw_lands_not_which_block() -> None:
    line = LogEntry.from_data(LINES[-1])
    seen = entry_for(line, "england")
    assert seen == {"what": "winter", "side": "scotland", "step": "7.62", "area": "Fife", "hidden": True}


# What each side's report and the public board (the referee's ``public_log``) show of LINES, written
# out by hand from docs/reports.md "Who sees a log entry": not computed by the code under test.
Line = dict[str, Any]
FIRE: Line = {"what": "fire", "side": "england", "public": True, "block": "Wallace",
              "dice": [{"value": 6, "hit": True}]}
WINTER_7_1: Line = {"what": "winter", "side": "", "public": True, "step": "7.1", "noble": "Argyll"}
NEW_YEAR: Line = {"what": "new_year", "public": True, "year": 1298}
NOTE_TO_BOTH: Line = {"what": "note", "visible_to": ["both"], "public": False, "text": "x"}
RETREAT_REDACTED: Line = {"what": "retreat", "side": "scotland", "public": False, "redact": ["to"],
                          "block": "Moray", "redacted": ["to"]}  # 5.5: the enemy does not read where to
WINTER_7_62_SUMMARY: Line = {"what": "winter", "side": "scotland", "step": "7.62", "area": "Fife", "hidden": True}

ENGLAND_SEES: list[Line] = [
    FIRE, WINTER_7_1,
    {"what": "discard", "side": "england", "public": False, "cards": ["move1-1"]},  # its own private line
    RETREAT_REDACTED, NEW_YEAR,
    {"what": "note", "visible_to": ["england"], "text": "x"},  # listed
    NOTE_TO_BOTH,
    {"what": "odd", "side": "england", "redact": ["to"], "to": "Mar"},  # its own line, whole
    WINTER_7_62_SUMMARY,  # 7.62: where the Scots' draw lands, not which block
]
SCOTLAND_SEES: list[Line] = [
    FIRE, WINTER_7_1,
    {"what": "moves", "side": "scotland", "from": "Fife", "points": 1},  # its own unmarked line
    {"what": "retreat", "side": "scotland", "public": False, "redact": ["to"], "block": "Moray", "to": "Mar"},
    NEW_YEAR, NOTE_TO_BOTH,
    {"what": "winter", "side": "scotland", "public": False, "step": "7.62", "area": "Fife", "block": "Moray"},
]
PUBLIC_BOARD_SEES: list[Line] = [FIRE, WINTER_7_1, RETREAT_REDACTED, NEW_YEAR, NOTE_TO_BOTH, WINTER_7_62_SUMMARY]


@pytest.mark.parametrize("form", ["records", "data form"])
def test_reports_who_sees_a_log_entry_each_side_and_the_public_board_read_these_lines(form: str) -> None:
    """England, Scotland and the public board the referee publishes each read exactly these lines;
    the referee's own lines (``secret``, no actor, not public) reach none of them."""
    log: list[Any] = [LogEntry.from_data(d) for d in LINES] if form == "records" else LINES
    assert filter_log(log, "england") == ENGLAND_SEES
    assert filter_log(log, "scotland") == SCOTLAND_SEES
    assert public_log(log) == PUBLIC_BOARD_SEES
    for side, seen in (("england", ENGLAND_SEES), ("scotland", SCOTLAND_SEES), ("public", PUBLIC_BOARD_SEES)):
        assert not [e for e in seen if e["what"] == "secret"], side


def test_reports_a_private_line_that_names_no_side_is_seen_by_nobody() -> None:
    """Fail closed (docs/reports.md): a private line without an actor has no owner to show it to,
    and no enemy to show its summary to, even of a kind that has one (7.62)."""
    orphan = entry("winter", "", PRIVATE, step="7.62", area="Fife", block="Moray")
    assert [entry_for(orphan, side) for side in ("england", "scotland")] == [None, None]
    assert public_log([orphan]) == []


def test_reports_a_record_is_its_own_entry() -> None:
    records = [LogEntry.from_data(d) for d in LINES]
    assert all(as_entry(r) is r for r in records)


def test_reports_a_record_copy_shares_no_mutable_fact() -> None:
    line = entry("fire", "england", PUBLIC, dice=[{"value": 6}])
    twin = line.copy()
    assert twin == line
    twin.facts["dice"][0]["value"] = 1  # type: ignore[index]
    assert line.facts["dice"] == [{"value": 6}]
    twin.setdefault("step", 3)
    assert "step" not in line.facts and twin.facts["step"] == 3


def test_reports_every_line_states_who_sees_it_where_it_is_made() -> None:
    """No default visibility (nor actor): a line that forgot would otherwise be shown to everyone."""
    for make in (entry, LogEntry):
        params = inspect.signature(make).parameters
        assert params["visibility"].default is inspect.Parameter.empty, make
        assert params["actor"].default is inspect.Parameter.empty, make
    with pytest.raises(TypeError):
        entry("discard", "england", cards=["move1-1"])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        LogEntry("discard", "england")  # type: ignore[call-arg]


def test_reports_a_referee_line_naming_an_actor_is_refused_where_it_is_made() -> None:
    for vis in (REFEREE, Visibility(Seen.REFEREE, marked=True)):
        with pytest.raises(ValueError, match=r"^log line 'dice': a referee-only line names no actor, but this one "
                                             r"names 'england'; give it its actor's visibility or no actor"):
            entry("dice", "england", vis, n=3)
    assert entry("dice", None, REFEREE, n=3).to_data() == {"what": "dice", "n": 3}
    assert entry("dice", "", REFEREE).to_data() == {"what": "dice", "side": ""}


VISIBILITIES = (PUBLIC, PRIVATE, PRIVATE_UNMARKED, REFEREE, Visibility(Seen.REFEREE, marked=True), redacted("to"),
                Visibility(Seen.LISTED, sides=("scotland",)), Visibility(Seen.LISTED, sides=("both",), marked=False))


@pytest.mark.parametrize("vis", VISIBILITIES, ids=lambda v: f"{v.seen.value}-{v.marked}")
@pytest.mark.parametrize("actor", [None, "", "england"])
def test_reports_a_stored_line_is_seen_by_each_side_as_the_line_it_was_made(actor: str | None, vis: Visibility) -> None:
    """Whatever a producer writes, its data form (reports, the ledger) reads back into a line each side
    sees exactly as it saw the line made; a combination that would not is refused when it is made."""
    try:
        line = entry("retreat", actor, vis, block="Moray", to="Mar")
    except ValueError:
        assert actor and vis.seen is Seen.REFEREE
        return
    stored = LogEntry.from_data(json.loads(json.dumps(line.to_data())))
    assert stored.to_data() == line.to_data()
    for side in ("england", "scotland"):
        assert entry_for(stored, side) == entry_for(line, side), side
