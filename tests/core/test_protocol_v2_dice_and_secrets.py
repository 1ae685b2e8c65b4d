"""Protocol v2, dice and secrets (docs/protocol.md §8, §9.2), tried the way an attacker would.

Outsiders and players try to recompute hidden draws from public values (§8); a cheating referee
tries to re-draw entropy, keep several copies of an order and pick, default an order that came in
time, swap in an older order, and claim a deadline passed early (§8.2, §8.3, §9.2). Each attack
is shown to fail, and the command that catches it is named.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from core_support import T0, Keys, order, snapshot
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import armor, audit, beacon, envelope, game, identity, ledger, receipts, ruleset
from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.core.encoding import lp, u64
from pbem.core.errors import AuditError, LedgerError, PbemError, ReplayError, SignatureError

HAMMER_SIDES = ("england", "scotland")
runner = CliRunner()


def v1_seed(r: bytes, game_id: str, entry: int, entropies: list[tuple[str, bytes]]) -> bytes:
    """Protocol v1's seed: HMAC keyed by the public dice reveal r_e (the hole this version closes)."""
    msg = b"pbem-seed-v1" + lp(game_id) + u64(entry) + len(entropies).to_bytes(4, "big")
    for side, entropy in entropies:
        msg += lp(side) + lp(entropy)
    return hmac.new(r, msg, hashlib.sha256).digest()


def public_guesses(r: bytes, game_id: str, entry: int, entropies: list[tuple[str, bytes]]) -> list[bytes]:
    """Every seed an attacker can form from public values: v1's formula, and v2's with r_e in place of k_e."""
    return [v1_seed(r, game_id, entry, entropies), beacon.step_seed(r, game_id, entry, r, entropies)]


def true_state(d: Path, referee: identity.PrivateIdentity, number: int) -> dict[str, Any]:
    man = ledger.read_manifest(d)
    return game._load_state(d, man, ledger.read_entry(d, number, man), referee)["state"]


def hammer_keys(keys: Keys) -> dict[str, identity.PrivateIdentity]:
    return {"england": keys.north, "scotland": keys.south}


def test_protocol_8_game_new_setup_cannot_be_recomputed_from_game_toml_and_entry_0(tmp_path: Path,
                                                                                   keys: Keys) -> None:
    """Issue 10.1: with v1, HMAC(r_0, public fields) dealt the hands, the deck and the English levy."""
    d = tmp_path / "g"
    rules = ruleset.load("hammer")
    game.new_game(d, rules, "braveheart", {}, keys.referee, {s: k.public for s, k in hammer_keys(keys).items()},
                  chain_length=8, now=T0)
    # The outsider: only game.toml and ledger/0000.toml.
    outsider = tmp_path / "outsider"
    (outsider / "ledger").mkdir(parents=True)
    shutil.copy(d / "game.toml", outsider / "game.toml")
    shutil.copy(d / "ledger" / "0000.toml", outsider / "ledger" / "0000.toml")
    man = ledger.read_manifest(outsider)
    r0 = ledger.read_entry(outsider, 0, man).dice
    real = rules.secrets(true_state(d, keys.referee, 0))
    assert real["hand.england"] and real["hand.scotland"] and real["deck"]
    for seed in public_guesses(r0, man.game, 0, []):
        guess = rules.secrets(rules.setup(man.scenario, dict(man.options), Drbg(seed)))
        assert guess["hand.england"] != real["hand.england"] or guess["hand.scotland"] != real["hand.scotland"]
        assert guess["deck"] != real["deck"]
        assert guess != real  # nor the English levy: the areas' blocks
    # The reveal bundle's dice secret does recompute it: the stream is keyed by k_0 = HMAC(x, ...).
    x = bytes.fromhex(audit.make_reveal(d, keys.referee)["dice_secret"])
    honest = rules.setup(man.scenario, dict(man.options), Drbg(beacon.seed_for(x, 8, man.game, 0, [])))
    assert rules.secrets(honest) == real


def _play_to_winter(d: Path, rules: Any, keys: dict[str, identity.PrivateIdentity], referee: identity.PrivateIdentity
                    ) -> int:
    """Default orders for both sides until both owe winter orders; returns that step."""
    now = T0
    for _ in range(60):
        info = game.status(d)
        if set(info["owes"].values()) == {"winter"}:
            return int(info["step"])
        state = true_state(d, referee, int(info["step"]))
        orders = [
            game.write_order(d, keys[s], s, info["step"], rules.default_order(state, s), now=now)
            for s in sorted(info["owes"])
        ]
        now += 60
        game.adjudicate(d, referee, orders, now=now)
    raise AssertionError("no winter step reached")


def test_protocol_8_a_defaulted_winter_step_cannot_be_recomputed_by_the_other_side(tmp_path: Path, keys: Keys,
                                                                                    monkeypatch: pytest.MonkeyPatch
                                                                                    ) -> None:
    """Issue 10.2: with v1, the side that was not defaulted held every input of the winter deal."""
    d = tmp_path / "g"
    rules = ruleset.load("hammer")
    players = hammer_keys(keys)
    game.new_game(d, rules, "braveheart", {}, keys.referee, {s: k.public for s, k in players.items()},
                  chain_length=80, now=T0)
    step = _play_to_winter(d, rules, players, keys.referee)
    before = true_state(d, keys.referee, step)
    keyed: list[bytes] = []
    real_adjudicate = rules.adjudicate
    monkeypatch.setattr(rules, "adjudicate", lambda st, o, rng, game_id="": keyed.append(rng._key)
                        or real_adjudicate(st, o, rng, game_id))
    deadline = game.status(d)["deadline"]
    england = game.write_order(d, players["england"], "england", step, rules.default_order(before, "england"),
                               now=deadline)
    game.adjudicate(d, keys.referee, [england], deadline_passed=True, rules=rules, now=deadline)
    man = ledger.read_manifest(d)
    entry = ledger.read_entry(d, step + 1, man)
    assert entry.defaulted == ("scotland",)
    after = rules.secrets(true_state(d, keys.referee, step + 1))
    assert after["hand.scotland"], "the winter deal gave Scotland a new hand"
    # England, attacking: its own entropy, the public r_e, and (generously) the whole state before the step.
    mine = beacon.entropy_of(beacon.entropy_proof(players["england"], man.game, step,
                                                  ledger.read_entry(d, step, man).hash))
    orders = {"england": rules.default_order(before, "england"), "scotland": rules.default_order(before, "scotland")}
    for seed in public_guesses(entry.dice, man.game, step + 1, [("england", mine), ("scotland", b"")]):
        assert seed != keyed[0]
        guess = rules.secrets(ruleset.outcome_parts(rules.adjudicate(before, orders, Drbg(seed),
                                                                     game_id=man.game))[0])
        assert guess["hand.scotland"] != after["hand.scotland"]


def _payload(d: Path, referee: identity.PrivateIdentity, armored: str) -> dict[str, Any]:
    return json.loads(envelope.open_sealed(envelope.read(armored), referee))


def test_protocol_8_2_sealing_again_gives_the_same_entropy(fresh: Path, keys: Keys) -> None:
    first, second = order(keys, fresh, "north", "rock"), order(keys, fresh, "north", "paper")
    assert envelope.read(first).hash != envelope.read(second).hash
    a, b = _payload(fresh, keys.referee, first), _payload(fresh, keys.referee, second)
    assert set(a) == {"proof", "order", "seen"} and a["proof"] == b["proof"]
    man = ledger.read_manifest(fresh)
    assert game.order_entropy(man, envelope.read(first), identity.unb64(a["proof"], "p", 64), "first") == \
        game.order_entropy(man, envelope.read(second), identity.unb64(b["proof"], "p", 64), "second")


def test_protocol_8_2_keeping_several_copies_gives_the_referee_no_choice_of_dice(fresh: Path, keys: Keys,
                                                                               tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 10.3a: the referee keeps two sealings of north's order and simulates each: same dice."""
    rules = ruleset.load("rps")
    keyed: list[bytes] = []
    real = rules.adjudicate
    monkeypatch.setattr(rules, "adjudicate", lambda st, o, rng, game_id="": keyed.append(rng._key)
                        or real(st, o, rng, game_id))
    copies = [order(keys, fresh, "north", "rock") for _ in range(3)]
    south = order(keys, fresh, "south", "paper")
    for n, copy in enumerate(copies):
        trial = tmp_path / f"trial{n}"
        shutil.copytree(fresh, trial)
        game.adjudicate(trial, keys.referee, [copy, south], rules=rules)
    assert len(keyed) == 3 and len(set(keyed)) == 1


def _forged_order(d: Path, keys: Keys, proof: bytes) -> str:
    """North's own signed order whose entropy proof is not the one for this step."""
    man, entry = ledger.read_manifest(d), ledger.latest(d, ledger.read_manifest(d))
    payload = canonical_bytes({"proof": identity.b64(proof), "order": {"side": "north", "step": 0, "throw": "rock"}})
    return armor.armor(envelope.seal(keys.north, [keys.referee.public], payload, game=man.game, kind="order",
                                     side="north", step=0, answers=entry.hash))


def test_protocol_8_2_an_entropy_proof_for_another_step_or_made_up_is_refused(fresh: Path, keys: Keys) -> None:
    """A player cannot re-draw its entropy either: only the signature over this step counts."""
    man = ledger.read_manifest(fresh)
    before = snapshot(fresh)
    for proof in (beacon.entropy_proof(keys.north, man.game, 1, ledger.latest(fresh, man).hash),
                  beacon.entropy_proof(keys.north, man.game, 0, "00" * 32), bytes(64),
                  beacon.entropy_proof(keys.south, man.game, 0, ledger.latest(fresh, man).hash)):
        with pytest.raises(SignatureError, match=r"entropy proof .* \(protocol §8\.2\)"):
            game.receive_order(fresh, keys.referee, _forged_order(fresh, keys, proof))
    assert snapshot(fresh) == before


def test_protocol_9_audit_rechecks_every_entropy_proof(played: Path, keys: Keys) -> None:
    bundle = audit.make_reveal(played, keys.referee)
    audit.audit(played, bundle)
    other = beacon.entropy_proof(keys.north, "rps-test", 5, "00" * 32)
    bundle["orders"]["0001"]["north"]["proof"] = identity.b64(other)
    bundle["orders"]["0001"]["north"]["entropy"] = beacon.entropy_of(other).hex()
    with pytest.raises(AuditError, match="differs from the signed order"):
        audit.audit(played, bundle)


def test_protocol_9_2_every_order_gets_a_receipt_numbered_per_step_and_side(fresh: Path, keys: Keys) -> None:
    o1, o2 = order(keys, fresh, "north", "rock"), order(keys, fresh, "north", "paper")
    r1 = game.receive_order(fresh, keys.referee, o1, now=T0 + 10)
    assert (r1.seq, r1.replaces, r1.identical, r1.received) == (1, "", False, T0 + 10)
    assert r1.deadline == T0 + 72 * 3600 and r1.in_time and r1.order == envelope.read(o1).hash
    again = game.receive_order(fresh, keys.referee, o1, now=T0 + 20)
    assert again.identical and again.seq == 1 and again.armored == r1.armored
    r2 = game.receive_order(fresh, keys.referee, o2, now=T0 + 30)
    assert (r2.seq, r2.replaces) == (2, r1.order)
    with pytest.raises(ReplayError, match="an older order cannot come back"):
        game.receive_order(fresh, keys.referee, o1, now=T0 + 40)
    rs = game.receive_order(fresh, keys.referee, order(keys, fresh, "south", "rock"), now=T0 + 50)
    assert rs.seq == 1 and rs.side == "south"
    man = ledger.read_manifest(fresh)
    parsed = receipts.parse(r2.armored, man, "r2")
    assert (parsed.seq, parsed.order, parsed.received, parsed.deadline) == (2, r2.order, T0 + 30, r2.deadline)
    assert sorted(p.name for p in (fresh / ".pbem" / "receipts").iterdir()) == \
        ["0000-north-001.pbem", "0000-north-002.pbem", "0000-south-001.pbem"]
    assert not (fresh / "orders").exists(), "pending orders stay out of the public record"
    game.adjudicate(fresh, keys.referee, [], now=T0 + 60)
    entry = ledger.read_entry(fresh, 1, man)
    assert entry.received == {"north": 2, "south": 1} and entry.orders["north"] == r2.order
    assert (fresh / "orders" / "0000-north.pbem").exists() and not list((fresh / ".pbem" / "pending").iterdir())
    lines = audit.audit(fresh, audit.make_reveal(fresh, keys.referee),
                        receipt_files=[("r1", r1.armored.encode()), ("r2", r2.armored.encode())])["lines"]
    assert any("honoured" in line for line in lines)


def test_protocol_9_2_audit_says_a_receipted_order_replaced_by_a_later_one_was_replaced(fresh: Path,
                                                                                         keys: Keys) -> None:
    """A receipt for an order the player replaced is kept, but the order it names was not played:
    the audit says which order was, not that this one was honoured."""
    r1 = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "rock"), now=T0 + 10)
    r2 = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"), now=T0 + 20)
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], now=T0 + 30)
    lines = audit.audit(fresh, audit.make_reveal(fresh, keys.referee),
                        receipt_files=[("r1.asc", r1.armored.encode()), ("r2.asc", r2.armored.encode())])["lines"]
    assert "receipt r1.asc: north's order 1 for step 0 was replaced by order 2, which was played" in lines
    assert "receipt r2.asc: north's order 2 for step 0 was played" in lines
    assert not [line for line in lines if line.startswith("receipt r1.asc") and "played" in line
                and "replaced" not in line]


def test_protocol_9_2_audit_catches_an_in_time_order_defaulted(fresh: Path, keys: Keys) -> None:
    """Issue 10.3b: the referee simulates north's order and the default, drops the order it dislikes."""
    receipt = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"), now=T0 + 10)
    (fresh / ".pbem" / "pending" / "0000-north.pbem").unlink()  # the cheat
    for side in ("north",):
        for p in (fresh / ".pbem" / "receipts").glob(f"0000-{side}-*"):
            p.unlink()
    deadline = game.status(fresh)["deadline"]
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], deadline_passed=True, now=deadline)
    bundle = audit.make_reveal(fresh, keys.referee, now=deadline)
    audit.audit(fresh, bundle, now=deadline)  # without the receipt nothing shows
    with pytest.raises(AuditError, match=r"north was given default orders at step 0, but r1 shows the referee "
                                         r"received its order 1 at \d+; a receipted order is never defaulted"):
        audit.audit(fresh, bundle, receipt_files=[("r1", receipt.armored.encode())], now=deadline)


def test_protocol_8_3_a_late_order_is_refused_unopened_so_every_receipt_is_in_time(fresh: Path, keys: Keys) -> None:
    """A referee holding a late order could choose between it and the default: honest code refuses it,
    before opening it, and issues no receipt (§8.3, §9.2)."""
    deadline = game.status(fresh)["deadline"]
    before = snapshot(fresh)
    with pytest.raises(ReplayError, match=r"an order arriving at .* is too late and was not opened"):
        game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"), now=deadline + 5)
    with pytest.raises(ReplayError, match="too late"):
        game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], deadline_passed=True,
                        now=deadline + 10)
    assert snapshot(fresh) == before
    on_time = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"), now=deadline)
    assert on_time.in_time and on_time.received == deadline


def test_protocol_9_2_audit_catches_an_older_order_swapped_in(fresh: Path, keys: Keys) -> None:
    o1, o2 = order(keys, fresh, "north", "rock"), order(keys, fresh, "north", "paper")
    r1 = game.receive_order(fresh, keys.referee, o1, now=T0 + 10)
    r2 = game.receive_order(fresh, keys.referee, o2, now=T0 + 20)
    # The cheat: put the older order back and forget the receipt of the newer one.
    (fresh / ".pbem" / "pending" / "0000-north.pbem").write_text(o1)
    (fresh / ".pbem" / "receipts" / "0000-north-002.pbem").unlink()
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], now=T0 + 30)
    bundle = audit.make_reveal(fresh, keys.referee)
    audit.audit(fresh, bundle, receipt_files=[("r1", r1.armored.encode())])  # the old receipt alone: no proof
    with pytest.raises(AuditError, match="consumed north's order 1 at step 0, older than order 2 receipted in r2"):
        audit.audit(fresh, bundle, receipt_files=[("r1", r1.armored.encode()), ("r2", r2.armored.encode())])


def test_protocol_9_2_audit_catches_an_older_order_receipted_again_under_a_new_number(fresh: Path,
                                                                                      keys: Keys) -> None:
    o1, o2 = order(keys, fresh, "north", "rock"), order(keys, fresh, "north", "paper")
    r1 = game.receive_order(fresh, keys.referee, o1, now=T0 + 10)
    r2 = game.receive_order(fresh, keys.referee, o2, now=T0 + 20)
    # The cheat, past the refusal in receive_order: a third receipt for the first order.
    man, entry = ledger.read_manifest(fresh), ledger.latest(fresh, ledger.read_manifest(fresh))
    forged = receipts.issue(keys.referee, man.game, 0, "north", entry.hash, 3, r1.order, T0 + 25, entry.deadline,
                            r2.order, r1.seen_entry, r1.seen_at)
    (fresh / ".pbem" / "receipts" / "0000-north-003.pbem").write_text(forged.armored)
    (fresh / ".pbem" / "pending" / "0000-north.pbem").write_text(o1)
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], now=T0 + 30)
    with pytest.raises(AuditError, match="an older order swapped in for a newer one"):
        audit.audit(fresh, audit.make_reveal(fresh, keys.referee),
                    receipt_files=[("r1", r1.armored.encode()), ("r2", r2.armored.encode())])


def test_protocol_9_2_audit_catches_two_receipts_with_one_number(fresh: Path, keys: Keys) -> None:
    r1 = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "rock"), now=T0 + 10)
    shutil.rmtree(fresh / ".pbem" / "receipts")  # the cheat: forget it, so the next order is number 1 again
    other = game.receive_order(fresh, keys.referee, order(keys, fresh, "north", "paper"), now=T0 + 20)
    assert other.seq == r1.seq == 1
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "south", "rock")], now=T0 + 30)
    with pytest.raises(AuditError, match="two receipts give seq 1 of north at step 0 to different orders"):
        audit.audit(fresh, audit.make_reveal(fresh, keys.referee),
                    receipt_files=[("a", r1.armored.encode()), ("b", other.armored.encode())])


def test_protocol_9_2_a_receipt_from_another_key_is_refused(fresh: Path, keys: Keys) -> None:
    man, entry = ledger.read_manifest(fresh), ledger.latest(fresh, ledger.read_manifest(fresh))
    fake = receipts.issue(keys.north, man.game, 0, "north", entry.hash, 1, "ab" * 32, T0, entry.deadline, "",
                          entry.hash, T0)
    with pytest.raises(SignatureError, match="not referee's"):
        receipts.parse(fake.armored, man, "fake")


def test_protocol_8_3_deadline_passed_is_refused_before_the_recorded_deadline(fresh: Path, keys: Keys,
                                                                             tmp_path: Path) -> None:
    """Issue 10.3b: the referee may not claim the deadline passed early."""
    deadline = game.status(fresh)["deadline"]
    assert deadline == T0 + 72 * 3600
    assert ledger.read_entry(fresh, 0, ledger.read_manifest(fresh)).deadline == deadline
    before = snapshot(fresh)
    with pytest.raises(PbemError, match=r"the deadline of step 0 is .*; it has not passed"):
        game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north")], deadline_passed=True, now=deadline - 1)
    assert snapshot(fresh) == before
    none = tmp_path / "none"
    game.new_game(none, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  chain_length=5, deadline_hours=0, now=T0)
    assert game.status(none)["deadline"] == 0
    with pytest.raises(PbemError, match="has no deadline"):
        game.adjudicate(none, keys.referee, [order(keys, none, "north")], deadline_passed=True, now=T0 + 10**8)


def test_protocol_8_3_verify_catches_a_default_written_before_the_deadline(fresh: Path, keys: Keys,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game, "_check_deadline_passed", lambda *a: None)  # a referee running patched code
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north")], deadline_passed=True, now=T0 + 3600)
    with pytest.raises(LedgerError, match=r"defaults south, but was written before the step's deadline"):
        game.verify(fresh)


def test_protocol_8_3_verify_catches_an_entry_that_claims_a_later_time(fresh: Path, keys: Keys) -> None:
    """The other way to fake a passed deadline: a clock set forward. The next entry then dates itself."""
    deadline = game.status(fresh)["deadline"]
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north")], deadline_passed=True, now=deadline)
    game.verify(fresh, now=deadline)
    with pytest.raises(LedgerError, match="claimed a deadline had passed early"):
        game.verify(fresh, now=deadline - 2 * 3600)


def test_protocol_7_opening_secrets_and_pending_orders_live_in_the_private_area(tmp_path: Path, keys: Keys) -> None:
    d = tmp_path / "opened"
    game.open_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                   chain_length=5, deadline_hours=5)
    assert (d / ".pbem" / "opening.pbem").exists() and not (d / "state").exists()
    assert (d / ".gitignore").read_text() == ".pbem/\n"
    assert ledger.read_manifest(d).deadline_hours == 5


def run(*args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_protocol_9_2_cli_receive_writes_the_receipt_and_audit_holds_the_ledger_to_it(
        fresh: Path, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kdir = tmp_path / "keys"
    identity.save_private(keys.referee, kdir / "referee.key")
    (tmp_path / "n.asc").write_text(order(keys, fresh, "north", "paper"))
    with monkeypatch.context() as clock:
        clock.setattr(game.time, "time", lambda: float(T0 + 60))  # the order arrives a minute after the set-up
        code, out = run("game", "receive", fresh, tmp_path / "n.asc", "--key", kdir / "referee.key", "--receipt-out",
                        tmp_path / "receipt.asc")
    assert code == 0 and "order 1 of north for step 0" in out and "mail the receipt to north" in out, out
    assert "in time for the deadline" in out
    assert "proof that this order arrived" in out
    receipt = tmp_path / "receipt.asc"
    assert receipt.read_text() == receipts.kept(fresh, ledger.read_manifest(fresh), 0, "north")[0].armored
    (tmp_path / "s.asc").write_text(order(keys, fresh, "south", "rock"))
    (fresh / ".pbem" / "pending" / "0000-north.pbem").unlink()  # the cheat
    for p in (fresh / ".pbem" / "receipts").iterdir():
        p.unlink()
    deadline = game.status(fresh)["deadline"]
    game.adjudicate(fresh, keys.referee, [tmp_path / "s.asc"], deadline_passed=True, now=deadline)
    bundle = tmp_path / "bundle.json"
    bundle.write_text(audit.dump_reveal(audit.make_reveal(fresh, keys.referee, now=deadline)))
    monkeypatch.setattr(ledger.time, "time", lambda: float(deadline))  # the auditor reads the ledger at the deadline
    code, out = run("audit", fresh, "--reveal", bundle)
    assert code == 0, out
    code, out = run("audit", fresh, "--reveal", bundle, "--receipt", receipt)
    assert code == 1 and out.startswith("error: ") and "north was given default orders" in out, out


def test_protocol_9_2_cli_adjudicate_issues_receipts_for_the_orders_it_is_given(fresh: Path, keys: Keys,
                                                                               tmp_path: Path) -> None:
    kdir = tmp_path / "keys"
    identity.save_private(keys.referee, kdir / "referee.key")
    for side in ("north", "south"):
        (tmp_path / f"{side}.asc").write_text(order(keys, fresh, side))
    code, out = run("adjudicate", fresh, tmp_path / "north.asc", tmp_path / "south.asc", "--key",
                    kdir / "referee.key")
    assert code == 0 and "mail the receipt to north" in out and "mail the receipt to south" in out, out
    assert sorted(p.name for p in (fresh / ".pbem" / "receipts").iterdir()) == \
        ["0000-north-001.pbem", "0000-south-001.pbem"]
    assert ledger.read_entry(fresh, 1, ledger.read_manifest(fresh)).received == {"north": 1, "south": 1}


def test_protocol_8_3_cli_game_new_takes_deadline_hours(tmp_path: Path, keys: Keys) -> None:
    kdir = tmp_path / "keys"
    identity.save_private(keys.referee, kdir / "referee.key")
    for side in ("north", "south"):
        identity.save_public(getattr(keys, side), kdir / f"{side}.pub.toml")
    code, out = run("game", "new", tmp_path / "g", "--ruleset", "rps", "--scenario", "standard", "--referee",
                    kdir / "referee.key", "--side", f"north={kdir / 'north.pub.toml'}", "--side",
                    f"south={kdir / 'south.pub.toml'}", "--deadline-hours", "24")
    assert code == 0, out
    assert ledger.read_manifest(tmp_path / "g").deadline_hours == 24
    code, out = run("game", "new", tmp_path / "h", "--ruleset", "rps", "--scenario", "standard", "--referee",
                    kdir / "referee.key", "--side", f"north={kdir / 'north.pub.toml'}", "--side",
                    f"south={kdir / 'south.pub.toml'}", "--deadline-hours", "-1")
    assert code != 0 and not (tmp_path / "h").exists()


def test_protocol_9_2_cli_audit_refuses_a_bad_receipt_in_one_line(played: Path, keys: Keys, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.json"
    bundle.write_text(audit.dump_reveal(audit.make_reveal(played, keys.referee)))
    man = ledger.read_manifest(played)
    other_game = receipts.issue(keys.referee, "rps-elsewhere", 0, "north", "ab" * 32, 1, "cd" * 32, T0, 0, "",
                                "ab" * 32, T0)
    odd_payload = envelope.sign_only(keys.referee, b'{"seq":1}', game=man.game, kind="receipt", side="north", step=0)
    not_a_receipt = envelope.sign_only(keys.referee, b"{}", game=man.game, kind="message", side="north", step=0)
    cases = {"garbage": (b"hello", "not a pbem envelope"), "other-game": (other_game.armored.encode(), "rps-elsewhere"),
             "payload": (armor.armor(odd_payload).encode(), "a receipt's payload holds exactly"),
             "kind": (armor.armor(not_a_receipt).encode(), "not a receipt")}
    for name, (data, words) in cases.items():
        (tmp_path / name).write_bytes(data)
        code, out = run("audit", played, "--reveal", bundle, "--receipt", tmp_path / name)
        assert code == 1 and out.startswith("error: ") and words in out and out.count("\n") <= 2, (name, out)
    code, out = run("audit", played, "--reveal", bundle, "--receipt", tmp_path / "missing")
    assert code == 1 and "no such file" in out


def test_protocol_7_3_identical_resend_is_unopened_only_when_its_receipt_answers_the_latest_entry(
        fresh: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    o1 = order(keys, fresh, "north", "rock")
    r1 = game.receive_order(fresh, keys.referee, o1, now=T0 + 10)
    opened: list[str] = []
    real_open = envelope.open_sealed
    monkeypatch.setattr(envelope, "open_sealed", lambda env, *a, **k: opened.append(env.header.kind) or
                        real_open(env, *a, **k))
    again = game.receive_order(fresh, keys.referee, o1, now=T0 + 20)
    assert again.identical and again.armored == r1.armored and opened == [], "checked in full when receipted"
    # A kept receipt that answers another entry proves no check against this one: the order is opened again.
    entry = ledger.latest(fresh, ledger.read_manifest(fresh))
    other = receipts.issue(keys.referee, r1.game, r1.step, r1.side, "ab" * 32, r1.seq, r1.order, r1.received,
                           r1.deadline, "", r1.seen_entry, r1.seen_at)
    assert other.answers != entry.hash
    ledger.receipt_path(fresh, 0, "north", 1).write_text(other.armored, encoding="ascii")
    game.receive_order(fresh, keys.referee, o1, now=T0 + 30)
    assert "order" in opened
