"""schemas/plan.schema.json and schemas/report.schema.json validate real examples (docs/plans.md,
docs/reports.md), with the project's own checker (pbem/schema_check.py)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from test_render_golden import ASKS, position
from test_views_noninterference import base

from pbem.hammer.plans import parse_plans
from pbem.hammer.views import view
from pbem.schema_check import SchemaError, errors, validate

ROOT = Path(__file__).resolve().parents[2]
PLAN_SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text())

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


def test_plans_the_documented_example_matches_the_schema_and_the_parser() -> None:
    validate(PLAN_EXAMPLE, PLAN_SCHEMA)
    parse_plans("scotland", PLAN_EXAMPLE)


@pytest.mark.parametrize("bad", [{"hits": "Douglas"}, {"battle": {"retreat_from_round": 4}}, {"retreat": 1},
                                 {"areas": {"Fife": {"ask": "yes"}}}, {"ask": ["dance"]}])
def test_plans_the_schema_refuses_malformed_plans(bad: dict) -> None:
    with pytest.raises(SchemaError):
        validate(bad, PLAN_SCHEMA)


def test_reports_views_match_the_report_schema() -> None:
    s, log = position()
    for side in ("england", "scotland"):
        assert errors(view(s, side, log, ASKS), REPORT_SCHEMA) == []
    for scenario in ("braveheart", "the_bruce", "campaign"):
        assert errors(view(base(scenario, 0), "england"), REPORT_SCHEMA) == []


def test_reports_the_schema_refuses_a_view_that_names_enemy_strengths() -> None:
    s, log = position()
    v = view(s, "scotland", log)
    v["enemy_blocks"] = {"Fife": {"Edward": 4}}
    assert errors(v, REPORT_SCHEMA)


def test_schema_check_agrees_with_the_reference_validator_where_available() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    s, log = position()
    jsonschema.validate(view(s, "scotland", log, ASKS), REPORT_SCHEMA)
    jsonschema.validate(PLAN_EXAMPLE, PLAN_SCHEMA)


def test_schema_check_refuses_keywords_it_does_not_know() -> None:
    with pytest.raises(ValueError):
        errors({}, {"type": "object", "patternProperties": {}})
