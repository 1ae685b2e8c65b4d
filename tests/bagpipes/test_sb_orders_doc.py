"""docs/bagpipes-orders.md: an example of every order kind, each one a valid order (issue 25 point 3)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pbem.bagpipes.model import ORDER_KINDS, parse_order
from pbem.core.errors import FormatError

DOC = (Path(__file__).parents[2] / "docs" / "bagpipes-orders.md").read_text(encoding="utf-8")
BLOCKS = [tomllib.loads(b) for b in re.findall(r"```toml\n(.*?)```", DOC, re.S)]


def test_SB_5_orders_doc_has_an_example_of_every_order_kind_and_each_parses() -> None:
    kinds = {b["kind"] for b in BLOCKS if "kind" in b}
    assert kinds == set(ORDER_KINDS), sorted(set(ORDER_KINDS) - kinds)
    for body in BLOCKS:
        if "kind" in body:
            parse_order({k: v for k, v in body.items() if k not in ("game", "side", "step")} | {"round": 1})
    plan = next(b for b in BLOCKS if b.get("kind") == "plan" and "program" in b)
    assert len(plan["program"]) == 3 and plan["program"][2] == {"ask": True}


def test_SB_5_2_the_flat_turn_form_is_refused_with_the_right_form_shown() -> None:
    with pytest.raises(FormatError, match=r"a plan lists its turns as alternatives: \[\[program\]\] then turn = "):
        parse_order({"kind": "plan", "round": 1, "replenish": "raise_militia", "relocate": 4})
    with pytest.raises(FormatError, match=r"a turn order puts the turn in one table: turn = \{ replenish"):
        parse_order({"kind": "turn", "round": 1, "replenish": "raise_militia", "relocate": 4})
    with pytest.raises(FormatError, match=r"turn is not a field of a plan order by itself: .*\[\[program\]\]"):
        parse_order({"kind": "plan", "round": 1, "turn": {"replenish": "raise_militia", "relocate": 2}})
    assert "The flat form is refused" in DOC
