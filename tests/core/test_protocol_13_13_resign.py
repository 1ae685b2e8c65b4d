"""Resign (docs/protocol.md §13.13): a side of a two-seat peer game gives up at the head of a step; the
record ends with the other side the winner after the FINAL AUDIT (every handle opened, every step
replayed with every fact known), so a side that lied before resigning is still convicted. Played with
the tests' hidden duel (tests/support/hidden_duel.py), two folders, every message taken by both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_protocol_13_10_hidden_facts import SIDES, Duel, _commit_raw, entries, order

from pbem.core.errors import LedgerError, SignatureError
from pbem.core.peer import folder as peer
from pbem.core.peer import message, resigning


def _resign(d: Duel, side: str) -> None:
    d.deliver(side, resigning.write_resign(d.dirs[side], d.keys[side], clock=d.clock))


def test_protocol_13_13_a_resign_at_the_head_of_a_step_ends_the_game_after_the_final_audit(tmp_path: Path) -> None:
    d = Duel(tmp_path, rounds=3)
    d.start()
    d.round({s: order(s, f"hidden.{s}.0") for s in SIDES})
    _resign(d, "south")
    assert peer.outcome(d.dirs["north"]).owes == {"north": "final", "south": "final"}
    for s in SIDES:
        assert d.owed(s) == "final"
    for s in SIDES:
        end = entries(d.dirs[s])[-1]
        assert end["kind"] == "end" and end["audit"] == "ok"
        assert end["result"] == {"winner": "north", "resigned": "south", "step": 2}
        lines = peer.audit(d.dirs[s])
        assert "south resigned at step 2; north wins" in "\n".join(lines)
    assert entries(d.dirs["north"]) == entries(d.dirs["south"])


def test_protocol_13_13_a_side_that_lied_before_resigning_is_still_convicted(tmp_path: Path) -> None:
    """North rests n4 (rule 4 forbids it), a lie only the final audit sees, then resigns: the audit convicts it."""
    d = Duel(tmp_path, rounds=3)
    d.start()
    d.owed("south", order("south", "hidden.south.0"))
    _commit_raw(d, "north", order("north", "hidden.north.0", rest="hidden.north.1"))
    for s in SIDES:
        d.owed(s)
    _resign(d, "north")
    for s in SIDES:
        d.owed(s)
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 1: its order broke a rule its hidden facts decide")
    with pytest.raises(LedgerError, match="north cheated at step 1"):
        peer.audit(d.dirs["south"])


def test_protocol_13_13_resign_is_refused_once_the_side_has_committed_in_the_step(tmp_path: Path) -> None:
    d = Duel(tmp_path, rounds=3)
    d.start()
    d.owed("north", order("north", "hidden.north.0"))
    before = sorted(p.name for p in (d.dirs["north"] / "messages").iterdir())
    with pytest.raises(LedgerError, match=r"only at the head of a step.*protocol §13\.13"):
        resigning.write_resign(d.dirs["north"], d.keys["north"], clock=d.clock)
    assert sorted(p.name for p in (d.dirs["north"] / "messages").iterdir()) == before


def test_protocol_13_13_a_resign_beside_a_commit_of_the_same_step_convicts_its_signer(tmp_path: Path) -> None:
    """A fork: north commits, then signs a resign for the same step (through the message writer)."""
    d = Duel(tmp_path, rounds=3)
    d.start()
    d.owed("north", order("north", "hidden.north.0"))
    out = peer.outcome(d.dirs["north"])
    text = message.write(d.keys["north"], d.dirs["north"].name, "north", len(out.entries),
                         peer.entry_hash(out.entries[-1]), "resign", d.clock, {})
    d.deliver("north", text)
    verdict = peer.outcome(d.dirs["south"]).verdict
    assert verdict.startswith("north cheated at step 1: it signed a resign and a commit for one step"), verdict


def test_protocol_13_13_a_resign_signed_by_the_other_sides_key_is_refused(tmp_path: Path) -> None:
    d = Duel(tmp_path, rounds=3)
    d.start()
    out = peer.outcome(d.dirs["north"])
    forged = message.write(d.keys["south"], d.dirs["north"].name, "north", len(out.entries),
                           peer.entry_hash(out.entries[-1]), "resign", d.clock, {})
    with pytest.raises(SignatureError, match="not north.s"):
        peer.take(d.dirs["south"], forged.encode("ascii"), "a forged resign")
    assert not peer.outcome(d.dirs["south"]).verdict


def test_protocol_13_13_the_same_resign_twice_changes_nothing(tmp_path: Path) -> None:
    d = Duel(tmp_path, rounds=3)
    d.start()
    _resign(d, "south")
    first = peer.outcome(d.dirs["north"])
    peer.take(d.dirs["north"], d.sent[-1].encode("ascii"), "the resign again")
    again = peer.outcome(d.dirs["north"])
    assert again.entries == first.entries and again.owes == first.owes == {"north": "final", "south": "final"}
    assert json.loads(first.entries[-1])["kind"] != "end"


def test_protocol_13_13_resign_through_the_real_cli_verbs(tmp_path: Path) -> None:
    """``game resign`` after one whole step, then ``orders seal`` writes each final; verify and audit say who won."""
    import shutil

    from support.peer_cli import key_files, run

    k = key_files(tmp_path / "keys", SIDES)
    dirs = {s: tmp_path / s / "duel" for s in SIDES}
    run("game", "open", dirs["north"], "--ruleset", "duel", "--option", "rounds=3", "--no-referee",
        *[a for s in SIDES for a in ("--side", f"{s}={k / (s + '.pub.toml')}")])
    dirs["south"].mkdir(parents=True)
    shutil.copy(dirs["north"] / "game.toml", dirs["south"] / "game.toml")
    n = 0

    def send(side: str, *verb: str | Path) -> None:
        nonlocal n
        n += 1
        out = tmp_path / f"m{n}.asc"
        run(*verb, "--key", k / f"{side}.key", "--out", out)
        run("game", "receive", dirs["south" if side == "north" else "north"], out)

    for s in SIDES:
        send(s, "game", "join", dirs[s], "--side", s)
    for _ in range(20):
        status = run("status", dirs["north"])
        ledger = sorted((dirs["north"] / "ledger").glob("*.json"))
        if "owes commit" in status and len(ledger) >= 2:
            break  # one whole step played: the head of step 2
        state = json.loads(ledger[-1].read_text())["state"] if ledger else {}
        for s in SIDES:
            if f"{s} owes commit" in status:
                (tmp_path / "d.toml").write_text(f'side = "{s}"\nattack = "{state["field"][s][0]}"\n')
                send(s, "orders", "seal", tmp_path / "d.toml", "--game", dirs[s])
            elif f"{s} owes" in status:
                send(s, "orders", "seal", tmp_path / "none.toml", "--game", dirs[s])
    send("south", "game", "resign", dirs["south"])
    for s in SIDES:
        send(s, "orders", "seal", tmp_path / "none.toml", "--game", dirs[s])
    for s in SIDES:
        assert "south resigned at step" in run("verify", dirs[s])
        assert "audit ok" in run("audit", dirs[s])
    last = json.loads(sorted((dirs["south"] / "ledger").iterdir())[-1].read_text())
    assert last["kind"] == "end" and last["result"]["winner"] == "north"
