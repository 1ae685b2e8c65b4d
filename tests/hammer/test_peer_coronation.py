"""A coronation with no referee (6.21, 6.22; docs/hammer-peer.md §3, protocol §13.10): the Scots' card order lists
what the coronation reads of their hidden blocks (``opens``: the candidate's noble index and handle, each noble of
the defecting faction's), their reveal opens it ahead, the other client checks each fact at once, and the step gives
the public result the refereed engine gives on the same true facts.

Braveheart has no coronation in its first Game Turn (Wallace lives), so the tests play a variant of its set-up
(Wallace dead, Bruce in Fife: ``crowning``); the deal is rigged so the Scots hold an Event, and the peer bot crowns
whenever it may (peer_bot.coronation_order)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_play import audited, entries, play, rig_deal

from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts, NeedReveal
from pbem.hammer import peer_setup
from pbem.hammer.peer import HammerPeer
from pbem.hammer.rules import kings, peer_events
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.hidden import Resolver, block_of, resolving
from pbem.hammer.rules.scenario import scenarios
from pbem.hammer.rules.state import PLACES, GameState

BRAVEHEART = scenarios()["braveheart"]


def crowning(monkeypatch: pytest.MonkeyPatch, galloway: str = "Galloway") -> None:
    """Braveheart with Wallace dead and Bruce in Fife (6.21's conditions met at the first Game Turn); Galloway, a
    Comyn noble of the Scots, where ``galloway`` says."""
    scots = {"Fife": ["Bruce", "Douglas", "Barclay"], "Moray": ["Moray", "Fraser"], "Strathspey": ["Grant"]}
    scots.setdefault(galloway, []).append("Galloway")
    variant = dataclasses.replace(BRAVEHEART, scottish={a: tuple(b) for a, b in scots.items()},
                                  scottish_dead=("Wallace",))
    monkeypatch.setitem(scenarios(), "braveheart", variant)


def one_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Both folders play until the coronation's step is in the record (or a side is convicted)."""
    rig_deal(monkeypatch, {"scotland": ["herald"]})
    return play(tmp_path, {}, stop=lambda out: any(line.get("what") == "coronation" for e in _record(out)
                                                   for line in e.get("log", [])))


def _record(out: peer.Outcome) -> list[dict[str, Any]]:
    import json
    return [json.loads(raw) for raw in out.entries]


def _step(record: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The entry before the coronation's step, and that step."""
    at = next(i for i, e in enumerate(record) if e["kind"] == "step"
              and any(line["what"] == "coronation" for line in e["log"]))
    return next(e for e in reversed(record[:at]) if "state" in e), record[at]


def _crowned(dirs: dict[str, Path]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The entry before the coronation's step, that step and its coronation line; nobody convicted, no pause."""
    record = entries(dirs["england"])
    assert not any(e["kind"] == "void" for e in record), record[-1]
    before, step = _step(record)
    assert not any(e["kind"] == "pause" for e in record if e["entry"] > before["entry"])
    return before, step, next(x for x in step["log"] if x["what"] == "coronation")


def test_hammer_peer_6_21_coronation_gives_the_refereed_result_and_opens_only_what_it_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Scots crown Bruce in Fife with their Herald (Wallace dead): their reveal opens, with the card, their noble
    index of Bruce and of Galloway (a Comyn noble: 6.21 sends him to England) and the two handles, and nothing else;
    no pause. The King stands in Fife, Galloway is England's, seen: the same coronation line the refereed engine
    writes on the same true blocks (kings.crown), and the same owners."""
    crowning(monkeypatch)
    dirs = one_turn(tmp_path, monkeypatch)
    before, step, line = _crowned(dirs)
    assert (line["king"], line["area"], line["defectors"], line["rule"]) == ("Bruce", "Fife", ["Galloway"], "6.21")
    opened = {k for k in step["revealed"] if not k.startswith("card.")}
    seen = step["state"]["seen"]
    bruce = next(h for h, n in seen.items() if n == "Bruce")
    galloway = next(h for h, n in seen.items() if n == "Galloway")
    assert opened == {"noble.scotland.Bruce", "noble.scotland.Galloway", bruce, galloway}
    game = step["state"]["game"]["blocks"]
    assert game["King"]["location"] == "Fife" and game["King"]["owner"] == "scotland"
    assert game[galloway]["owner"] == "england" and game[bruce]["owner"] == "scotland"
    # the refereed engine on the same true facts (every fact: the Scots' own folder and the English one)
    facts = {**_own(dirs, "scotland"), **_own(dirs, "england")}
    g = _named(before["state"], facts)
    log = kings.crown(g, "Bruce", None, None)  # type: ignore[arg-type]  # no battle: no dice, no decision
    ref = next(x for x in log if x.what == "coronation").facts
    assert {k: ref[k] for k in ("king", "area", "defectors", "rule")} == \
        {k: line[k] for k in ("king", "area", "defectors", "rule")}
    assert g.blocks["Galloway"].owner == "england" and g.blocks["King"].location == "Fife"
    for name, b in g.blocks.items():
        key = next((h for h, n in seen.items() if n == name), name)
        if key in game:
            assert game[key]["owner"] == b.owner, name
    for s in ("england", "scotland"):
        assert any("verify ok" in line for line in peer.verify(dirs[s]))


def _own(dirs: dict[str, Path], side: str) -> dict[str, Any]:
    from support.hammer_peer_bot import own
    return dict(own(dirs[side], side)[1])


def _named(public: dict[str, Any], facts: dict[str, Any]) -> GameState:
    """The refereed game behind a peer state: each handle by its true block, full strength on the map (8.0)."""
    g = GameState.from_dict(public["game"])
    for h in sorted(k for k in g.blocks if k.startswith("hidden.")):
        b = g.blocks.pop(h)
        name = block_of(facts[h])[0]
        if b.location not in PLACES and not b.strength:
            b.strength = kings.spec(name).steps
        g.blocks[name] = b
    return g


def lying(monkeypatch: pytest.MonkeyPatch, noble: str, behind: str) -> None:
    """The Scots' set-up commits a false noble index: ``noble`` behind the handle that truly hides ``behind``."""
    honest = peer_setup.private_setup

    def lie(scenario_id: str, options: Any, side: str, rng: Any) -> dict[str, str]:
        facts = honest(scenario_id, options, side, rng)
        if side == "scotland":
            facts[f"noble.scotland.{noble}"] = next(h for h, n in facts.items() if n == behind)
        return facts

    monkeypatch.setattr(peer_setup, "private_setup", lie)
    check = peer_setup.check_facts

    def lets_its_own_lie_through(scenario_id: str, options: Any, side: str, facts: Any, complete: bool) -> None:
        if not complete:  # the liar's client checks its whole set-up before the start; the record checks each opening
            check(scenario_id, options, side, facts, complete)

    monkeypatch.setattr(peer_setup, "check_facts", lets_its_own_lie_through)


def convicted(dirs: dict[str, Path]) -> dict[str, Any]:
    last = entries(dirs["england"])[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert any("scotland cheated at step" in line for line in peer.verify(dirs["england"]))
    return last


def test_hammer_peer_6_21_a_false_candidate_convicts_the_scots_at_the_coronation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bruce stands in Annan, not Fife; the Scots' noble index puts him behind the Fife handle that hides Douglas, so
    their own client finds the coronation legal. The coronation reveals the candidate with his index, so the English
    client's check of the facts convicts the Scots at once, at the coronation's step, before it is adjudicated
    (checked by mutation: a coronation that does not reveal its candidate lets the lie pass)."""
    variant = dataclasses.replace(BRAVEHEART, scottish_dead=("Wallace",), scottish={
        a: tuple(b for b in bs if b != "Wallace") for a, bs in BRAVEHEART.scottish.items()})
    monkeypatch.setitem(scenarios(), "braveheart", variant)
    lying(monkeypatch, "Bruce", "Douglas")
    last = convicted(one_turn(tmp_path, monkeypatch))
    assert "noble index puts Bruce behind" in last["reason"] and "which is Douglas" in last["reason"], last
    assert not any(line.get("what") == "coronation" for e in entries(tmp_path / "england" / "bh")
                   for line in e.get("log", []))


def test_hammer_peer_6_21_a_false_defecting_noble_convicts_the_scots_at_the_coronation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Crowning Bruce sends Galloway (a Comyn noble) to England; the Scots' noble index puts Galloway behind the
    handle that hides Fraser, so that Galloway would stay Scottish and Fraser would go. The coronation opens every
    defecting noble through the index, so the English client convicts the Scots at once (checked by mutation: a
    coronation that hands over only the nobles already seen lets the lie pass, Galloway staying Scottish)."""
    crowning(monkeypatch)
    lying(monkeypatch, "Galloway", "Fraser")
    last = convicted(one_turn(tmp_path, monkeypatch))
    assert "noble index puts Galloway behind" in last["reason"] and "which is Fraser" in last["reason"], last


def _dealt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], dict[str, Path]]:
    """A game dealt, the Scots holding a Herald: the public state of its first Game Turn."""
    rig_deal(monkeypatch, {"scotland": ["herald"]})
    dirs = play(tmp_path, {}, stop=lambda out: "game" in out.state and bool(out.state["game"]["hands"]["scotland"]))
    return peer.outcome(dirs["england"]).state, dirs


def _herald(public: dict[str, Any], facts: Facts) -> str:
    return next(c for c in public["game"]["hands"]["scotland"] if facts.get(c, "own") == "herald")


@pytest.mark.parametrize(("variant", "side", "candidate", "rule", "says"), [
    (False, "scotland", "Bruce", "6.21", "Wallace is not dead (6.21)"),
    (False, "scotland", "Balliol", "6.22", "King Balliol cannot return before 1301 (6.22)"),
    (True, "scotland", "Comyn", "6.21", "Comyn is not a Scottish block in Fife (6.21)"),
    (True, "scotland", "Wallace", "6.2", "there is no candidate 'Wallace'"),
])
def test_hammer_peer_6_2_a_coronation_the_rules_forbid_is_refused_with_its_rule(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: bool, side: str, candidate: str, rule: str,
        says: str) -> None:
    """The Scots' own client (its facts known) refuses, before the order binds, a coronation the rules forbid,
    in one sentence naming the rule; one that only the Scots' facts decide waits on the other client (the index is
    asked: ``NeedReveal``), and is checked when their reveal opens it."""
    if variant:
        crowning(monkeypatch)
    public, dirs = _dealt(tmp_path, monkeypatch)
    mine = Facts(peer.outcome(dirs["scotland"]).revealed, peer.outcome(dirs["scotland"]).owners,
                 peer.own_of(dirs["scotland"], "scotland"))
    order = {"card": _herald(public, mine), "event": {"coronation": candidate}}
    with pytest.raises(IllegalOrder) as got:
        HammerPeer().validate(public, side, order, mine)
    assert says in str(got.value) and got.value.rule == rule


def test_hammer_peer_6_21_the_other_client_waits_for_the_scots_facts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal coronation of Bruce: the Scots' client accepts it and lists what it reads (``opens``); the English
    client, seeing no Scottish fact yet, cannot tell and waits (the index of Bruce asked), it does not refuse."""
    crowning(monkeypatch)
    public, dirs = _dealt(tmp_path, monkeypatch)
    scots = peer.outcome(dirs["scotland"])
    mine = Facts(scots.revealed, scots.owners, peer.own_of(dirs["scotland"], "scotland"))
    order = {"card": _herald(public, mine), "event": {"coronation": "Bruce"}}
    HammerPeer().validate(public, "scotland", order, mine)
    english = peer.outcome(dirs["england"])
    with pytest.raises(NeedReveal) as asked:
        HammerPeer().validate(public, "scotland", order, Facts({**english.revealed, order["card"]: "herald"},
                                                              english.owners))  # the card opens with the order
    assert asked.value.label == "noble.scotland.Bruce"
    with resolving(Resolver.of(public, mine)):
        assert peer_events.coronations(GameState.from_dict(public["game"]), "scotland") == [{"coronation": "Bruce"}]


def balliol(monkeypatch: pytest.MonkeyPatch) -> None:
    """Braveheart from 1301 with the French Knights in Fife behind a Scottish handle (6.22's conditions met)."""
    scots = {a: tuple(bs) for a, bs in BRAVEHEART.scottish.items()}
    scots["Fife"] = (*scots["Fife"], "French Knights")
    monkeypatch.setitem(scenarios(), "braveheart", dataclasses.replace(
        BRAVEHEART, first_year=1301, scottish=scots, scottish_off_map=("King",)))


def test_hammer_peer_6_22_a_return_of_the_king_that_hides_the_french_knights_convicts_the_scots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Scottish client that announces Balliol's return but leaves the French Knights' handle out of what its reveal
    opens: the English client, every fact the reveal opened known, finds no French Knights shown on the map and
    convicts the Scots at once, naming 6.22 (checked by mutation: a refusal that trusts an unseen handle)."""
    balliol(monkeypatch)
    honest = peer_events.coronation_opens

    def hiding(state: Any, candidate: str, facts: Any) -> list[str]:
        return [label for label in honest(state, candidate, facts) if label.startswith("noble.")]

    monkeypatch.setattr(peer_events, "coronation_opens", hiding)
    last = convicted(one_turn(tmp_path, monkeypatch))
    assert "no block the Scots showed with the order is the French Knights on the map (6.22)" in last["reason"], last


def test_hammer_peer_6_22_balliol_returns_with_the_french_knights_their_handle_opened_with_the_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In 1301 with the French Knights in Fife behind a handle (a variant's set-up), the Scots announce the Return of
    the King: their reveal opens the French Knights' handle and the noble index and handle of Bruce (a Bruce noble,
    6.22 sends him to England), nothing else, no pause; the King deploys with the French Knights, Wallace alive. The
    refereed engine on the same true blocks writes the same coronation line."""
    balliol(monkeypatch)
    dirs = one_turn(tmp_path, monkeypatch)
    before, step, line = _crowned(dirs)
    assert (line["king"], line["area"], line["defectors"], line["rule"]) == ("Balliol", "Fife", ["Bruce"], "6.22")
    seen = step["state"]["seen"]
    french = next(h for h, n in seen.items() if n == "French Knights")
    bruce = next(h for h, n in seen.items() if n == "Bruce")
    assert {k for k in step["revealed"] if not k.startswith("card.")} == {french, "noble.scotland.Bruce", bruce}
    assert step["state"]["game"]["blocks"][bruce]["owner"] == "england"
    g = _named(before["state"], {**_own(dirs, "scotland"), **_own(dirs, "england")})
    ref = next(x for x in kings.crown(g, "Balliol", None, None) if x.what == "coronation").facts  # type: ignore[arg-type]
    assert {k: ref[k] for k in ("king", "area", "defectors", "rule")} == \
        {k: line[k] for k in ("king", "area", "defectors", "rule")}


def test_hammer_peer_6_21_a_defector_among_scots_fights_at_once_and_the_record_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Galloway stands in Fife with Bruce: crowned, Bruce sends him to England and he attacks the Scots in Fife at
    once (6.21: a normal battle), its blocks revealed as any battle's; both folders verify the record."""
    crowning(monkeypatch, galloway="Fife")
    dirs = one_turn(tmp_path, monkeypatch)
    record = entries(dirs["england"])
    assert not any(e["kind"] == "void" for e in record), record[-1]
    _, step = _step(record)
    assert any(line["what"] == "battle" and line.get("area") == "Fife" for line in step["log"]), step["log"]
    for s in ("england", "scotland"):
        assert any("verify ok" in line for line in peer.verify(dirs[s]))


def test_hammer_peer_6_21_a_game_with_a_coronation_verifies_and_audits_to_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The crowning variant played by the bots to the end: the final audit's replay, every fact known, reaches every
    public state the record holds, the coronation's among them (its reads take the same path with every fact)."""
    crowning(monkeypatch, galloway="Fife")
    rig_deal(monkeypatch, {"scotland": ["herald"]})
    dirs = play(tmp_path, {})
    record = audited(dirs)
    assert any(line["what"] == "coronation" for e in record if e["kind"] == "step" for line in e["log"])
