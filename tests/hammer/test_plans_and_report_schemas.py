"""schemas/plan.schema.json and schemas/report.schema.json (docs/plans.md, docs/reports.md):
real plans, views and reports validate with the reference validator; tampered ones do not."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_render_golden import ASKS, position
from test_views_noninterference import base

from pbem.core.drbg import Drbg
from pbem.hammer.rules.plans import parse_plans
from pbem.hammer.ruleset import HammerRuleset
from pbem.hammer.show.views import view

ROOT = Path(__file__).resolve().parents[2]
PLAN_SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
VIEW_SCHEMA = {"$ref": "#/$defs/view", "$defs": REPORT_SCHEMA["$defs"]}
R = HammerRuleset()

PLAN_EXAMPLE = tomllib.loads("""
ask = ["regroup"]
hits = ["Douglas", "Barclay"]
[battle]
retreat_if_outnumbered = true
retreat_from_round = 2
retreat_to = ["Lennox"]
regroup = "stay"
[areas.Fife]
retreat_below_percent = 50
retreat_if_steps_lost = 3
ask = false
""")


def valid(instance: Any, schema: dict[str, Any]) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(instance)


def test_schemas_are_valid_draft_2020_12() -> None:
    for name in ("plan", "report", "draft", "odds"):
        jsonschema.Draft202012Validator.check_schema(json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text()))


def test_plans_the_documented_example_matches_the_schema_and_the_parser() -> None:
    jsonschema.validate(PLAN_EXAMPLE, PLAN_SCHEMA)
    parse_plans("scotland", PLAN_EXAMPLE)


@pytest.mark.parametrize("bad", [{"hits": "Douglas"}, {"battle": {"retreat_from_round": 4}}, {"retreat": 1},
                                 {"areas": {"Fife": {"ask": "yes"}}}, {"ask": ["dance"]}])
def test_plans_the_schema_refuses_malformed_plans(bad: dict) -> None:
    assert not valid(bad, PLAN_SCHEMA)


def test_reports_views_match_the_view_schema() -> None:
    s, log = position()
    for side in ("england", "scotland"):
        jsonschema.validate(view(s, side, log, ASKS), VIEW_SCHEMA)
    for scenario in ("braveheart", "the_bruce", "campaign"):
        jsonschema.validate(view(base(scenario, 0), "england"), VIEW_SCHEMA)


def test_reports_the_schema_refuses_a_view_that_names_enemy_strengths() -> None:
    s, log = position()
    v = view(s, "scotland", log)
    v["enemy_blocks"] = {"Fife": {"Edward": 4}}
    assert not valid(v, VIEW_SCHEMA)


def _report() -> dict[str, Any]:
    state = R.setup("braveheart", {}, Drbg(b"schema" * 6))
    return R.report(state, "scotland", [], "hammer-0123", 0)


def test_reports_a_whole_report_matches_the_report_schema() -> None:
    jsonschema.validate(_report(), REPORT_SCHEMA)


@pytest.mark.parametrize("tamper", [
    lambda r: r.pop("view"),                                      # a report always carries the view
    lambda r: r.update(side="france"),                            # one of the two sides
    lambda r: r.update(asks="surrender"),                         # only the order kinds
    lambda r: r["view"].update(enemy_hand=["move1-1"]),           # the enemy hand is a count
    lambda r: r["public"]["blocks"]["Fife"].update(Wallace=4),    # the public board counts by side
    lambda r: r["options"].update(secret="x"),                    # no option the schema does not name
])
def test_reports_a_tampered_report_fails_the_schema(tamper: Any) -> None:
    r = copy.deepcopy(_report())
    tamper(r)
    assert not valid(r, REPORT_SCHEMA)
