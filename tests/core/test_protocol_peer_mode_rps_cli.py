"""Peer mode (docs/protocol.md, "Peer mode: no referee"): the three-player rock-paper-scissors toy played
through the real CLI verbs with no referee key anywhere, one folder per side, and the attacks a cheating
player can try: abort after seeing the others' chain links, a reveal that does not open its commitment,
forked (equivocating) and replayed messages."""

from __future__ import annotations

import filecmp
import json
from pathlib import Path

from support.rps_peer_table import SEATS, THROWS, Table, run
from typer.testing import CliRunner

from pbem.core import identity
from pbem.core.peer import folder as peer
from pbem.core.peer import message

runner = CliRunner()


def test_peer_mode_rps_three_players_through_the_real_cli_verbs(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    assert "step 1: east owes commit, north owes commit, south owes commit" in run("status", t.dirs["east"])
    for _ in range(4):
        if "over" in run("status", t.dirs["north"]):
            break
        t.round()
    for s in SEATS:
        out = run("verify", t.dirs[s])
        assert "verify ok" in out and '"winner": "north"' in out
        assert "audit ok" in run("audit", t.dirs[s])
    cmp = filecmp.dircmp(t.dirs["north"], t.dirs["east"], ignore=[".pbem"])
    assert not cmp.left_only and not cmp.right_only and not cmp.diff_files
    for sub in ("ledger", "messages"):
        names = sorted(p.name for p in (t.dirs["north"] / sub).iterdir())
        assert names == sorted(p.name for p in (t.dirs["south"] / sub).iterdir())
        assert all((t.dirs["north"] / sub / n).read_bytes() == (t.dirs["south"] / sub / n).read_bytes() for n in names)
    assert not list(tmp_path.rglob("referee*"))  # no referee key anywhere


def test_peer_mode_verify_replays_and_refuses_an_altered_entry(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    t.round()
    entry = t.dirs["south"] / "ledger" / "0001.json"
    entry.write_bytes(entry.read_bytes().replace(b'"winner":"north"', b'"winner":"south"'))
    assert "0001.json is not the entry its messages compute" in run("verify", t.dirs["south"], ok=False)


def test_peer_mode_deadlines_a_side_that_aborts_after_seeing_the_links_forfeits(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    for s in SEATS:
        t.send(s, t.seal(s, THROWS[s]))
    for s in ("north", "south"):
        t.send(s, t.seal(s))
    # east now holds both links, knows the round's dice, and stops answering
    claim = t.seal("north")
    t.send("north", claim)
    for s in ("north", "south", "east"):
        out = run("verify", t.dirs[s])
        assert "east forfeited at step 1: no reveal before the deadline" in out
    last = json.loads((t.dirs["south"] / "ledger" / "0001.json").read_text())
    assert last["kind"] == "forfeit" and last["forfeit"] == ["east"] and last["claimant"] == "north"


def test_peer_mode_deadlines_no_claim_before_the_deadline(tmp_path: Path) -> None:
    t = Table(tmp_path, hours=48)
    t.committed(revealed=("north",))
    out = run("orders", "seal", tmp_path / "none.toml", "--game", t.dirs["north"], "--key", t.key("north"),
              "--out", tmp_path / "claim.asc", ok=False)
    assert "a forfeit may be claimed after the deadline (48 hours)" in out
    # a claim signed with a clock before the deadline convicts its signer
    man = peer.manifest(t.dirs["north"])
    prev = peer.entry_hash(peer.outcome(t.dirs["north"]).entries[-1])
    forged = message.write(identity.load_private(t.key("north")), man.game, "north", 1, prev, "claim", 1,
                           {"against": ["east", "south"]})
    (tmp_path / "forged.asc").write_text(forged, encoding="utf-8")
    run("game", "receive", t.dirs["south"], tmp_path / "forged.asc")
    assert "north cheated at step 1: it claimed a forfeit before the round's deadline" in run(
        "verify", t.dirs["south"])


def test_peer_mode_commit_reveal_a_reveal_that_does_not_open_its_commitment_names_the_cheater(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    for s in SEATS:
        t.send(s, t.seal(s, THROWS[s]))
    secrets = peer.private(t.dirs["east"], "east")  # east's client changes its mind after seeing nothing
    doc = json.loads(secrets.read_text())
    doc["openings"]["order.1"]["value"]["throw"] = "rock"
    secrets.write_text(json.dumps(doc))
    t.send("east", t.seal("east"))
    out = run("verify", t.dirs["north"])
    assert "east cheated at step 1: its reveal does not open its commitment 'order.1'" in out
    assert "east cheated at step 1" in run("audit", t.dirs["south"], ok=False)
    void = json.loads((t.dirs["north"] / "ledger" / "0001.json").read_text())
    assert void["kind"] == "void" and void["cheater"] == "east"
    proof = t.dirs["north"] / "proofs" / "0001-east.json"
    assert "east cheated at step 1" in peer.check_proof(proof, peer.manifest(t.dirs["south"]))


def test_peer_mode_messages_forked_commits_prove_equivocation(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    for s in ("north", "south"):
        t.send(s, t.seal(s, THROWS[s]))
    man = peer.manifest(t.dirs["east"])
    prev = peer.entry_hash(peer.outcome(t.dirs["east"]).entries[-1])
    me = identity.load_private(t.key("east"))
    for to, throw in (("north", "rock"), ("south", "paper")):  # a different commitment to each
        from pbem.core.peer import handles
        c, _ = handles.make("order.1", {"side": "east", "step": 0, "throw": throw})
        f = tmp_path / f"fork-{to}.asc"
        f.write_text(message.write(me, man.game, "east", 1, prev, "commit", 5, {"commitment": c}), encoding="utf-8")
        run("game", "receive", t.dirs[to], f)
    t.send("south", t.seal("south"), to=("north",))  # south reveals, on the commit it was sent
    assert "a side sent different messages to different players" in "\n".join(
        run("game", "receive", t.dirs["north"], tmp_path / f"m{t.n}.asc").splitlines())
    run("game", "receive", t.dirs["north"], tmp_path / "fork-south.asc")  # south relays what it holds
    out = run("verify", t.dirs["north"])
    assert "east cheated at step 1: it signed two different commit messages for one step (equivocation" in out
    proof = t.dirs["north"] / "proofs" / "0001-east.json"
    assert "equivocation" in peer.check_proof(proof, peer.manifest(t.dirs["south"]))


def test_peer_mode_messages_a_replayed_message_changes_nothing_and_another_games_is_refused(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    before = sorted(p.name for p in (t.dirs["north"] / "messages").iterdir())
    run("game", "receive", t.dirs["north"], tmp_path / "join-south.asc")  # the same message again
    assert sorted(p.name for p in (t.dirs["north"] / "messages").iterdir()) == before
    other = Table(tmp_path / "other", name="rps2")
    other.join_and_start()
    out = run("game", "receive", t.dirs["north"], tmp_path / "other" / "join-south.asc", ok=False)
    assert "is for game 'rps2', not 'rps'" in out
    assert sorted(p.name for p in (t.dirs["north"] / "messages").iterdir()) == before


def test_peer_mode_chains_a_link_that_does_not_follow_its_anchor_names_the_cheater(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    for s in SEATS:
        t.send(s, t.seal(s, THROWS[s]))
    secrets = peer.private(t.dirs["south"], "south")  # south would pick its link after seeing the others'
    doc = json.loads(secrets.read_text())
    doc["chain"] = "ab" * 32
    secrets.write_text(json.dumps(doc))
    t.send("south", t.seal("south"))
    assert "south cheated at step 1: its chain link does not hash to its previous link" in run("verify", t.dirs["east"])
    proof = t.dirs["east"] / "proofs" / "0001-south.json"
    assert "south cheated at step 1" in peer.check_proof(proof, peer.manifest(t.dirs["north"]))


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_protocol_13_2_bad_messages_are_refused_in_one_sentence_and_change_nothing(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    man = peer.manifest(t.dirs["north"])
    prev = peer.entry_hash(peer.outcome(t.dirs["north"]).entries[-1])
    east = identity.load_private(t.key("east"))
    cases = {
        "commitment": ("east", east, "commit", {"commitment": "xyz"}),
        "opening": ("east", east, "reveal", {"opening": "rock", "link": "00" * 32, "commits": []}),
        "commits": ("east", east, "reveal", {"opening": {"label": "order.1", "salt": "00" * 32, "value": 1},
                                             "link": "00" * 32, "commits": [3]}),
        "against": ("east", east, "claim", {"against": "north"}),
        "is signed by a key that is not": ("south", east, "commit", {"commitment": "00" * 32}),
        "a peer message is one of": ("east", east, "commit", {"commitment": "00" * 32, "extra": 1}),
    }
    before = _files(t.dirs["north"])
    for n, (expect, (side, key, phase, body)) in enumerate(cases.items()):
        f = tmp_path / f"bad{n}.asc"
        f.write_text(message.write(key, man.game, side, 1, prev, phase, 5, body), encoding="utf-8")
        out = run("game", "receive", t.dirs["north"], f, ok=False)
        assert out.startswith("error:") and expect in out and "§13" in out or "§4.5" in out, out
        assert "Traceback" not in out
    (tmp_path / "junk.asc").write_text("hello", encoding="utf-8")
    assert run("game", "receive", t.dirs["north"], tmp_path / "junk.asc", ok=False).startswith("error:")
    assert _files(t.dirs["north"]) == before


def test_protocol_13_1_sealing_without_or_with_a_spoiled_private_area_is_refused_in_one_sentence(
        tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    for s in SEATS:
        t.send(s, t.seal(s, THROWS[s]))
    secrets = peer.private(t.dirs["east"], "east")
    kept = secrets.read_bytes()
    secrets.write_text("{not json", encoding="utf-8")
    out = run("orders", "seal", tmp_path / "none.toml", "--game", t.dirs["east"], "--key", t.key("east"),
              "--out", tmp_path / "x.asc", ok=False)
    assert "is not this side's private peer secrets (protocol §13.1)" in out
    secrets.write_text('{"chain": "' + "00" * 32 + '"}', encoding="utf-8")
    out = run("orders", "seal", tmp_path / "none.toml", "--game", t.dirs["east"], "--key", t.key("east"),
              "--out", tmp_path / "x.asc", ok=False)
    assert "holds no the opening" not in out and "holds no the" not in out
    assert "opening of 'order.1' of east" in out
    secrets.write_bytes(kept)
    t.send("east", t.seal("east"))
    assert not (tmp_path / "x.asc").exists()


def test_protocol_13_5_a_claim_crossing_a_late_reveal_convicts_nobody(tmp_path: Path) -> None:
    """north claims against south and east while south's reveal is still in the post: south's own record,
    which holds that reveal, forfeits east alone and convicts nobody."""
    t = Table(tmp_path)
    t.join_and_start()
    for s in SEATS:
        t.send(s, t.seal(s, THROWS[s]))
    t.send("north", t.seal("north"))
    south_reveal = t.seal("south")  # not yet delivered to north
    claim = t.seal("north")
    t.send("north", claim)
    south = run("verify", t.dirs["south"])
    assert "east forfeited at step 1" in south and "cheated" not in south
    assert "east, south forfeited at step 1" in run("verify", t.dirs["north"])
    run("game", "receive", t.dirs["east"], south_reveal)
    assert "cheated" not in run("verify", t.dirs["east"])


def test_protocol_13_6_an_early_claim_proof_convicts_from_its_messages_alone(tmp_path: Path) -> None:
    t = Table(tmp_path, hours=48)
    t.committed(revealed=("north",))
    man = peer.manifest(t.dirs["north"])
    prev = peer.entry_hash(peer.outcome(t.dirs["north"]).entries[-1])
    early = message.write(identity.load_private(t.key("north")), man.game, "north", 1, prev, "claim", 10,
                          {"against": ["east"]})
    (tmp_path / "early.asc").write_text(early, encoding="utf-8")
    run("game", "receive", t.dirs["east"], tmp_path / "early.asc")
    proof = t.dirs["east"] / "proofs" / "0001-north.json"
    assert "north cheated at step 1: it claimed a forfeit before" in peer.check_proof(proof, man)
    doc = json.loads(proof.read_text())
    doc["messages"] = doc["messages"][:-1]
    proof.write_text(json.dumps(doc))
    import pytest

    from pbem.core.errors import LedgerError
    with pytest.raises(LedgerError, match="does not prove that north cheated at step 1"):
        peer.check_proof(proof, man)


def test_protocol_13_4_an_illegal_order_is_refused_at_seal_and_convicts_when_revealed(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.join_and_start()
    before = _files(t.dirs["east"])
    draft = tmp_path / "lizard.toml"
    draft.write_text('side = "east"\nstep = 0\nthrow = "lizard"\n', encoding="utf-8")
    out = run("orders", "seal", draft, "--game", t.dirs["east"], "--key", t.key("east"), "--out",
              tmp_path / "l.asc", ok=False)
    assert "throw 'lizard': choose one of paper, rock, scissors (RPS rule 1)" in out
    assert _files(t.dirs["east"]) == before and not (tmp_path / "l.asc").exists()
    for s in ("north", "south"):
        t.send(s, t.seal(s, THROWS[s]))
    # a patched client commits to the illegal throw anyway, and reveals it
    from pbem.core.peer import chain, handles
    man = peer.manifest(t.dirs["east"])
    east = identity.load_private(t.key("east"))
    prev = peer.entry_hash(peer.outcome(t.dirs["east"]).entries[-1])
    value = {"side": "east", "step": 0, "throw": "lizard"}
    c, o = handles.make("order.1", value)
    f = tmp_path / "c.asc"
    f.write_text(message.write(east, man.game, "east", 1, prev, "commit", 5, {"commitment": c}), encoding="utf-8")
    t.send("east", f)
    run("game", "receive", t.dirs["east"], f)
    commits = [m.hash for m in sorted(peer.messages(t.dirs["north"], man), key=lambda m: SEATS.index(m.side))
               if m.step == 1 and m.phase == "commit"]
    secret = bytes.fromhex(json.loads(peer.private(t.dirs["east"], "east").read_text())["chain"])
    link = chain.link_at(secret, man.chain_length, 2).hex()
    r = tmp_path / "r.asc"
    r.write_text(message.write(east, man.game, "east", 1, prev, "reveal", 6, {
        "opening": {"label": o.label, "salt": o.salt, "value": value}, "commits": commits, "link": link}),
        encoding="utf-8")
    t.send("east", r)
    out = run("verify", t.dirs["north"])
    assert "east cheated at step 1: its revealed order breaks the rules: throw 'lizard'" in out


def test_protocol_13_13_resign_in_a_three_seat_game_is_refused_in_one_sentence_and_writes_nothing(
        tmp_path: Path) -> None:
    """Resign ends a game of two seats only: with three, the other two would have no winner to agree on."""
    t = Table(tmp_path)
    t.join_and_start()
    before = {s: sorted(p.name for p in (t.dirs[s] / "messages").iterdir()) for s in SEATS}
    out = tmp_path / "resign.asc"
    said = run("game", "resign", t.dirs["north"], "--key", t.key("north"), "--out", out, ok=False)
    assert said.strip().count("\n") == 0 and "3 seats" in said and "protocol §13.13" in said, said
    assert not out.exists()
    assert {s: sorted(p.name for p in (t.dirs[s] / "messages").iterdir()) for s in SEATS} == before
