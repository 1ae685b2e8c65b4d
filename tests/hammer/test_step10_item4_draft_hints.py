"""Step 10 (issue 14) item 4: a card-step draft with an Event in hand carries its [event] template;
Truce is played in the card step without an event step; every commented hint in a draft is valid
TOML when uncommented; the comments say what an empty [event] table does for each card."""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from typing import Any

import pytest
from check_corpus import SCENARIOS, positions

from pbem.core.drbg import Drbg
from pbem.hammer.play import drafts
from pbem.hammer.rules.cards import card
from pbem.hammer.ruleset import HammerRuleset, game_of

R = HammerRuleset()
HINT = re.compile(r"^#\s?(\[[\w.]+\]|[A-Za-z_][\w.]*\s*=\s.*)$")  # "# key = value" or "# [table]"


def _hints(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := HINT.match(line))]


def _templates() -> list[tuple[dict[str, Any], str]]:
    out = []
    for i, scenario in enumerate(SCENARIOS):
        for p in positions(scenario, i, max_steps=90, every=1):
            out.append((p.report, drafts.template(p.report)))
    return out


TEMPLATES = _templates()


def test_step10_item4_every_commented_hint_is_valid_toml_when_uncommented() -> None:
    kinds, seen = set(), 0
    for report, text in TEMPLATES:
        kinds.add(report["asks"])
        for hint in _hints(text):
            seen += 1
            try:
                tomllib.loads(hint)
            except tomllib.TOMLDecodeError as exc:
                raise AssertionError(f"{report['asks']} draft hint {hint!r} is not TOML: {exc}") from None
    assert {"card", "moves", "winter", "event"} <= kinds and seen > 1000, (kinds, seen)


def _uncomment_first_choice(text: str) -> str:
    """The event step's draft with the first listed choice's lines uncommented."""
    lines, out, taking = text.splitlines(), [], False
    for line in lines:
        if line.startswith("#   either:"):
            taking = True
            continue
        if taking and (line.startswith("#   or:") or not HINT.match(line)):
            taking = False
        out.append(line[2:] if taking else line)
    return "\n".join(out)


def test_step10_item4_an_event_steps_first_choice_uncommented_checks() -> None:
    checked = 0
    for report, text in TEMPLATES:
        if report["asks"] == "event" and "#   either:" in text:
            drafts.check_draft(drafts.parse_draft(_uncomment_first_choice(text)), report)
            checked += 1
    assert checked


def test_step10_item4_a_card_draft_with_an_event_in_hand_carries_its_event_template() -> None:
    found = 0
    for report, text in TEMPLATES:
        if report["asks"] != "card":
            continue
        events = [c for c in report["options"]["hand"] if card(c).is_event]
        if not events:
            assert "# [event]" not in text
            continue
        found += 1
        only_events = len(events) == len(report["options"]["hand"])  # the filled-in card is an Event: [event] empty
        assert ("\n[event]\n" in text) == only_events and ("# [event]" in text) != only_events
        for c in events:
            line = next(x for x in text.splitlines() if x.startswith(f"#   {c} ("))
            assert ("an empty table passes" in line) != (card(c).event == "truce"), line
            if card(c).event == "truce":
                assert "plays it" in line
    assert found


def test_step10_item4_truce_is_played_in_the_card_step_without_an_event_step() -> None:
    s = R.setup("braveheart", {}, Drbg(b"t" * 32))
    g = game_of(s)
    g.hands["scotland"] = ["truce", *g.hands["scotland"][1:]]
    s["game"] = g.to_dict()
    other = sorted(c for c in g.hands["england"] if not card(c).is_event)[0]
    orders = {"england": {"game": "", "side": "england", "step": 0, "kind": "card", "card": {"play": other},
                          "if_player1": {"moves": []}},
              "scotland": {"game": "", "side": "scotland", "step": 0, "kind": "card", "card": {"play": "truce"}}}
    after = R.adjudicate(s, orders, Drbg(b"u" * 32)).state
    assert "event" not in after["owes"].values(), after["owes"]
    assert game_of(after).current.truce == "scotland"


# --- the listed Event choices, compact or whole, are exactly the legal ones (docs/orders.md Events) --

OR_NAMES = re.compile(r"   # or: (.*)$")
OR_ANY = re.compile(r"   # or any (\d+)(?: (?:or|to) (\d+))? of: (.*)$")


def _listed_choices(lines: list[str]) -> list[dict[str, Any]]:
    """Every parameter set the hint lines of one Event list, a compact entry read out in full: a
    line's value, or any value its "# or: ..." names, or any list its "# or any N of: ..." allows."""
    entries: list[list[str]] = []
    reading = False  # within an entry: its hint lines follow its either/or line
    for line in lines:
        if line in ("#   either:", "#   or:"):
            entries.append([])
            reading = True
        elif reading and HINT.match(line):
            entries[-1].append(line[2:])
        else:
            reading = False
    out = []
    for entry in entries:
        options: list[list[tuple[str, Any]]] = []
        for hint in entry:
            ((key, first),) = tomllib.loads(hint).items()
            values = [first]
            if m := OR_NAMES.search(hint):
                values += [type(first)(v) for v in m.group(1).split(", ")]
            elif m := OR_ANY.search(hint):
                lo, hi, names = int(m.group(1)), int(m.group(2) or m.group(1)), m.group(3).split(", ")
                values = [list(c) for n in range(lo, hi + 1) for c in itertools.combinations(names, n)]
            options.append([(key, v) for v in values])
        out += [dict(pairs) for pairs in itertools.product(*options)]
    return out


def _canon(params: dict[str, Any]) -> str:
    return json.dumps({k: sorted(v) if k == "blocks" else v for k, v in params.items()}, sort_keys=True)


def test_3_12_an_event_drafts_listed_choices_are_exactly_the_legal_ones_compact_or_whole() -> None:
    from test_draft_templates_golden import sea_move_report
    reports = [r for r, _ in TEMPLATES if r["asks"] == "event"] + [sea_move_report()]
    compact = 0
    for report in reports:
        text = drafts.template(report)
        legal = report["options"]["event_params"]
        listed = _listed_choices(text.splitlines())
        assert sorted(map(_canon, listed)) == sorted(map(_canon, legal)), report["options"]["event"]
        assert len(listed) == len(legal)
        compact += "   # or" in text
    assert compact >= 2  # the Sea Move's choices (and a Pillage's targets) are listed compactly


def test_3_12_a_sea_move_draft_lists_each_origin_once_on_three_lines() -> None:
    from test_draft_templates_golden import sea_move_report
    report = sea_move_report()
    text = drafts.template(report)
    origins = sorted({p["from"] for p in report["options"]["event_params"] if "from" in p})
    assert len(report["options"]["event_params"]) > 100 and len(origins) >= 5
    assert [line for line in text.splitlines() if line.startswith("# from = ")] == [f'# from = "{o}"' for o in origins]
    assert len(text.splitlines()) < 40 + 4 * len(origins)


@pytest.mark.parametrize("choices", [
    [{"from": "Fife", "to": "Angus", "blocks": ["Wallace"]},  # not every blocks-destination pair: listed whole
     {"from": "Fife", "to": "Lennox", "blocks": ["Wallace", "Douglas"]}],
    [{"from": "Fife", "to": "Angus", "blocks": ["Wallace"]}, {"from": "Fife", "to": "Lennox", "blocks": ["Wallace"]},
     {"from": "Fife", "to": "Angus", "blocks": ["Douglas"]}],  # Douglas to Lennox missing: listed whole
    [{"from": "Fife", "to": "Angus", "blocks": ["Wallace"]},  # not every one or two of the blocks
     {"from": "Fife", "to": "Angus", "blocks": ["Wallace", "Douglas"]}],
    [{"from": "Fife", "to": "Angus", "blocks": ["Wallace"]}, {"from": "Fife", "to": "Lennox", "blocks": ["Wallace"]},
     {"from": "Fife", "to": "Angus", "blocks": ["Douglas"]}, {"from": "Fife", "to": "Lennox", "blocks": ["Douglas"]},
     {"from": "Lanark", "to": "Angus", "blocks": ["Barclay"]}, {"pass": True}],
])
def test_3_12_event_choices_are_listed_compactly_only_when_every_combination_is_legal(
        choices: list[dict[str, Any]]) -> None:
    from pbem.hammer.play.order_kinds.event import event_choice_lines
    lines = event_choice_lines(choices, "sea_move")
    assert sorted(map(_canon, _listed_choices(lines))) == sorted(map(_canon, choices)), lines
    assert all(tomllib.loads(h) for h in _hints("\n".join(lines)))
