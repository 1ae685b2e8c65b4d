"""Standing battle plans with no referee (docs/plans.md, docs/hammer-peer.md §3, protocol §13.12): a side's plan
rides sealed in its order, stays secret until a question of its side needs it, is followed, and cannot be changed
once committed. England pillages the three Scots in Fife, all at full strength (4), so both hits fall on ties that
the owner breaks (5.41): by its plan, or the engine's default (the first handle by name). The Pillage's hits come
from Scotland's sealed answer, worked out by its client with its plan; the plan itself opens only at the end, and
the final audit's replay checks the answer against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_play import KEYS, audited, entries, lines, play, rig_deal

from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts
from pbem.hammer.rules import peer_events, peer_plans

GAME = {"england": [(1, "pillage", lambda p: p["target"] == "Fife")], "scotland": [(1, "truce", lambda p: True)]}


def fife(public: dict[str, Any]) -> list[str]:
    return sorted(h for h, b in public["game"]["blocks"].items()
                  if b["location"] == "Fife" and b["owner"] == "scotland")


def last_first(public: dict[str, Any]) -> dict[str, Any]:
    """Scotland's plan: the last of its Fife handles takes a hit first where strengths tie (5.41)."""
    return {"hits": fife(public)[-1:]}


def test_hammer_peer_5_41_a_sealed_plan_is_followed_and_stays_secret_until_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland's card order carries its plan as a handle (the plan itself nowhere in the record before the end);
    England's Pillage of Fife takes the first hit from the handle the plan names (a tie of three at 4), not from
    the default's first by name; the final opens the plan and the audit's replay finds the answer the plan's.
    Both records verify and audit."""
    rig_deal(monkeypatch, {"england": ["pillage"], "scotland": ["truce"]})
    dirs = play(tmp_path, GAME, battle_plans={"scotland": last_first})
    record = audited(dirs)
    step = next(e for e in record if e["kind"] == "step" and lines([e], "pillage"))
    order = step["orders"]["scotland"]
    assert isinstance(order["plans"], str) and len(order["plans"]) == 64  # sealed: a handle, not the plan
    label = peer_plans.label("scotland", record[0]["state"]["game"] | {"turn": 0, "phase": "card"})
    assert not any(label in e.get("revealed", {}) for e in record if e["kind"] != "end")
    assert next(e for e in record if e["kind"] == "end")["revealed"][label] == last_first(record[0]["state"])
    handles = fife(record[0]["state"])
    damage = [step["state"]["damage"].get(h, 0) for h in handles]
    assert damage[-1] == 1 and sum(damage) == 2  # the plan's handle hit (the defaults alone: [1, 1, 0])


def test_hammer_peer_13_12_a_plan_changed_after_the_other_sides_reveal_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Having seen England's Pillage, Scotland would rather lose other blocks: it rewrites what its order sealed
    (its plan and its answers: the same salts, other values) before the Pillage asks. Its open does not open the
    handle its order carried: the record voids the game naming Scotland (protocol §13.6, §13.12)."""
    rig_deal(monkeypatch, {"england": ["pillage"], "scotland": ["truce"]})
    dirs = play(tmp_path, GAME, battle_plans={"scotland": last_first}, stop=lambda out: bool(out.resume))
    assert peer.outcome(dirs["england"]).resume["question"]["owner"] == "scotland"
    private = dirs["scotland"] / ".pbem" / "peer-scotland" / "secrets.json"
    secrets = json.loads(private.read_text())
    sealed = [k for k in secrets["openings"] if peer_plans.is_plan(k) or peer_events.is_answer(k)]
    assert sealed
    for k in sealed:
        value = secrets["openings"][k]["value"]
        secrets["openings"][k]["value"] = {"hits": []} if peer_plans.is_plan(k) else \
            {**value, "hits": value["hits"][::-1]}
    private.write_text(json.dumps(secrets))
    peer.take(dirs["england"], peer.write_owed(dirs["scotland"], KEYS["scotland"], None, 1)[1].encode("ascii"),
              "scotland's open")
    last = entries(dirs["england"])[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert "does not open the handle it published" in last["reason"] and "hidden.scotland." in last["reason"]
    assert any("scotland cheated at step" in line for line in peer.verify(dirs["england"]))


def test_hammer_peer_docs_plans_a_plan_that_asks_or_names_a_block_of_the_other_side_is_refused() -> None:
    """With no referee there is no decide step, so a plan cannot ask; a plan names the side's blocks or handles."""
    with pytest.raises(PbemError, match="plans.ask: with no referee a plan cannot ask"):
        peer_plans.parse("scotland", {"ask": ["regroup"]}, ())
    with pytest.raises(PbemError, match="'Edward' is not a scotland block"):
        peer_plans.parse("scotland", {"hits": ["Edward"]}, ("hidden.scotland.0",))
    assert peer_plans.parse("scotland", {"hits": ["hidden.scotland.0"]}, ("hidden.scotland.0",)).hits == \
        ("hidden.scotland.0",)


def test_hammer_peer_13_12_a_drafts_plan_is_sealed_by_its_client_and_never_committed_in_the_clear() -> None:
    """``orders seal`` reads a TOML draft with ``[plans]`` naming a handle; the client's ``prepare`` checks the plan
    and seals it behind a fresh handle under the phase's label, and with a card its Pillage answers, one per group
    next to an enemy group, which ``sealed`` gives the record; an order that
    carries a plan in the clear (or a plan that asks) is refused, so a record convicts its side, never crashes."""
    from pbem.core.drbg import Drbg
    from pbem.hammer.peer import HammerPeer

    rules = HammerPeer()
    public = rules.dealt(rules.public_setup("braveheart", {}, Drbg(b"\x02" * 32)),
                         {"england": [f"card.england.{j}" for j in range(5)],
                          "scotland": [f"card.scotland.{j}" for j in range(5, 10)]})
    draft = rules.parse_order('card = "card.scotland.5"\n[plans]\nhits = ["hidden.scotland.0"]\n'
                              '[plans.battle]\nretreat_from_round = 2\n', "draft.toml")
    sealed: dict[str, Any] = {}

    def hide(label: str, value: Any) -> str:
        sealed[label] = value
        return "ab" * 32

    own = rules.private_setup("braveheart", {}, "scotland", Drbg(b"\x03" * 32))  # its client's own blocks
    order = rules.prepare(public, "scotland", draft, own, hide)
    label = "hidden.scotland.plan-1297-0-card"
    assert order["card"] == "card.scotland.5" and order["plans"] == "ab" * 32 and sealed[label] == draft["plans"]
    assert sorted(order["answers"]) == ["Annan", "Fife", "Moray", "Strathspey"]  # its groups next to English ones
    assert rules.sealed(public, "scotland", order) == {label: "ab" * 32, **{
        f"hidden.scotland.pillage-1297-0-{a}": "ab" * 32 for a in order["answers"]}}
    with pytest.raises(PbemError, match="an order carries its plan sealed"):
        rules.validate(public, "scotland", draft, Facts({"card.scotland.5": "move3-1"}, {}))
    with pytest.raises(PbemError, match="plans.ask"):
        rules.prepare(public, "scotland", {**draft, "plans": {"ask": True}}, {}, hide)
