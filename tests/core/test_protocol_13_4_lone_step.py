"""A step only one side owes (docs/protocol.md §13.4, "A step with one side owing"): its order goes in the clear
with its chain link (``play``), and every other side answers with its link and what the step reads of its own
facts (``reveal``, no order): two exchanges, not a commit wave, a reveal wave and a reveal question. Played by
two folders with the tests' hidden duel and its raids (tests/support/hidden_duel.py, rule 8: north alone orders
every second round, south's first block on the field defends); each attack is a cheating side the record names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.hidden_duel import CARDS, STOCK
from test_protocol_13_10_hidden_facts import SIDES, Duel, entries, order

from pbem.core.errors import LedgerError
from pbem.core.peer import chain, message
from pbem.core.peer import folder as peer


def _to_raid(tmp: Path) -> Duel:
    """A duel of four rounds with raids, its first round played: north owes the raid of round 2 alone."""
    d = Duel(tmp, rounds=4, raids=True)
    d.start()
    d.round({s: order(s, f"hidden.{s}.1") for s in SIDES})
    assert peer.outcome(d.dirs["north"]).owes == {"north": "play"}
    return d


def _raid(d: Duel) -> message.Message:
    """North plays its raid (written by its own client), taken by south; the play as south holds it."""
    assert d.owed("north", order("north", "hidden.north.0")) == "play"
    return _held(d, "south", "0002-play-north.pbem")


def _held(d: Duel, side: str, name: str) -> message.Message:
    man = peer.manifest(d.dirs[side])
    return message.read((d.dirs[side] / "messages" / name).read_bytes(), name, man.game, man.keys)


def _link(d: Duel, side: str, use: int) -> str:
    secret = json.loads((d.dirs[side] / ".pbem" / f"peer-{side}" / "secrets.json").read_text())["chain"]
    return chain.link_at(bytes.fromhex(secret), 64, use).hex()


def _forged(d: Duel, side: str, phase: str, body: dict[str, Any], to: tuple[str, ...] = SIDES,
            step: int = 0) -> None:
    """A message of ``side`` for ``step`` (default: the next) written outside its client (what a modified client
    sends), taken by ``to``."""
    out = peer.outcome(d.dirs[side])
    step = step or len(out.entries)
    text = message.write(d.keys[side], d.dirs[side].name, side, step, peer.entry_hash(out.entries[step - 1]),
                         phase, d.clock, body)
    for s in to:
        peer.take(d.dirs[s], text.encode("ascii"), f"forged {phase}")


def _audited_to_the_end(d: Duel) -> None:
    """Every side attacks with its last block on the field until the end (a raid played by north alone); every
    folder's audit passes."""
    while True:
        out = peer.outcome(d.dirs["north"])
        if out.verdict or not out.owes:
            break
        for s in sorted(out.owes):
            d.owed(s, order(s, out.state["field"][s][-1]) if out.owes[s] in peer.ORDERED else None)
    for s in SIDES:
        assert "audit ok" in peer.audit(d.dirs[s])[-1]


def test_protocol_13_4_a_step_one_side_owes_is_its_play_then_the_others_reveal_with_what_the_step_reads(
        tmp_path: Path) -> None:
    """The raid: north's play (its order in the clear, its link, its raider opened), then south's reveal (no
    order, the play's hash, its link, and its defender opened: south knows the seed once its own link is
    chosen, so it runs the step and opens what it reads). No commit, no pause; the game ends audited."""
    d = _to_raid(tmp_path)
    play = _raid(d)
    assert play.body["order"] == order("north", "hidden.north.0") and [o["label"] for o in play.body["openings"]] \
        == ["hidden.north.0"]
    assert peer.outcome(d.dirs["south"]).owes == {"south": "reveal"}
    assert d.owed("south") == "reveal"
    reveal = _held(d, "north", "0002-reveal-south.pbem")
    assert reveal.body["opening"] is None and reveal.body["commits"] == [play.hash]
    assert [o["label"] for o in reveal.body["openings"]] == ["hidden.south.0"]
    step2 = sorted(p.name for p in (d.dirs["north"] / "messages").iterdir() if p.name.startswith("0002-"))
    assert step2 == ["0002-play-north.pbem", "0002-reveal-south.pbem"]
    kinds = [e["kind"] for e in entries(d.dirs["north"])]
    assert kinds == ["setup", "step", "step"]  # no pause: nothing the step read was left hidden
    raid = entries(d.dirs["north"])[-1]
    assert raid["orders"] == {"north": order("north", "hidden.north.0")}
    assert raid["log"][0]["fighters"] == {"north": "n1", "south": "s3"} and raid["log"][0]["winner"] == "south"
    _audited_to_the_end(d)  # round 3 (both), round 4 (north's raid), the end
    assert {p.name: p.read_bytes() for p in (d.dirs["north"] / "ledger").iterdir()} \
        == {p.name: p.read_bytes() for p in (d.dirs["south"] / "ledger").iterdir()}


def test_protocol_13_4_a_second_play_for_one_step_is_equivocation(tmp_path: Path) -> None:
    """North, having seen south's reveal (and so the dice), plays another raid for the same step: two signed
    plays for one slot convict it; nothing it sends changes an order once played."""
    d = _to_raid(tmp_path)
    play = _raid(d)
    d.owed("south")
    other = order("north", "hidden.north.1")
    _forged(d, "north", "play", {"order": other, "link": play.body["link"], "openings": []}, to=("south",), step=2)
    assert peer.outcome(d.dirs["south"]).verdict.startswith(
        "north cheated at step 2: it signed two different play messages for one step (equivocation")


def test_protocol_13_4_a_reveal_that_opens_an_order_in_a_step_it_owes_none_convicts(tmp_path: Path) -> None:
    """South answers the raid with an order of its own in its reveal (a modified client trying to act in north's
    step): convicted, with the play and the reveal as proof."""
    d = _to_raid(tmp_path)
    play = _raid(d)
    opening = {"label": "order.2", "salt": "00" * 32, "value": order("south", "hidden.south.0")}
    _forged(d, "south", "reveal", {"opening": opening, "commits": [play.hash], "link": _link(d, "south", 3)})
    out = peer.outcome(d.dirs["north"])
    assert out.verdict == "south cheated at step 2: its reveal opens an order in a step where north alone owes one " \
        "(protocol §13.4)"
    assert entries(d.dirs["north"])[-1]["proof"] == [play.hash, _held(d, "north", "0002-reveal-south.pbem").hash]


def test_protocol_13_4_a_reveal_answering_another_play_is_kept_and_not_used(tmp_path: Path) -> None:
    """A reveal that names another play than the one this record holds was made on another record (a fork):
    kept as evidence, not used; the step still waits for south's reveal of this play."""
    d = _to_raid(tmp_path)
    _raid(d)
    _forged(d, "south", "reveal", {"opening": None, "commits": ["ab" * 32], "link": _link(d, "south", 3)})
    out = peer.outcome(d.dirs["north"])
    assert not out.verdict and out.owes == {"south": "reveal"}
    assert [e["kind"] for e in entries(d.dirs["north"])] == ["setup", "step"]


def test_protocol_13_4_an_illegal_play_convicts_the_side_that_played_it(tmp_path: Path) -> None:
    """North plays a raid with a block of its pool (rule 2: only a block on the field attacks), past its own
    client's check: once south's reveal completes the step, the record convicts north with its play."""
    d = _to_raid(tmp_path)
    _forged(d, "north", "play", {"order": order("north", "hidden.north.2"), "link": _link(d, "north", 3)})
    assert d.owed("south") == "reveal"
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 2: its order breaks the rules: order from north: attack "
                                  "one of its blocks on the field")


def test_protocol_13_4_a_side_that_will_not_reveal_after_the_play_forfeits_after_the_deadline(
        tmp_path: Path) -> None:
    """South sees north's raid and never reveals (it would know the dice first): north's claim ends the game with
    south's forfeit once the deadline is past, counted from the play's clock, not from the round before."""
    d = _to_raid(tmp_path)
    d.clock += 20 * 3600  # north takes its time over the raid: the deadline counts from its play
    _raid(d)
    d.clock += 6 * 3600  # 26 hours after round 1, 6 after the play
    with pytest.raises(LedgerError, match="a forfeit may be claimed after the deadline"):
        d.owed("north")
    d.clock += 18 * 3600
    assert d.owed("north") == "claim"
    out = peer.outcome(d.dirs["south"])
    assert out.verdict == "south forfeited at step 2: no reveal before the deadline"
    assert entries(d.dirs["south"])[-1]["kind"] == "forfeit"


def test_protocol_13_13_a_resign_beside_its_own_play_convicts_the_signer(tmp_path: Path) -> None:
    """North plays its raid and, once south's reveal shows the dice, resigns the same step instead: a resign
    beside a play of the same step is two answers to one step."""
    d = _to_raid(tmp_path)
    play = _raid(d)
    _forged(d, "north", "resign", {})
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 2: it signed a resign and a play for one step")
    assert play.hash in entries(d.dirs["south"])[-1]["proof"]


def test_protocol_13_12_in_a_step_one_side_plays_the_answering_reveal_delivers_the_key_of_a_card_drawn(
        tmp_path: Path) -> None:
    """North wins round 1 and draws from the stock (rule 9); round 2 is its raid, which has no commits, so south's
    reveal delivers south's key for the card north drew (§13.12, §13.4); north reads the card and plays it in
    round 3; the game ends audited (the deal's keys checked)."""
    d = Duel(tmp_path, rounds=4, cards=True, raids=True, stock=True)
    d.start()
    d.round({s: order(s, f"hidden.{s}.1") for s in SIDES})
    assert peer.outcome(d.dirs["north"]).state["drawn"] == ["card.north.4"]
    _raid(d)
    assert d.owed("south") == "reveal"
    reveal = _held(d, "north", "0002-reveal-south.pbem")
    assert sorted(reveal.body["keys"]) == ["4"]
    out = peer.outcome(d.dirs["north"])
    mine = peer.own(d.dirs["north"], d.keys["north"], out)
    assert mine["card.north.4"] in {*CARDS, *STOCK} - {mine["card.north.0"], mine["card.north.1"]}
    d.round({"north": order("north", out.state["field"]["north"][-1], card="card.north.4"),
             "south": order("south", out.state["field"]["south"][-1])})
    assert "card.north.4" in entries(d.dirs["south"])[-1]["revealed"]
    _audited_to_the_end(d)


def test_protocol_13_12_an_answering_reveal_that_withholds_a_key_it_owes_convicts_its_side(tmp_path: Path) -> None:
    """South answers the raid without the key it owes for north's drawn card (north could never read it): convicted
    at once, with its reveal as proof."""
    d = Duel(tmp_path, rounds=4, cards=True, raids=True, stock=True)
    d.start()
    d.round({s: order(s, f"hidden.{s}.1") for s in SIDES})
    play = _raid(d)
    _forged(d, "south", "reveal", {"opening": None, "commits": [play.hash], "link": _link(d, "south", 3),
                                   "openings": []})
    assert peer.outcome(d.dirs["north"]).verdict == "south cheated at step 2: its reveal does not deliver its key " \
        "for exactly the cards the other sides drew since its last (protocol §13.12)"


def test_protocol_13_4_a_malformed_play_cannot_stop_the_other_side_from_answering(tmp_path: Path) -> None:
    """North plays a raid that is no order at all (a modified client trying to crash south's, so that south cannot
    answer and forfeits): south's client answers all the same, without running the order, and the record convicts
    north once the answer is in."""
    d = _to_raid(tmp_path)
    _forged(d, "north", "play", {"order": {"side": "north"}, "link": _link(d, "north", 3)})
    assert d.owed("south") == "reveal"
    assert _held(d, "north", "0002-reveal-south.pbem").body["openings"] == []
    assert peer.outcome(d.dirs["north"]).verdict.startswith("north cheated at step 2: its order breaks the rules: "
                                                            "order from north: expected side, attack")


def test_protocol_13_13_the_resign_verb_refuses_once_a_play_of_the_step_is_held(tmp_path: Path) -> None:
    """Once north's raid is played, neither side may resign that step (south has seen the order; north has bound
    itself): one sentence, and nothing written."""
    from pbem.core.peer import resigning

    d = _to_raid(tmp_path)
    _raid(d)
    for side in SIDES:
        before = sorted(p.name for p in (d.dirs[side] / "messages").iterdir())
        with pytest.raises(LedgerError, match="may resign only at the head of a step, before it commits to anything "
                                              "in it and before any reveal or play of the step"):
            resigning.write_resign(d.dirs[side], d.keys[side], d.clock)
        assert sorted(p.name for p in (d.dirs[side] / "messages").iterdir()) == before
