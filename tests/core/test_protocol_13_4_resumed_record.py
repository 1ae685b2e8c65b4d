"""A client computes each new entry on from the last one (pbem/core/peer/marks.py), never from entry 0 again;
the record it gets must be, byte for byte, the one computed from the first message (docs/protocol.md §13.4:
every entry is a pure function of the previous entry and the messages of its round). What a process keeps
can never change a result: verify and audit read every file again and compute from the first message."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_protocol_13_10_hidden_facts import SIDES, Duel, order

from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer import hidden_record, marks, message, record


def _same(a: record.Outcome, b: record.Outcome) -> None:
    assert a.entries == b.entries
    assert (a.state, a.owes, a.verdict, a.revealed, a.owners, a.resume) == \
        (b.state, b.owes, b.verdict, b.revealed, b.owners, b.resume)
    assert [(d.step, d.keys, d.positions) for d in a.deals] == [(d.step, d.keys, d.positions) for d in b.deals]


def _game(tmp_path: Path) -> Duel:
    """A whole duel with a deal, a deal mid-game, cards played and raids (steps one side plays, §13.4)."""
    d = Duel(tmp_path, rounds=4, cards=True, redeal=1, raids=True)
    d.start()
    d.round({"north": order("north", "hidden.north.0", card="card.north.0"), "south": order("south", "hidden.south.0")})
    d.play_out()
    return d


def test_protocol_13_4_the_record_computed_on_from_the_last_entry_is_the_one_computed_from_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Message after message, in the order they were sent, the record resumed from this process's marks
    equals the record computed from nothing; and it did resume (the set-up is not computed again)."""
    d = _game(tmp_path)
    man = peer.manifest(d.dirs["north"])
    sent = [message.read(t, "sent", man.game, man.keys) for t in d.sent]
    record._COMPUTED.clear()
    marks.forget()
    from_setup = []
    real = hidden_record.compute_hidden
    monkeypatch.setattr(hidden_record, "compute_hidden", lambda *a: from_setup.append(1) or real(*a))
    entries_seen = 0
    for n in range(1, len(sent) + 1):
        fresh = record.compute(man, sent[:n], fresh=True)
        calls = len(from_setup)
        resumed = record.compute(man, sent[:n])
        _same(resumed, fresh)
        if entries_seen > 1:  # the set-up is written: every later message resumes from a mark
            assert len(from_setup) == calls, f"message {n} computed the record from the set-up again"
        entries_seen = len(fresh.entries)
    kinds = [json.loads(e)["kind"] for e in fresh.entries]
    assert {"setup", "deal", "step", "end"} <= set(kinds) and fresh.verdict == "" and not fresh.owes
    assert any(m.phase == "play" for m in sent)


def test_protocol_13_4_a_message_of_an_earlier_step_taken_late_is_not_resumed_past(tmp_path: Path) -> None:
    """A second, different commit of north for step 1, taken after the game went on: the record resumed from
    a later mark would never look at step 1 again; the resumed record is the void the first message gives."""
    d = Duel(tmp_path)
    d.start()
    for _ in range(2):
        state = d.state()
        d.round({s: order(s, state["field"][s][0]) for s in SIDES})
    man = peer.manifest(d.dirs["north"])
    first = peer.entry_hash(peer.outcome(d.dirs["north"]).entries[0])
    other = message.write(d.keys["north"], man.game, "north", 1, first, "claim", d.clock, {"against": ["south"]})
    peer.take(d.dirs["south"], other.encode("ascii"), "a late claim of step 1")
    held = peer.messages(d.dirs["south"], man)
    _same(record.compute(man, held), record.compute(man, held, fresh=True))
    fork = message.write(d.keys["north"], man.game, "north", 1, "", "commit", d.clock + 5, {"commitment": "%064x" % 7})
    peer.take(d.dirs["south"], fork.encode("ascii"), "a second commit of step 1")
    held = peer.messages(d.dirs["south"], man)
    out = record.compute(man, held)
    _same(out, record.compute(man, held, fresh=True))
    assert out.verdict.startswith("north cheated at step 1: it signed two different commit messages")


def test_protocol_13_4_verify_reads_every_message_again_whatever_this_process_kept(tmp_path: Path) -> None:
    """A message file changed in place, same size, its write time put back: this process's stamp of the file
    is unchanged, yet verify reads the file again and refuses it."""
    d = Duel(tmp_path)
    d.start()
    state = d.state()
    d.round({s: order(s, state["field"][s][0]) for s in SIDES})
    assert peer.verify(d.dirs["north"])[0].startswith("verify ok")
    path = sorted((d.dirs["north"] / "messages").glob("0001-reveal-south.pbem"))[0]
    st = os.stat(path)
    data = bytearray(path.read_bytes())
    i = data.index(b"\n-----END") - 12  # a character of the signature
    data[i] = ord("A") if data[i] != ord("A") else ord("B")
    with open(path, "r+b") as f:  # in place: the same inode
        f.write(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert peer.outcome(d.dirs["north"]).entries  # what this process kept still computes
    with pytest.raises(PbemError):
        peer.verify(d.dirs["north"])
