"""Step 10 (issue 14) item 4: a card-step draft with an Event in hand carries its [event] template;
Truce is played in the card step without an event step; every commented hint in a draft is valid
TOML when uncommented; the comments say what an empty [event] table does for each card."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from check_corpus import SCENARIOS, positions

from pbem.core.drbg import Drbg
from pbem.hammer import drafts
from pbem.hammer.cards import card
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
