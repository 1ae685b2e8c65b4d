"""Standing battle plans with no referee (docs/plans.md, docs/hammer-peer.md §3, protocol §13.12): a side's plan
rides sealed in its order, stays secret until a question of its side needs it (a battle's, or a Pillage's hits
"applied as in combat", 5.41), is then opened with the side's blocks and followed, and cannot be changed once
committed. England pillages the three Scots in Fife, all at full strength (4), so both hits fall on ties that the
owner breaks: its plan, or the engine's default (the first handle by name)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_play import KEYS, audited, entries, lines, play, rig_deal

from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts
from pbem.hammer.rules import peer_plans

GAME = {"england": [(1, "pillage", lambda p: p["target"] == "Fife")], "scotland": [(1, "truce", lambda p: True)]}


def fife(public: dict[str, Any]) -> list[str]:
    return sorted(h for h, b in public["game"]["blocks"].items()
                  if b["location"] == "Fife" and b["owner"] == "scotland")


def last_first(public: dict[str, Any]) -> dict[str, Any]:
    """Scotland's plan: the last of its Fife handles takes a hit first where strengths tie (5.41)."""
    return {"hits": fife(public)[-1:]}


def test_hammer_peer_5_41_a_sealed_plan_is_opened_when_its_side_is_asked_and_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland's card order carries its plan as a handle (the plan itself nowhere in the record); England's Pillage
    asks Scotland for the pillaged group, and Scotland's one open carries its blocks and the plan, which its side's
    question reads (a tie of three at 4): the first hit goes to the handle the plan names, not to the default's
    first by name (the second as docs/plans.md's default says). Both records verify and audit."""
    rig_deal(monkeypatch, {"england": ["pillage"], "scotland": ["truce"]})
    dirs = play(tmp_path, GAME, battle_plans={"scotland": last_first})
    record = audited(dirs)
    step = next(e for e in record if e["kind"] == "step" and lines([e], "pillage"))
    order = step["orders"]["scotland"]
    assert isinstance(order["plans"], str) and len(order["plans"]) == 64  # sealed: a handle, not the plan
    label = peer_plans.label("scotland", record[0]["state"]["game"] | {"turn": 0, "phase": "card"})
    assert step["revealed"][label] == last_first(record[0]["state"])
    handles = fife(record[0]["state"])
    strengths = [step["state"]["game"]["blocks"][h]["strength"] for h in handles]
    assert strengths[-1] == 3 and sum(strengths) == 10  # the plan's handle hit (the defaults alone give [3, 3, 4])
    opens = [m for m in peer.messages(dirs["england"], peer.manifest(dirs["england"])) if m.phase == "open"]
    assert [m.side for m in opens] == ["scotland"] and label in {o["label"] for o in opens[0].body["openings"]}


def test_hammer_peer_13_12_a_plan_changed_after_the_other_sides_reveal_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Having seen England's Pillage, Scotland would rather lose another block: it rewrites the plan its order
    sealed (the same salt, another plan) before the Pillage asks for it. Its open does not open the handle its order
    carried: the record voids the game naming Scotland (protocol §13.6, §13.12)."""
    rig_deal(monkeypatch, {"england": ["pillage"], "scotland": ["truce"]})
    dirs = play(tmp_path, GAME, battle_plans={"scotland": last_first}, stop=lambda out: bool(out.resume))
    assert peer.outcome(dirs["england"]).resume["question"]["owner"] == "scotland"
    private = dirs["scotland"] / ".pbem" / "peer-scotland" / "secrets.json"
    secrets = json.loads(private.read_text())
    plans = [k for k in secrets["openings"] if peer_plans.is_plan(k)]
    assert plans
    for k in plans:
        secrets["openings"][k]["value"] = {"hits": []}  # the defaults' choice after all
    private.write_text(json.dumps(secrets))
    peer.take(dirs["england"], peer.write_owed(dirs["scotland"], KEYS["scotland"], None, 1)[1].encode("ascii"),
              "scotland's open")
    last = entries(dirs["england"])[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert f"its opening of {plans[0]} does not open the handle it published" in last["reason"]
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
    and seals it behind a fresh handle under the phase's label, which ``sealed`` gives the record; an order that
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

    order = rules.prepare(public, "scotland", draft, {}, hide)
    label = "hidden.scotland.plan-1297-0-card"
    assert order == {"card": "card.scotland.5", "plans": "ab" * 32} and sealed == {label: draft["plans"]}
    assert rules.sealed(public, "scotland", order) == {label: "ab" * 32}
    with pytest.raises(PbemError, match="an order carries its plan sealed"):
        rules.validate(public, "scotland", draft, Facts({"card.scotland.5": "move3-1"}, {}))
    with pytest.raises(PbemError, match="plans.ask"):
        rules.prepare(public, "scotland", {**draft, "plans": {"ask": True}}, {}, hide)
