"""Peer mode with hidden facts (docs/protocol.md §13.10): the record's entries hold only the public state,
hidden blocks are handles, a battle reveals its blocks (sent ahead with the orders, or asked for by a
reveal question that pauses the record), and the end opens every handle and replays the whole game
with every fact known. Played by two folders with the tests' hidden duel (tests/support/hidden_duel.py);
each attack is a cheating side the record names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.core import identity
from pbem.core import ruleset as rs
from pbem.core.errors import LedgerError
from pbem.core.peer import chain, handles, message
from pbem.core.peer import folder as peer

rs.register("duel", "support.hidden_duel:DuelRuleset")
SIDES = ("north", "south")
NORTH = {"hidden.north.0": "n1", "hidden.north.1": "n4", "hidden.north.2": "n2", "hidden.north.3": "n3"}
SOUTH = {"hidden.south.0": "s3", "hidden.south.1": "s2", "hidden.south.2": "s4", "hidden.south.3": "s1"}


class Duel:
    """Two players, one folder each; every message a side writes is taken by the other (as ``game receive``)."""

    def __init__(self, tmp: Path, facts: dict[str, dict[str, str]] | None = None, rounds: int = 3,
                 cards: bool = False, redeal: int = 0, raids: bool = False, stock: bool = False) -> None:
        self.keys = {s: identity.generate(s) for s in SIDES}
        self.dirs = {s: tmp / s / "duel" for s in SIDES}
        self.facts = facts or {"north": NORTH, "south": SOUTH}
        peer.open_game(self.dirs["north"], "duel", "standard", {"rounds": rounds, "cards": cards, "redeal": redeal,
                                                               **({"raids": True} if raids else {}),
                                                               **({"stock": True} if stock else {})},
                       {s: k.public for s, k in self.keys.items()}, 24, length=64)
        self.dirs["south"].mkdir(parents=True)
        (self.dirs["south"] / "game.toml").write_bytes((self.dirs["north"] / "game.toml").read_bytes())
        self.clock = 1_000
        self.sent: list[str] = []

    def deliver(self, side: str, text: str) -> None:
        self.sent.append(text)
        for s in SIDES:
            if s != side:
                peer.take(self.dirs[s], text.encode("ascii"), f"message of {side}")

    def start(self) -> None:
        for s in SIDES:
            self.deliver(s, peer.write_join(self.dirs[s], self.keys[s], s, clock=self.clock))
        for s in SIDES:
            self.deliver(s, peer.write_owed(self.dirs[s], self.keys[s], None, self.clock, facts=self.facts[s])[1])
        while set(peer.outcome(self.dirs["north"]).owes.values()) & {"shuffle", "lock", "keys"}:
            for s in sorted(peer.outcome(self.dirs["north"]).owes):
                self.owed(s)

    def owed(self, side: str, order: Any = None) -> str:
        what, text = peer.write_owed(self.dirs[side], self.keys[side], order, self.clock)
        self.deliver(side, text)
        return what

    def state(self, side: str = "north") -> dict[str, Any]:
        return peer.outcome(self.dirs[side]).state

    def round(self, orders: dict[str, dict[str, Any]]) -> None:
        for s in SIDES:
            assert self.owed(s, orders[s]) == "commit"
        for s in SIDES:
            assert self.owed(s) == "reveal"

    def play_out(self) -> None:
        """Both sides attack with their first block on the field until the end, then open everything."""
        while True:
            out = peer.outcome(self.dirs["north"])
            if out.verdict or not out.owes:
                return
            owes = out.owes
            if set(owes.values()) == {"commit"}:
                self.round({s: order(s, out.state["field"][s][0]) for s in SIDES})
            else:  # a deal, a pause, the end; or a step one side plays (a raid, §13.4), then the other's reveal
                for s in sorted(owes):
                    self.owed(s, order(s, out.state["field"][s][0]) if owes[s] == "play" else None)


def order(side: str, attack: str, charge: bool = False, rest: str = "", card: str = "") -> dict[str, Any]:
    return {"side": side, "attack": attack, "charge": charge, "rest": rest, "card": card}


def entries(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_bytes()) for p in sorted((folder / "ledger").iterdir())]


def test_protocol_13_10_a_whole_hidden_game_ends_with_verify_and_audit_ok_and_identical_records(tmp_path: Path) -> None:
    d = Duel(tmp_path)
    d.start()
    d.play_out()
    for s in SIDES:
        assert peer.verify(d.dirs[s])[0].startswith("verify ok")
        assert peer.audit(d.dirs[s])[-1].startswith("audit ok")
    kinds = [e["kind"] for e in entries(d.dirs["north"])]
    assert kinds[0] == "setup" and kinds[-1] == "end" and "step" in kinds
    for sub in ("ledger", "messages"):
        names = sorted(p.name for p in (d.dirs["north"] / sub).iterdir())
        assert names == sorted(p.name for p in (d.dirs["south"] / sub).iterdir())
        for n in names:
            assert (d.dirs["north"] / sub / n).read_bytes() == (d.dirs["south"] / sub / n).read_bytes()
    # the first battle: north's n1 (handle 0) against south's s3: south wins, north's handle 0 dies
    first = next(e for e in entries(d.dirs["north"]) if e["kind"] == "step")
    assert first["log"][0]["fighters"] == {"north": "n1", "south": "s3"} and first["log"][0]["winner"] == "south"
    assert first["revealed"] == {"hidden.north.0": "n1", "hidden.south.0": "s3"}


def test_protocol_13_10_entries_hold_only_public_facts_until_the_rules_reveal_them(tmp_path: Path) -> None:
    d = Duel(tmp_path)
    d.start()
    d.round({"north": order("north", "hidden.north.0"), "south": order("south", "hidden.south.0")})
    text = b"".join(p.read_bytes() for p in sorted((d.dirs["south"] / "ledger").iterdir()))
    text += b"".join(p.read_bytes() for p in sorted((d.dirs["south"] / "messages").iterdir()))
    for label, block in NORTH.items():  # n1 fought; n4, n2, n3 are nowhere in south's record
        assert (f'"{block}"'.encode() in text) == (label == "hidden.north.0")


def _masked(folder: Path) -> list[Any]:
    """The record's content with what differs between two games by chance alone masked: handles and salts
    (a handle is hiding: HMAC-SHA256 keyed by a secret 32-byte salt), keys and what hashes or signs them."""
    out: list[Any] = []
    for p in sorted((folder / "ledger").iterdir()):
        e = json.loads(p.read_bytes())
        out.append({k: v for k, v in e.items() if k not in ("prev", "messages", "handles")})
    keys = peer.manifest(folder).keys
    for p in sorted((folder / "messages").iterdir()):
        body = message.read(p.read_bytes(), str(p), folder.name, keys).body
        body = {k: v for k, v in body.items() if k not in ("handles", "commits", "commitment", "manifest")}
        for k in ("opening", "openings"):
            if k in body:
                body[k] = [[o["label"], o["value"]] for o in (body[k] if k == "openings" else [body[k]])]
        out.append(body)
    return out


def _waves(d: Duel) -> Iterator[None]:
    """The standard game (each side attacks with its first block on the field), one wave of messages at
    a time: the set-up, then each round's commits, its reveals, and the finals."""
    d.start()
    yield
    while True:
        out = peer.outcome(d.dirs["north"])
        if out.verdict or not out.owes:
            return
        for s in sorted(out.owes):
            d.owed(s, order(s, out.state["field"][s][0]) if out.owes[s] in peer.ORDERED else None)
        yield


VARIANTS = {"north": {"hidden.north.0": "n1", "hidden.north.1": "n3", "hidden.north.2": "n4", "hidden.north.3": "n2"},
            "south": {"hidden.south.0": "s3", "hidden.south.1": "s4", "hidden.south.2": "s1", "hidden.south.3": "s2"}}


@pytest.mark.parametrize("hider", SIDES)
def test_protocol_13_10_noninterference_one_sides_hidden_facts_change_nothing_the_other_holds_until_revealed(
        tmp_path: Path, hider: str) -> None:
    """Two games that differ only in ``hider``'s hidden blocks (the same first fighter), played alike with
    the same chain secrets: after every wave of messages the other side's folder is the same in both,
    apart from handles, salts and keys, until a fact that differs is revealed; and its private area never
    holds one of ``hider``'s facts."""
    watcher = "south" if hider == "north" else "north"
    base = {"north": NORTH, "south": SOUTH}
    duels = []
    for n, facts in enumerate((base, {**base, hider: VARIANTS[hider]})):
        d = Duel(tmp_path / str(n), facts)
        for i, s in enumerate(SIDES):  # the same chain secrets in both games: the same seeds, the same dice
            area = d.dirs[s] / ".pbem" / f"peer-{s}"
            area.mkdir(parents=True)
            (area / "secrets.json").write_text(json.dumps({"chain": (bytes([i + 1]) * 32).hex()}))
        duels.append(d)
    compared = 0
    for _ in zip(_waves(duels[0]), _waves(duels[1])):
        shown = [{k: v for k, v in peer.outcome(d.dirs[watcher]).revealed.items() if k.startswith(f"hidden.{hider}")}
                 for d in duels]
        if shown[0] != shown[1]:
            break
        assert _masked(duels[0].dirs[watcher]) == _masked(duels[1].dirs[watcher])
        compared += 1
        for d in duels:
            private = (d.dirs[watcher] / ".pbem" / f"peer-{watcher}" / "secrets.json").read_text()
            unrevealed = [b for k, b in d.facts[hider].items() if k not in shown[0]]
            assert not any(f'"{b}"' in private for b in unrevealed)
    assert compared >= 3  # the set-up, the first round's commits and its reveals (a battle), the next commits


def test_protocol_13_10_a_lie_about_a_block_in_battle_names_the_cheater_at_once(tmp_path: Path) -> None:
    """North opens its fighting handle as n4 (it hides n1): the opening does not open the handle."""
    d = Duel(tmp_path)
    d.start()
    for s in SIDES:
        d.owed(s, order(s, f"hidden.{s}.0"))
    area = d.dirs["north"] / ".pbem" / "peer-north" / "secrets.json"
    data = json.loads(area.read_text())
    data["openings"]["hidden.north.0"]["value"] = "n4"
    area.write_text(json.dumps(data))
    d.owed("north")
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 1: its opening of hidden.north.0 does not open")
    assert entries(d.dirs["south"])[-1]["kind"] == "void"


def test_protocol_13_10_a_charge_beyond_the_blocks_strength_is_caught_when_it_is_revealed(tmp_path: Path) -> None:
    """North charges with n1 (rule 3: strength 3 or more): nothing shows it at the commitment; the
    battle's reveal of n1 convicts north in the same step."""
    d = Duel(tmp_path)
    d.start()
    for s in SIDES:
        d.owed(s, order(s, f"hidden.{s}.1"))  # open orders: the seal's own check would refuse north's charge
    c_n = d.dirs["north"] / "messages" / "0001-commit-north.pbem"
    c_n.unlink()
    (d.dirs["south"] / "messages" / "0001-commit-north.pbem").unlink()
    # north commits to a charge with n1 through the lower-level message writer (what a cheating client does)
    forged = order("north", "hidden.north.0", charge=True)
    _commit_raw(d, "north", forged)
    for s in SIDES:
        d.owed(s)
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 1: its order breaks the rules: hidden.north.0 is n1: "
                                  "only a block of strength 3 or more may charge (rule 3)"), out.verdict


def _commit_raw(d: Duel, side: str, body: dict[str, Any]) -> None:
    """A commitment written outside ``write_owed`` (no check of the order), its opening kept where the
    side's client keeps it: what a modified client does."""
    out = peer.outcome(d.dirs[side])
    label = handles.order_label(len(out.entries))
    commitment, opening = handles.make(label, body)
    area = d.dirs[side] / ".pbem" / f"peer-{side}" / "secrets.json"
    data = json.loads(area.read_text())
    data["openings"][label] = {"label": label, "salt": opening.salt, "value": body}
    area.write_text(json.dumps(data))
    text = message.write(d.keys[side], d.dirs[side].name, side, len(out.entries),
                         peer.entry_hash(out.entries[-1]), "commit", d.clock, {"commitment": commitment})
    for s in SIDES:
        peer.take(d.dirs[s], text.encode("ascii"), "forged commit")


def test_protocol_13_10_a_rest_beyond_the_blocks_strength_is_caught_at_the_final_audit(tmp_path: Path) -> None:
    """North rests n4 (rule 4: strength 1 or 2): the block never fights, so only the end's openings and
    the replay with every fact known show it, naming north and the step."""
    d = Duel(tmp_path, rounds=1)
    d.start()
    d.owed("south", order("south", "hidden.south.0"))
    _commit_raw(d, "north", order("north", "hidden.north.0", rest="hidden.north.1"))  # n4 rests
    for s in SIDES:
        d.owed(s)
    assert peer.outcome(d.dirs["south"]).owes == {"north": "final", "south": "final"}
    for s in SIDES:
        d.owed(s)
    out = peer.outcome(d.dirs["south"])
    assert out.verdict.startswith("north cheated at step 1: its order broke a rule its hidden facts decide")
    assert "only a block of strength 1 or 2 may rest (rule 4)" in out.verdict
    with pytest.raises(LedgerError, match="north cheated at step 1"):
        peer.audit(d.dirs["south"])


def _paused(tmp_path: Path, cards: bool = False) -> Duel:
    """A duel paused at step 1 on a reveal question to north: its reveal did not send its fighter ahead
    (an old client). With ``cards``, north's order also plays the card at position 0."""
    d = Duel(tmp_path, cards=cards)
    d.start()
    for s in SIDES:
        d.owed(s, order(s, f"hidden.{s}.0", card="card.north.0" if cards and s == "north" else ""))
    area = d.dirs["north"] / ".pbem" / "peer-north" / "secrets.json"
    d.owed("south")
    out = peer.outcome(d.dirs["north"])
    data = json.loads(area.read_text())
    held = [m for m in peer.messages(d.dirs["north"], peer.manifest(d.dirs["north"]))]
    commits = [next(m.hash for m in held if m.slot == f"0001-commit-{s}.pbem") for s in SIDES]
    link = chain.link_at(bytes.fromhex(data["chain"]), 64, 2).hex()
    text = message.write(d.keys["north"], "duel", "north", 1, peer.entry_hash(out.entries[-1]), "reveal", d.clock,
                         {"opening": data["openings"]["order.1"], "commits": commits, "link": link})
    d.deliver("north", text)
    peer.take(d.dirs["north"], text.encode("ascii"), "own")
    return d


def test_protocol_13_10_a_reveal_question_pauses_the_record_until_the_owner_opens(tmp_path: Path) -> None:
    """North's reveal does not send its fighter ahead (an old client): the record pauses with a question to
    north; north's open answers it and the step resumes on the same stream."""
    d = _paused(tmp_path)
    out = peer.outcome(d.dirs["south"])
    assert out.owes == {"north": "open"}
    pause = entries(d.dirs["south"])[-1]
    assert pause["kind"] == "pause" and pause["question"]["label"] == "hidden.north.0"
    assert "rule 2" in pause["question"]["rule"]
    assert peer.describe(out, len(out.entries)) == ("step 2: north owes open (the rules ask north to reveal "
                                                    "hidden.north.0: rule 2: a battle reveals the blocks that fight)")
    assert d.owed("north") == "open"
    e = entries(d.dirs["south"])[-1]
    assert e["kind"] == "step" and e["log"][0]["fighters"] == {"north": "n1", "south": "s3"}
    d.play_out()
    assert peer.audit(d.dirs["south"])[-1].startswith("audit ok")


def test_protocol_13_10_a_side_cannot_pick_the_pool_block_it_wants(tmp_path: Path) -> None:
    """After north's first block dies, the joint stream picks which pool handle comes to the field (rule 5):
    north ordering an attack with the other pool handle is refused, and convicts it once revealed."""
    d = Duel(tmp_path)
    d.start()
    d.round({"north": order("north", "hidden.north.0"), "south": order("south", "hidden.south.0")})
    state = d.state()
    drawn = [h for h in state["field"]["north"] if h in ("hidden.north.2", "hidden.north.3")]
    assert len(drawn) == 1 and drawn == [entries(d.dirs["north"])[-1]["log"][0]["levy"]["north"]]
    wanted = ({"hidden.north.2", "hidden.north.3"} - set(drawn)).pop()
    with pytest.raises(Exception, match="attack one of its blocks on the field"):
        d.owed("north", order("north", wanted))
    d.owed("south", order("south", "hidden.south.1"))
    _commit_raw(d, "north", order("north", wanted))
    for s in SIDES:
        d.owed(s)
    assert peer.outcome(d.dirs["south"]).verdict.startswith("north cheated at step 2: its order breaks the rules")


def test_protocol_13_10_a_side_opening_one_block_for_two_handles_is_caught_at_once(tmp_path: Path) -> None:
    """North's start hides n1 behind two handles (a forged private set-up): its first reveal of a second n1
    breaks rule 1 at once."""
    d = Duel(tmp_path, facts={"north": {**NORTH, "hidden.north.1": "n1"}, "south": SOUTH})
    with pytest.raises(Exception, match="each once"):
        d.start()


def _hand(d: Duel, side: str) -> dict[str, str]:
    data = json.loads((d.dirs[side] / ".pbem" / f"peer-{side}" / "secrets.json").read_text())
    return {label: data["openings"][label]["value"] for labels in data.get("hands", {}).values() for label in labels}


def test_protocol_13_11_a_game_with_a_mental_deal_plays_cards_and_ends_with_audit_ok(tmp_path: Path) -> None:
    d = Duel(tmp_path, cards=True)
    d.start()
    play = "card.north.0"  # positions are public (dealt in seat order); the card behind it is north's alone
    d.owed("south", order("south", "hidden.south.0"))
    d.owed("north", order("north", "hidden.north.0", card=play))  # each side reads its hand at its first message
    hands = {s: _hand(d, s) for s in SIDES}
    assert sorted([*hands["north"].values(), *hands["south"].values()]) == sorted(["plus1", "plus2", "plus3", "zero"])
    setup = entries(d.dirs["south"])[0]
    assert setup["dealt"] == {"north": ["card.north.0", "card.north.1"], "south": ["card.south.2", "card.south.3"]}
    assert len(setup["deck"]) == 4
    text = b"".join(p.read_bytes() for p in sorted((d.dirs["south"] / "messages").iterdir()))
    assert not any(f'"{c}"'.encode() in text for c in hands["north"].values())  # north's hand is nowhere public
    for s in SIDES:
        d.owed(s)
    first = next(e for e in entries(d.dirs["south"]) if e["kind"] == "step")
    assert first["log"][0]["cards"] == {"north": hands["north"][play]}
    d.play_out()
    for s in SIDES:
        assert peer.audit(d.dirs[s])[-1].startswith("audit ok")


def test_protocol_13_11_a_claim_of_a_card_not_dealt_names_the_cheater_at_once(tmp_path: Path) -> None:
    """North plays position 0 claiming a card it was not dealt there: its own key decrypts the position to
    the card it was dealt, so the reveal convicts north before south reveals anything."""
    d = Duel(tmp_path, cards=True)
    d.start()
    d.owed("south", order("south", "hidden.south.0"))
    d.owed("north", order("north", "hidden.north.0", card="card.north.0"))
    area = d.dirs["north"] / ".pbem" / "peer-north" / "secrets.json"
    data = json.loads(area.read_text())
    dealt = data["openings"]["card.north.0"]["value"]
    lie = next(c for c in ("plus3", "plus2") if c != dealt)
    data["openings"]["card.north.0"]["value"] = lie
    area.write_text(json.dumps(data))
    d.owed("north")
    out = peer.outcome(d.dirs["south"])
    assert out.verdict == (f"north cheated at step 1: position 0 decrypts to {dealt}, not the {lie} it claims "
                           "(protocol §13.11)")


def test_protocol_13_11_a_final_whose_deal_keys_do_not_replay_the_deal_names_the_cheater(tmp_path: Path) -> None:
    """South opens a permutation at the end that is not the one it shuffled with: the audit's replay of
    the passes names south."""
    d = Duel(tmp_path, rounds=1, cards=True)
    d.start()
    d.round({s: order(s, f"hidden.{s}.0") for s in SIDES})
    area = d.dirs["south"] / ".pbem" / "peer-south" / "secrets.json"
    data = json.loads(area.read_text())
    data["deals"]["0"]["perm"] = list(reversed(data["deals"]["0"]["perm"]))
    area.write_text(json.dumps(data))
    for s in SIDES:
        d.owed(s)
    out = peer.outcome(d.dirs["north"])
    assert out.verdict.startswith("south cheated at step 2: its shuffle pass is not its opened key and permutation")


def test_protocol_13_10_a_side_that_will_not_reveal_a_block_in_battle_forfeits_after_the_deadline(
        tmp_path: Path) -> None:
    """North, asked to reveal its fighter, never opens: south's claim after the deadline ends the game
    with north's forfeit (protocol §13.5 for the open a pause owes)."""
    d = _paused(tmp_path)
    with pytest.raises(LedgerError, match="a forfeit may be claimed after the deadline"):
        d.owed("south")  # south's client refuses to claim before the deadline
    d.clock += 24 * 3600
    assert d.owed("south") == "claim"
    out = peer.outcome(d.dirs["north"])
    assert out.verdict == "north forfeited at step 2: no open before the deadline"
    assert entries(d.dirs["north"])[-1]["kind"] == "forfeit"


def test_protocol_13_10_an_open_sends_ahead_every_own_fact_the_paused_step_reads(tmp_path: Path) -> None:
    """Asked for its fighter, north's open also opens the card its order plays (the step reads it next):
    one pause, not two."""
    d = _paused(tmp_path, cards=True)
    assert d.owed("north") == "open"
    kinds = [e["kind"] for e in entries(d.dirs["south"])]
    assert kinds == ["setup", "pause", "step"]
    assert set(entries(d.dirs["south"])[-1]["revealed"]) == {"hidden.north.0", "card.north.0", "hidden.south.0"}


def test_protocol_13_2_two_different_deal_passes_of_one_side_prove_equivocation(tmp_path: Path) -> None:
    """North signs a second, different shuffle pass: both are kept, and the record is void naming north."""
    d = Duel(tmp_path, cards=True)
    for s in SIDES:
        d.deliver(s, peer.write_join(d.dirs[s], d.keys[s], s, clock=d.clock))
    for s in SIDES:
        d.deliver(s, peer.write_owed(d.dirs[s], d.keys[s], None, d.clock, facts=d.facts[s])[1])
    d.owed("north")  # its shuffle
    other = message.write(d.keys["north"], "duel", "north", 0, "", "shuffle", d.clock + 1,
                          {"deck": ["%064x" % 1] * 4})
    peer.take(d.dirs["south"], other.encode("ascii"), "a second shuffle")
    out = peer.outcome(d.dirs["south"])
    assert out.verdict == ("north cheated at step 0: it signed two different shuffle messages for one step "
                           "(equivocation, protocol §13.2)")


def test_protocol_13_11_a_deal_the_rules_ask_for_mid_game_deals_new_cards_and_audits(tmp_path: Path) -> None:
    """The duel deals again before round 2 (as Hammer each year): a deal entry, new labels counting on
    (card.north.4, ...), a card of the new hand played and checked, and the end's audit replays both deals."""
    d = Duel(tmp_path, rounds=2, cards=True, redeal=1)
    d.start()
    d.round({"north": order("north", "hidden.north.0", card="card.north.0"), "south": order("south", "hidden.south.0")})
    assert peer.outcome(d.dirs["south"]).owes == {"north": "shuffle"}
    while set(peer.outcome(d.dirs["south"]).owes.values()) & {"shuffle", "lock", "keys"}:
        for s in sorted(peer.outcome(d.dirs["south"]).owes):
            d.owed(s)
    deal_entry = entries(d.dirs["south"])[-1]
    assert deal_entry["kind"] == "deal"
    assert deal_entry["dealt"] == {"north": ["card.north.4", "card.north.5"], "south": ["card.south.6", "card.south.7"]}
    state = d.state("south")
    d.round({"north": order("north", state["field"]["north"][0], card="card.north.5"),
             "south": order("south", state["field"]["south"][0], card="card.south.6")})
    step = entries(d.dirs["south"])[-1]
    assert set(step["log"][0]["cards"]) == {"north", "south"}
    assert step["log"][0]["cards"]["north"] == _hand(d, "north")["card.north.5"]
    d.play_out()
    for s in SIDES:
        assert peer.audit(d.dirs[s])[-1].startswith("audit ok")
    assert sorted(k for k in entries(d.dirs["north"])[-1]["revealed"] if k.startswith("card.")) == \
        ["card.north.1", "card.north.4", "card.south.2", "card.south.3", "card.south.7"]


def test_protocol_13_11_a_final_whose_keys_do_not_replay_the_mid_game_deal_names_the_cheater(tmp_path: Path) -> None:
    """South opens, for the second deal only, a permutation it did not shuffle with: the audit names south."""
    d = Duel(tmp_path, rounds=2, cards=True, redeal=1)
    d.start()
    while set(peer.outcome(d.dirs["north"]).owes.values()) != {"final"}:
        out = peer.outcome(d.dirs["north"])
        for s in sorted(out.owes):
            d.owed(s, order(s, out.state["field"][s][0]) if out.owes[s] in peer.ORDERED else None)
    area = d.dirs["south"] / ".pbem" / "peer-south" / "secrets.json"
    data = json.loads(area.read_text())
    step = next(e["entry"] for e in entries(d.dirs["south"]) if e["kind"] == "deal")
    data["deals"][str(step)]["perm"] = list(reversed(data["deals"][str(step)]["perm"]))
    area.write_text(json.dumps(data))
    for s in SIDES:
        d.owed(s)
    assert peer.outcome(d.dirs["north"]).verdict.startswith("south cheated at step")
    assert "its shuffle pass is not its opened key and permutation" in peer.outcome(d.dirs["north"]).verdict
