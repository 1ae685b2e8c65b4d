"""Event cards with no referee (3.12; docs/hammer-peer.md §3, protocol §13.10): each Event played in a peer game
between two folders to a record both verify and audit, revealing what the table shows and no more.

The deal is rigged (each side's shuffle pass is replaced by one that hands each side the cards the test names:
the deal's checks and the audit's replay of every pass still run), and so is the Herald's die where a test needs
the noble converted (events.HERALD_SUCCESS); everything else is the real record: handles, pauses, the final audit.
Two Events in one Game Turn end the year (3.12), so most games here are one Game Turn long."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_play import KEYS, SIDES, audited, entries, lines, opened, play, rig_deal

from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.rules import Facts
from pbem.hammer import peer_setup
from pbem.hammer.peer import HammerPeer
from pbem.hammer.rules import events, peer_events, peer_plans
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.board import board


def only_what_the_rules_reveal(dirs: dict[str, Path], record: list[dict[str, Any]]) -> None:
    """Non-interference (protocol §13.10): every block a side opened before the end is one a battle or an Event
    revealed in the log (5.1, 3.12), and every noble index or Pillage answer opened is one the rules asked."""
    shown = {b["block"] for e in record for line in e.get("log", []) if line["what"] == "reveal"
             for b in line["blocks"]}
    asked = {e["question"]["label"] for e in record if e["kind"] == "pause"}
    for side in SIDES:
        got = {label for label in opened(dirs["england"], side) if not peer_plans.is_plan(label)}
        assert {label for label in got if label.startswith("hidden.") and label.split(".")[2].isdigit()} <= shown
        assert {label for label in got if label.startswith("noble.") or peer_events.is_answer(label)} <= asked


def _any(params: dict[str, Any]) -> bool:
    return True


def test_hammer_peer_3_12_herald_converts_a_hidden_noble_his_owner_opens_which_handle_he_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """England's Herald names Bruce (hidden behind a Scottish handle); the die converts him (rigged to succeed).
    The record pauses with a reveal question to Scotland (3.12) and Scotland's one open carries its noble index of
    Bruce and Bruce's handle: he changes sides at full strength, seen; nothing else of Scotland opens. Scotland's
    Pillage in the same Game Turn ends the year (3.12); both records verify and audit."""
    monkeypatch.setattr(events, "HERALD_SUCCESS", 6)
    rig_deal(monkeypatch, {"england": ["herald"], "scotland": ["pillage"]})
    dirs = play(tmp_path, {"england": [(1, "herald", lambda p: p["noble"] == "Bruce")],
                           "scotland": [(1, "pillage", _any)]})
    record = audited(dirs)
    only_what_the_rules_reveal(dirs, record)
    herald = lines(record, "herald")
    assert herald and herald[0]["noble"] == "Bruce" and herald[0]["converted"] is True
    pauses = [e["question"] for e in record if e["kind"] == "pause"]
    assert {"owner": "scotland", "label": "noble.scotland.Bruce", "rule": events.HERALD_FOUND} in pauses
    game = next(e for e in record if e["kind"] == "step" and herald[0] in e["log"])["state"]
    handle = next(h for h, n in game["seen"].items() if n == "Bruce")
    bruce = game["game"]["blocks"][handle]
    assert bruce["owner"] == "england" and bruce["strength"] == 4  # his current strength: full (8.0)
    scots = opened(dirs["england"], "scotland")
    assert {"noble.scotland.Bruce", handle} <= scots
    assert not {label for label in scots if label.startswith("noble.")} - {"noble.scotland.Bruce"}


def test_hammer_peer_3_12_pillage_hits_the_group_by_its_owners_sealed_answer_and_shows_no_block(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """England pillages the Scots in Fife. Scotland's card order sealed its answer for each of its groups next to
    English ones (where the hits fall, as in combat, 5.41); the Pillage opens the Fife answer only (a pause to
    Scotland, one open): two steps lost by unseen handles, counted in public, and no Scottish block revealed, as
    at the table. At Game Turn 2 Scotland's Victuals gives steps back to those handles (their room is public)
    while England's Truce ends the year with two Events (3.12); both records verify and audit, and the final
    audit's replay finds each answer the rules'."""
    rig_deal(monkeypatch, {"england": ["pillage", "truce"], "scotland": ["victuals"]})
    dirs = play(tmp_path, {"england": [(1, "pillage", lambda p: p["target"] == "Fife"), (2, "truce", _any)],
                           "scotland": [(2, "victuals", lambda p: p["area"] == "Fife")]})
    record = audited(dirs)
    only_what_the_rules_reveal(dirs, record)
    pillage = lines(record, "pillage")
    assert pillage and pillage[0]["target"] == "Fife" and pillage[0]["hits"] == 2
    pauses = [e["question"] for e in record if e["kind"] == "pause"]
    label = peer_events.answer_label("scotland", record[0]["state"]["game"] | {"turn": 0}, "Fife")
    assert pauses[0] == {"owner": "scotland", "label": label, "rule": events.PILLAGE_ANSWER}
    fife = [h for h, b in record[0]["state"]["game"]["blocks"].items() if b["location"] == "Fife"]
    assert len(fife) == 3
    step = next(e for e in record if e["kind"] == "step" and pillage[0] in e["log"])
    assert not set(fife) & set(step["state"]["seen"])  # nothing shown
    assert sum(step["state"]["damage"].get(h, 0) for h in fife) == 2
    assert {k for k in step["revealed"] if not k.startswith("card.")} == {label}
    assert all(label.startswith("card.") for label in opened(dirs["scotland"], "england", step["entry"]))
    victuals = lines(record, "victuals")
    assert victuals and victuals[0]["area"] == "Fife" and victuals[0]["steps"] == 2
    after = next(e for e in record if e["kind"] == "step" and victuals[0] in e["log"])["state"]
    assert not any(after["damage"].get(h) for h in fife)


def test_hammer_peer_3_12_a_false_pillage_answer_is_caught_at_the_final_audit_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland's client seals a false answer for Fife (both hits on one block, where the rules put them on the two
    first by name: three tied at full strength, no plan). The Pillage applies it (nobody can tell yet), and the
    final audit, every fact known, finds the answer is not the rules': "scotland cheated at step N: ... its answer
    to a Pillage of its group in Fife ..." (protocol §13.10)."""
    rig_deal(monkeypatch, {"england": ["pillage"], "scotland": ["truce"]})
    honest = peer_events.seal_answers

    def lying(state: Any, side: str, decider: Any, hide: Any, game: Any) -> dict[str, str]:
        def lie(label: str, value: Any) -> str:
            if side == "scotland" and label.endswith("-Fife"):
                last = sorted(value["before"])[-1]
                value = {**value, "hits": [{"block": last, "out": ""}, {"block": last, "out": ""}]}
            return str(hide(label, value))
        return honest(state, side, decider, lie, game)

    monkeypatch.setattr(peer_events, "seal_answers", lying)
    dirs = play(tmp_path, {"england": [(1, "pillage", lambda p: p["target"] == "Fife")],
                           "scotland": [(1, "truce", _any)]})
    last = entries(dirs["england"])[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert "its answer to a Pillage of its group in Fife" in last["reason"] and "(3.12, 5.41)" in last["reason"]
    assert any("scotland cheated at step" in line for line in peer.verify(dirs["england"]))


def test_hammer_peer_3_12_a_false_pillage_answer_in_the_second_year_is_caught_at_the_final_audit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first winter (its handles sealed again, 7.6), England's Pillage in the second year's first Game
    Turn opens Scotland's sealed answer; Scotland's client sealed every answer of that year with no hit at all.
    The Pillage applies it (nobody can tell yet), and the final audit's replay, every fact known (the strengths
    the winter sealed among them), convicts Scotland naming the answer (3.12, 5.41)."""
    rig_deal(monkeypatch, {}, {"england": ["pillage"], "scotland": ["truce"]})
    honest = peer_events.seal_answers

    def lying(state: Any, side: str, decider: Any, hide: Any, game: Any) -> dict[str, str]:
        def lie(label: str, value: Any) -> str:
            return str(hide(label, {**value, "hits": []} if side == "scotland" and game["year"] > 1297 else value))
        return honest(state, side, decider, lie, game)

    monkeypatch.setattr(peer_events, "seal_answers", lying)
    dirs = play(tmp_path, {"england": [((1298, 1), "pillage", _any)], "scotland": [((1298, 1), "truce", _any)]})
    record = entries(dirs["england"])
    assert lines(record, "pillage") and record[-1]["kind"] == "void" and record[-1]["cheater"] == "scotland"
    assert "its answer to a Pillage of its group in" in record[-1]["reason"] and "(3.12, 5.41)" in record[-1]["reason"]


def test_hammer_peer_3_12_a_defector_among_enemies_fights_on_handles_and_a_sea_move_moves_handles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland's Herald converts Mentieth, who stands with English infantry in Mentieth: the battle is fought at
    once with him attacking (3.12), its blocks revealed by their owners (5.1). England's Sea Move moves two unseen
    handles by sea: they change area publicly and stay unseen (nothing opened). Both records verify and audit."""
    monkeypatch.setattr(events, "HERALD_SUCCESS", 6)
    rig_deal(monkeypatch, {"england": ["sea_move"], "scotland": ["herald"]})
    dirs = play(tmp_path, {"england": [(1, "sea_move", lambda p: len(p["blocks"]) == 2)],
                           "scotland": [(1, "herald", lambda p: p["noble"] == "Mentieth")]})
    record = audited(dirs)
    only_what_the_rules_reveal(dirs, record)
    sea = lines(record, "sea_move")
    assert sea and sea[0]["count"] == 2
    step = next(e for e in record if e["kind"] == "step" and sea[0] in e["log"])
    moved = step["orders"]["england"]["event"]["blocks"]
    assert all(step["state"]["game"]["blocks"][h]["location"] == sea[0]["to"] for h in moved)
    assert not set(moved) & set(step["state"]["seen"]) and not set(moved) & opened(dirs["england"], "england")
    assert any(line["what"] == "battle" and line.get("area") == "Mentieth" for line in step["log"])


def test_hammer_peer_3_12_a_false_noble_index_is_caught_when_the_herald_opens_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland commits at the start a noble index that puts Bruce behind Galloway's handle (so that a Herald on
    Bruce would take Galloway). When England's Herald converts Bruce, Scotland's open opens the index and the
    handle it names: the record's check of the facts convicts Scotland at once, naming it (protocol §13.10)."""
    monkeypatch.setattr(events, "HERALD_SUCCESS", 6)
    rig_deal(monkeypatch, {"england": ["herald"], "scotland": ["truce"]})
    honest = peer_setup.private_setup

    def lying(scenario_id: str, options: Any, side: str, rng: Any) -> dict[str, str]:
        facts = honest(scenario_id, options, side, rng)
        if side == "scotland":
            facts["noble.scotland.Bruce"], facts["noble.scotland.Galloway"] = \
                facts["noble.scotland.Galloway"], facts["noble.scotland.Bruce"]
        return facts

    monkeypatch.setattr(peer_setup, "private_setup", lying)
    honest_check = peer_setup.check_facts
    monkeypatch.setattr(peer_setup, "check_facts", lambda *a: None)  # the liar's client lets its own lie through
    dirs = play(tmp_path, {"england": [(1, "herald", lambda p: p["noble"] == "Bruce")],
                           "scotland": [(1, "truce", _any)]},
                stop=lambda out: bool(out.resume))
    monkeypatch.setattr(peer_setup, "check_facts", honest_check)
    out = peer.outcome(dirs["england"])
    assert out.resume and out.resume["question"]["label"] == "noble.scotland.Bruce"
    secrets = json.loads((dirs["scotland"] / ".pbem" / "peer-scotland" / "secrets.json").read_text())["openings"]
    named = secrets["noble.scotland.Bruce"]["value"]  # the liar's client opens its index and the handle it names
    monkeypatch.setattr(peer, "_openings", lambda *a: [secrets["noble.scotland.Bruce"], secrets[named]])
    peer.take(dirs["england"], peer.write_owed(dirs["scotland"], KEYS["scotland"], None, 1)[1].encode("ascii"),
              "scotland's open")
    last = entries(dirs["england"])[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert "noble index puts Bruce behind" in last["reason"]
    assert any("scotland cheated at step" in line for line in peer.verify(dirs["england"]))


def test_hammer_peer_4_7_a_sea_move_of_the_hidden_norse_waits_for_its_reveal_and_then_convicts() -> None:
    """The rule "the Norse never use the Sea Move card" (4.7) on an unseen handle: the other side's client accepts
    the order (the handle reads as no Norse: nothing is revealed by moving), the owner's own client refuses it,
    and with every fact known (the final audit's replay) it is refused, citing 4.7, which convicts its side."""
    rules = HammerPeer()
    public, handle = _norse_on_the_coast(rules)
    order = {"card": "card.scotland.5", "event": {"from": "Fife", "to": "Moray", "blocks": [handle]}}
    owners = {handle: "scotland", "card.scotland.5": "scotland"}
    revealed = {"card.scotland.5": "sea_move"}
    rules.validate(public, "scotland", order, Facts(revealed, owners))  # the other side: waits
    for facts in (Facts(revealed, owners, {handle: "Norse"}), Facts({**revealed, handle: "Norse"}, owners,
                                                                     everything=True)):
        with pytest.raises(PbemError, match=r"the Norse never use the Sea Move card \(4\.7\)"):
            rules.validate(public, "scotland", order, facts)


def test_hammer_peer_2_11_victuals_on_an_unseen_block_is_refused_it_stands_at_full_strength() -> None:
    """An unseen block on the map stands at full strength (8.0) before the first winter, so Victuals may not give it
    a step (2.11): every client refuses it alike, whatever the block, and nothing is revealed."""
    rules = HammerPeer()
    public, handle = _norse_on_the_coast(rules)
    order = {"card": "card.scotland.5", "event": {"area": "Fife", "steps": [handle]}}
    owners = {handle: "scotland", "card.scotland.5": "scotland"}
    with pytest.raises(PbemError, match=r"can take 0 more step\(s\), not 1 \(2\.11\)"):
        rules.validate(public, "scotland", order, Facts({"card.scotland.5": "victuals"}, owners))


def _event_in_the_second_year(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole_year: bool = True,
                              event: str = "victuals", wanted: Any = _any) -> list[dict[str, Any]]:
    """Scotland holds ``event`` in the second year and plays it at its first Game Turn in the first use its client
    finds that ``wanted`` takes (England a Truce); Scotland resigns after that year's winter (or, not
    ``whole_year``, at the next Game Turn), so the record ends in the final audit. England's record."""
    rig_deal(monkeypatch, {}, {"england": ["truce"], "scotland": [event]})
    dirs = play(tmp_path, {"england": [((1298, 1), "truce", _any)], "scotland": [((1298, 1), event, wanted)]},
                resign_at=None if whole_year else lambda out: out.state["game"]["year"] > 1297
                and out.state["game"]["turn"] >= 1)
    return entries(dirs["england"])


def test_hammer_peer_2_11_victuals_on_a_block_a_winter_sealed_below_its_maximum_is_taken_unseen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first winter every Scottish block stands behind a handle its builds sealed with its strength (7.6),
    which only Scotland knows. Scotland's client gives Victuals' steps to blocks below their maximum by its own
    facts (2.11): England's client takes the order on its word, nothing is opened, the handles' public count of
    steps goes below zero (steps gained), and the final audit's replay with every fact known finds the steps
    lawful: both records verify and audit."""
    record = _event_in_the_second_year(tmp_path, monkeypatch)
    assert record[-1]["kind"] != "void", record[-1]
    victuals = lines(record, "victuals")
    assert victuals and victuals[0]["steps"] >= 1
    step = next(e for e in record if e["kind"] == "step" and victuals[0] in e["log"])
    given = step["orders"]["scotland"]["event"]["steps"]
    assert all(h.startswith("hidden.scotland.") and h not in step["state"]["seen"] for h in given)
    assert {k for k in step["revealed"] if not k.startswith("card.")} == set()  # nothing shown
    assert all(step["state"]["damage"][h] == -given.count(h) for h in given)
    audited({s: tmp_path / s / "bh" for s in SIDES})


def test_hammer_peer_2_11_victuals_on_a_sealed_block_at_full_strength_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ATTACK (protocol §13.10): Scotland's client, its own check off, gives a Victuals step to a block its builds
    sealed at full strength. England's client cannot tell (the strength is Scotland's secret) and takes it; when
    the block opens (a battle, or the final audit's replay with every fact known) Scotland is convicted: "scotland
    cheated at step N: ... (2.11)"."""
    from pbem.hammer.rules import hidden

    honest = peer_events.uses

    def full(state: Any, side: str, card_id: str) -> list[dict[str, Any]]:
        if card_id != "victuals":
            return honest(state, side, card_id)
        return [{"area": b.location, "steps": [h]} for h, b in sorted(state.blocks.items())
                if b.owner == side and hidden.strength_sealed(state, h)
                and hidden.standing(h, "2.11") == spec(h).steps][:1]

    monkeypatch.setattr(peer_events, "uses", full)
    monkeypatch.setattr(peer, "_check_own", lambda *args: None)
    record = _event_in_the_second_year(tmp_path, monkeypatch, whole_year=False)
    assert lines(record, "victuals"), "Scotland played no Victuals"
    last = record[-1]
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert "(2.11)" in last["reason"], last["reason"]
    assert any("scotland cheated at step" in line for line in peer.verify(tmp_path / "england" / "bh"))


def test_hammer_peer_3_12_a_pillages_steps_go_to_blocks_a_winter_sealed_below_their_maximum(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first winter Scotland pillages, listing where the pillaged steps go (``steps_to``) among its blocks
    its builds sealed below their maximum, by its own facts (2.11): England's client gives them on its word, the
    steps gained are counted in public (``damage`` below zero) and nothing of the pillaging group is opened; the
    final audit's replay with every fact known finds them lawful: both records verify and audit."""
    record = _event_in_the_second_year(tmp_path, monkeypatch, event="pillage",
                                       wanted=lambda p: bool(p.get("steps_to")))
    assert record[-1]["kind"] != "void", record[-1]
    pillage = lines(record, "pillage")
    assert pillage and pillage[0]["gained"] >= 1, pillage
    step = next(e for e in record if e["kind"] == "step" and pillage[0] in e["log"])
    given = step["orders"]["scotland"]["event"]["steps_to"][:pillage[0]["gained"]]
    assert all(h.startswith("hidden.scotland.") and h not in step["state"]["seen"] for h in given)
    assert all(step["state"]["damage"][h] == -given.count(h) for h in given)
    audited({s: tmp_path / s / "bh" for s in SIDES})


def test_hammer_peer_2_11_a_pillages_steps_to_a_sealed_block_read_its_room_in_its_owners_client_alone() -> None:
    """A Pillage's ``steps_to`` naming a block whose strength a winter sealed (7.6): Scotland's client refuses it at
    full strength (the step would be lost, and nobody else could tell) and takes it a step below (2.11); England's
    client takes either, checked when the block opens."""
    public, handle = _norse_on_the_coast(HammerPeer())
    blocks = public["game"]["blocks"]
    src = blocks[handle]["location"]
    target = next(a for a in sorted(board().neighbours(src))
                  if any(b["location"] == a and b["owner"] == "england" for b in blocks.values()))
    _sealed_room_read_by_its_owner_alone(public, handle, "pillage", {"from": src, "target": target,
                                                                      "steps_to": [handle]},
                                         r"can take 0 more step\(s\), not 1: with no referee .* \(2\.11\)")


def test_hammer_peer_2_11_victuals_reads_a_sealed_strength_in_its_owners_client_alone() -> None:
    """A handle a winter's builds sealed (7.6) has the room its owner alone knows: Scotland's client, reading its own
    facts, refuses Victuals on it at full strength and takes it a step below (2.11); England's client, which cannot
    tell, takes either (the rule is checked when the block opens, or at the final audit)."""
    public, handle = _norse_on_the_coast(HammerPeer())
    _sealed_room_read_by_its_owner_alone(public, handle, "victuals", {"area": "Fife", "steps": [handle]},
                                         r"can take 0 more step\(s\), not 1 \(2\.11\)")


def _sealed_room_read_by_its_owner_alone(public: dict[str, Any], handle: str, event: str, params: dict[str, Any],
                                         refused: str) -> None:
    """With ``handle`` sealed by a winter's builds, Scotland's Event ``params`` giving it a step: refused by
    Scotland's client when it hides Etterick at full strength (``refused``), taken a step below, and taken by a
    client without Scotland's facts."""
    area = public["game"]["blocks"][handle]["location"]
    public["builds"] = {"scotland": {"year": 1297, "nobles": 0, "before": {}, "rps": {}, "handles": {handle: area}}}
    order = {"card": "card.scotland.5", "event": params}
    owners = {handle: "scotland", "card.scotland.5": "scotland"}
    cards = {"card.scotland.5": event}
    full = spec("Etterick").steps
    with pytest.raises(PbemError, match=refused):
        HammerPeer().validate(public, "scotland", order,
                              Facts(cards, owners, {handle: {"block": "Etterick", "strength": full}}))
    HammerPeer().validate(public, "scotland", order,
                          Facts(cards, owners, {handle: {"block": "Etterick", "strength": full - 1}}))
    HammerPeer().validate(public, "scotland", order, Facts(cards, owners))


def test_hammer_peer_2_11_a_block_victuals_raised_beyond_its_maximum_is_convicted_as_it_opens() -> None:
    """Victuals' steps on a sealed handle are counted in public (its ``damage`` below zero): the handle opening at a
    strength that, with them, passes its maximum convicts its side at once (2.11, peer_reveal)."""
    from pbem.core.peer.rules import FactLie
    from pbem.hammer.peer_reveal import check_opened

    public = {"game": {"blocks": {"hidden.scotland.40": {"owner": "scotland", "location": "Fife", "strength": 0}}},
              "seen": {}, "damage": {"hidden.scotland.40": -1}}
    below = {"hidden.scotland.40": {"block": "Etterick", "strength": spec("Etterick").steps - 1}}
    check_opened(public, "scotland", below, below)
    full = {"hidden.scotland.40": {"block": "Etterick", "strength": spec("Etterick").steps}}
    with pytest.raises(FactLie, match=r"hides Etterick at strength 2, to which its Events gave 1 step\(s\) more than "
                                      r"it had lost, beyond its 2 \(2\.11\)"):
        check_opened(public, "scotland", full, full)


def _norse_on_the_coast(rules: HammerPeer) -> tuple[dict[str, Any], str]:
    """A public state (Braveheart's set-up, the cards dealt) whose Scottish handle in Fife hides, in this test, the
    Norse (the scenario never puts him there: the rule is what is tested), Scotland holding card.scotland.5."""
    from pbem.core.drbg import Drbg

    public = rules.dealt(rules.public_setup("braveheart", {}, Drbg(b"\x01" * 32)),
                         {"england": [f"card.england.{j}" for j in range(5)],
                          "scotland": [f"card.scotland.{j}" for j in range(5, 10)]})
    handle = sorted(h for h, b in public["game"]["blocks"].items()
                                       if b["location"] == "Fife" and b["owner"] == "scotland")[0]
    return public, handle


def test_hammer_peer_3_12_an_event_the_other_sides_event_made_illegal_is_passed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """England's Event resolves first (3.12): its Sea Move takes Angus's only block away, so the Scottish Pillage of
    Angus sent with Scotland's card has no target left. With no referee nobody is asked again (that would cost an
    exchange): the Pillage is passed, said in the public log, and both records verify and audit."""
    rig_deal(monkeypatch, {"england": ["sea_move"], "scotland": ["pillage"]})
    dirs = play(tmp_path, {"england": [(1, "sea_move", lambda p: p["from"] == "Angus" and p["to"] == "Buchan")],
                           "scotland": [(1, "pillage", lambda p: p["target"] == "Angus")]})
    record = audited(dirs)
    only_what_the_rules_reveal(dirs, record)
    step = next(e for e in record if e["kind"] == "step" and lines([e], "sea_move"))
    assert step["orders"]["scotland"]["event"]["target"] == "Angus"
    assert lines([step], "pillage") == [{**lines([step], "pillage")[0], "passed": True}]
    winter = next(i for i, e in enumerate(record) if e.get("state", {}).get("game", {}).get("phase") == "winter")
    assert not [e for e in record[:winter] if e["kind"] == "pause"]  # nothing asked: nothing of Angus's group shown
