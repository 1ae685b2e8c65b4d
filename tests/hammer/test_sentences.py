"""docs/reports.md "Sentences": every kind of log line reads as a sentence from the reader's
side, with its rule number; one golden file per kind (tests/hammer/golden/sentences/KIND.txt).

Samples (tests/hammer/sentence_samples.json) are real log lines of bot games plus the rare
variants written by hand. Regenerate after a deliberate wording change with
``PBEM_REGOLD=1 pytest tests/hammer/test_sentences.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_render_golden import golden

from pbem.hammer.show import sentences
from pbem.hammer.show.render import render_text
from pbem.hammer.show.sentences import generic, kind_of, kinds, sentence, summary
from pbem.hammer.show.views import entry_for

SAMPLES: dict[str, list[dict[str, Any]]] = json.loads(
    (Path(__file__).parent / "sentence_samples.json").read_text(encoding="utf-8"))


def rendered(kind: str) -> str:
    """Each sample of ``kind`` as each side reads it (after the log rule hides what it must)."""
    lines = []
    for e in SAMPLES[kind]:
        for reader in ("england", "scotland"):
            seen = entry_for(e, reader)
            if seen is not None:
                lines.append(f"{reader}: {sentence(seen, reader)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", sorted(kinds()))
def test_reports_each_kind_of_log_line_reads_as_its_golden_sentences(kind: str) -> None:
    assert kind in SAMPLES, f"kind {kind} of data/sentences.toml has no sample in sentence_samples.json"
    text = rendered(kind)
    assert "=" not in text.replace("==", ""), "a sentence still shows raw key=value fields"
    golden(f"sentences/{kind}.txt", text)


def test_reports_every_sampled_entry_reads_as_a_sentence_not_the_generic_fallback() -> None:
    """A variant the table forgot would silently fall back: each sample must hit a wording."""
    for kind, entries in SAMPLES.items():
        for e in entries:
            for reader in ("england", "scotland"):
                seen = entry_for(e, reader)
                if seen is None or kind == "event" and seen.get("event") == "some_new_card":
                    continue
                assert sentence(seen, reader) != generic(seen, reader), (kind, seen)


def test_reports_sentences_keep_the_rule_number() -> None:
    for kind, entries in SAMPLES.items():
        for e in entries:
            seen = entry_for(e, "scotland") or entry_for(e, "england") or {}
            rule = sentences.rule_of(seen, kinds().get(kind_of(seen)))
            line = sentence(seen, "scotland")
            if rule and line:
                assert f"({rule})" in line, (kind, line)


def test_reports_an_unknown_kind_of_log_line_reads_as_a_generic_sentence_and_never_crashes() -> None:
    """Teammates add kinds (final winter, pillage hits, retreat choices): no table entry yet is fine."""
    e = {"what": "pillage_hits", "side": "scotland", "public": True, "area": "Fife", "blocks": ["Wallace", "Douglas"],
         "rule": "4.7"}
    assert sentence(e, "scotland") == "Pillage hits (you): area Fife, blocks Wallace, Douglas (4.7)"
    assert sentence(e, "england") == "Pillage hits (the Scots): area Fife, blocks Wallace, Douglas (4.7)"
    odd = {"what": "winter", "step": "7.99", "public": True, "nested": {"a": [1, 2]}, "flag": False}
    assert sentence(odd, "england") == "Winter: flag no, nested a 1, 2 (7.99)"
    broken = {"what": "battle_end", "public": True}          # a known kind with its fields missing
    assert sentence(broken, "england") == "Battle end"
    assert summary([e, odd, broken, {"what": "fire", "public": True}], "scotland")[:1] == [sentence(e, "scotland")]


def test_reports_the_report_opens_with_since_your_last_report_in_sentences() -> None:
    from test_render_golden import position

    from pbem.hammer.show.views import view
    s, log = position()
    log = log + SAMPLES["winter.7.7"] + SAMPLES["event.herald"][2:3] + SAMPLES["battle_end"][:1]
    text = render_text(view(s, "scotland", log))
    head = text.split("since your last report:")[1].split("area ")[0]
    assert "The English moved 1 block from Lothian: 1 to Fife (4.0)." in head
    assert "Winter: the Feudal Levy adds" in head and "The English played Herald on Atholl" in head
    assert "Battle in " in head and "won by" in head
    assert "fired" not in head and "fires" not in head                 # dice stay in the battle log below
    assert text.index("since your last report:") < text.index("what happened")


def test_reports_orders_given_by_default_are_told_first() -> None:
    from test_render_golden import position

    from pbem.hammer.show.render import report_view
    from pbem.hammer.show.views import view
    s, log = position()
    rep = {"view": view(s, "scotland"), "log": log, "asks": "", "options": {},
           "defaults": ["Your orders for step 12 did not arrive before the deadline; the default orders were used."]}
    text = render_text(report_view(rep))
    head = text.split("since your last report:\n")[1]
    assert head.startswith("  Your orders for step 12 did not arrive before the deadline")


def test_reports_a_question_answered_by_default_is_named_with_its_answer() -> None:
    """Issue 14: "your regroup question was answered 'stay'"."""
    from pbem.hammer.show.sentences import default_note
    q = {"side": "scotland", "kind": "regroup", "rule": "5.6", "options": ["stay", "Lennox"],
         "context": {"area": "Fife", "round": 3, "block": "Wallace"}}
    assert default_note(12, "decide", q) == (
        "Your decide orders for step 12 did not arrive before the deadline, so the referee gave the default "
        "ones: your regroup question for Wallace in the battle in Fife, round 3 was answered 'stay' "
        "(docs/playing.md).")
    assert default_note(4, "winter").endswith("your winter went by the default plans (docs/playing.md).")


def test_3_12_every_event_sentence_cites_the_rule_the_event_refusals_cite() -> None:
    """Events are ruled by 3.12 (the English rulebook; the cards carry their text), as every refusal
    of an Event's parameters cites it: a report's sentence about an Event cites the same."""
    from pbem.hammer.rules.events import RULE
    event_kinds = [k for k in kinds() if k == "event" or k.startswith("event.")]
    assert len(event_kinds) == 6, event_kinds
    for k in event_kinds:
        assert kinds()[k].rule == RULE == "3.12", k


def test_5_5_a_battles_summary_says_who_retreated_and_regrouped_where_the_reader_may_see() -> None:
    """"Battle in Angus: won by the Scots after 2 rounds; ... retreated to Buchan": the summary
    tells retreats and regroups (5.5, 5.6) with the battle's end, a hidden destination as hidden."""
    log = [
        {"what": "battle", "area": "Angus", "attacker": "scotland", "defender": "england", "public": True},
        {"what": "retreat", "area": "Angus", "block": "Mentieth", "side": "england", "to": "Buchan", "round": 2},
        {"what": "retreat", "area": "Angus", "block": "Hobelars", "side": "england", "to": "Buchan", "round": 2},
        {"what": "retreat", "area": "Angus", "block": "Ross", "side": "england", "redacted": ["to"], "round": 2},
        {"what": "battle_end", "area": "Angus", "winner": "scotland", "rounds": 2, "public": True},
        {"what": "regroup", "area": "Angus", "block": "Wallace", "side": "scotland", "to": "Mar"},
    ]
    english = summary(log, "england")
    assert english == ["Battle in Angus: won by the Scots after 2 rounds; Ross (you) retreated (where to is hidden "
                       "from you); Mentieth and Hobelars (you) retreated to Buchan; Wallace (the Scots) regrouped "
                       "to Mar"]
    ongoing = summary(log[:3], "scotland")
    assert ongoing == ["In the battle in Angus so far: Mentieth and Hobelars (the English) retreated to Buchan"]
