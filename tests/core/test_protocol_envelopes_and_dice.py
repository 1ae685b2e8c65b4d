"""Envelope clauses not covered by the vectors (§4.4 several recipients, §5.1 key file mode), the
step seed's inputs (§8) and the ledger's numbering (§7.2)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest
from core_support import Keys, order

from pbem.core import armor, audit, beacon, envelope, game, identity, ledger, ruleset
from pbem.core.errors import DecryptError, LedgerError


def test_protocol_4_4_one_envelope_sealed_to_several_recipients(keys: Keys) -> None:
    raw = envelope.seal(keys.referee, [keys.north.public, keys.south.public], b"both of you", game="g",
                        kind="message", side="", step=1)
    env = envelope.read(armor.armor(raw))
    assert env.header.to == (keys.north.public.encrypt_key, keys.south.public.encrypt_key)
    assert envelope.open_sealed(env, keys.north) == envelope.open_sealed(env, keys.south) == b"both of you"
    with pytest.raises(DecryptError, match="not sealed to outsider"):
        envelope.open_sealed(env, keys.outsider)


def test_protocol_4_2_sign_only_payload_is_in_clear_and_bound_to_its_signer(keys: Keys) -> None:
    env = envelope.read(envelope.sign_only(keys.referee, b"public board", game="g", kind="ledger", side="", step=2))
    assert env.body == b"public board" and env.header.signer == keys.referee.public.sign_key
    assert not env.header.sealed and env.header.kc == ""


def test_protocol_5_1_private_key_file_is_written_owner_only(tmp_path: Path, keys: Keys) -> None:
    identity.save_private(keys.north, tmp_path / "north.key")
    assert stat.S_IMODE((tmp_path / "north.key").stat().st_mode) == 0o600


def _rules_recording_step_keys(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[bytes]]:
    """The rps ruleset, with each step's random-stream key recorded as it adjudicates."""
    rules = ruleset.load("rps")
    keyed: list[bytes] = []
    real = rules.adjudicate
    monkeypatch.setattr(rules, "adjudicate", lambda st, o, rng, game_id="": keyed.append(rng._key)
                        or real(st, o, rng, game_id))
    return rules, keyed


def _entropy(keys: Keys, d: Path, side: str, step: int = 0) -> bytes:
    """A side's entropy for a step: the hash of its signature over game, step and the entry it answers (§8.2)."""
    man = ledger.read_manifest(d)
    answers = ledger.read_entry(d, step, man).hash
    return beacon.entropy_of(beacon.entropy_proof(getattr(keys, side), man.game, step, answers))


def _step_key_and_r(d: Path, keys: Keys, entry: int) -> tuple[bytes, bytes]:
    # at the clock of the latest entry: a step defaulted at its deadline is written days ahead (§8.3)
    last = ledger.latest(d, ledger.read_manifest(d)).written
    x = bytes.fromhex(audit.make_reveal(d, keys.referee, now=last)["dice_secret"])
    return beacon.step_key(x, "rps-fresh", entry), ledger.read_entry(d, entry, ledger.read_manifest(d)).dice


def test_protocol_8_step_seed_mixes_each_orders_entropy_in_side_order(fresh: Path, keys: Keys,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rules, keyed = _rules_recording_step_keys(monkeypatch)
    en, es = _entropy(keys, fresh, "north"), _entropy(keys, fresh, "south")
    north = game.write_order(fresh, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "rock"})
    south = game.write_order(fresh, keys.south, "south", 0, {"side": "south", "step": 0, "throw": "rock"})
    game.adjudicate(fresh, keys.referee, [south, north], rules=rules)  # given in any order
    k1, r1 = _step_key_and_r(fresh, keys, 1)
    assert keyed == [beacon.step_seed(k1, "rps-fresh", 1, r1, [("north", en), ("south", es)])]
    assert keyed[0] != beacon.step_seed(k1, "rps-fresh", 1, r1, [("south", es), ("north", en)])


def test_protocol_8_a_defaulted_side_adds_empty_entropy(fresh: Path, keys: Keys,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rules, keyed = _rules_recording_step_keys(monkeypatch)
    en = _entropy(keys, fresh, "north")
    north = game.write_order(fresh, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "rock"})
    game.adjudicate(fresh, keys.referee, [north], deadline_passed=True, rules=rules,
                    now=game.status(fresh)["deadline"])
    k1, r1 = _step_key_and_r(fresh, keys, 1)
    assert keyed == [beacon.step_seed(k1, "rps-fresh", 1, r1, [("north", en), ("south", b"")])]


def test_protocol_7_2_a_gap_in_the_ledger_numbering_fails_verify(played: Path) -> None:
    (played / "ledger" / "0002.toml").unlink()
    with pytest.raises(LedgerError, match=r"ledger entry 2 is missing \(found 0003\.toml next\)"):
        game.verify(played)


def test_protocol_7_2_an_entry_under_another_number_fails_verify(played: Path) -> None:
    (played / "ledger" / "0003.toml").rename(played / "ledger" / "0004.toml")
    with pytest.raises(LedgerError, match="ledger entry 3 is missing"):
        game.verify(played)
    (played / "ledger" / "0004.toml").rename(played / "ledger" / "0003.toml")
    (played / "ledger" / "0002.toml").write_bytes((played / "ledger" / "0003.toml").read_bytes())
    with pytest.raises(LedgerError, match="field entry is 3, but the file is entry 2"):
        game.verify(played)


def test_protocol_7_3_order_for_a_side_that_owes_nothing_is_refused(played: Path, keys: Keys) -> None:
    from pbem.core.errors import EnvelopeError, PbemError
    with pytest.raises(PbemError, match="is over"):
        game.adjudicate(played, keys.referee, [])
    with pytest.raises(EnvelopeError, match="is over; it takes no more orders"):  # nobody owes in a finished game
        order(keys, played, "north")
