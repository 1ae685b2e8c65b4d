"""Protocol §9 (and §7.4, §7.5): the reveal bundle gives the content key of every report and of every
sealed state the record keeps, so an outsider with the public folder and the bundle opens them
without any player's key, and ``pbem audit`` holds what they hold to the ledger's commitments.

The attacks are a cheating referee's: a report file that is not the committed report (verify cannot
see inside it; only its side could, until the bundle), a state file that is not the committed state,
a bundle key that opens nothing, and reports sealed to the side alone so that no key can be revealed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from core_support import Keys

from pbem.core import armor, audit, commitments, envelope, game, ledger
from pbem.core.canonical import canonical_bytes, canonical_loads
from pbem.core.errors import AuditError, DecryptError


def _reseal_report(d: Path, keys: Keys, side: str, n: int, payload: bytes, to_referee: bool = True) -> None:
    """What a cheating referee can write: a report signed by it, bound to the entry, holding ``payload``."""
    entry_hash = ledger.record_hash(ledger.entry_path(d, n).read_bytes())
    to = [getattr(keys, side).public] + ([keys.referee.public] if to_referee else [])
    raw = envelope.seal(keys.referee, to, payload, game="rps-test", kind="report", side=side, step=n,
                        answers=entry_hash)
    game.report_path(d, n, side).write_text(armor.armor(raw))


def test_protocol_9_an_outsider_opens_every_report_and_the_kept_state_with_the_bundle_alone(played: Path,
                                                                                            keys: Keys) -> None:
    bundle = audit.make_reveal(played, keys.referee)
    entries = ledger.verify_record(played).entries
    assert sorted(bundle["reports"]) == [f"{e.number:04d}" for e in entries]
    secret = bytes.fromhex(bundle["state_secret"])
    for e in entries:
        for side in ("north", "south"):
            env = envelope.read_file(game.report_path(played, e.number, side))
            key = bytes.fromhex(bundle["reports"][f"{e.number:04d}"][side])
            data = canonical_loads(envelope.open_with_key(env, key))
            salt = commitments.salt_for(secret, "rps-test", e.number, f"report.{side}")
            assert data["salt"] == salt.hex()
            assert commitments.commit(f"report.{side}", salt, data["report"]) == e.reports[side]
    last = entries[-1].number
    assert sorted(bundle["states"]) == [f"{last:04d}"]  # earlier states were pruned (§7.5)
    env = envelope.read_file(ledger.state_path(played, last))
    state = canonical_loads(envelope.open_with_key(env, bytes.fromhex(bundle["states"][f"{last:04d}"])))
    assert state["dice_secret"] == bundle["dice_secret"]
    assert audit.audit(played, bundle)["lines"][-1].startswith("audit ok")


def test_protocol_9_audit_catches_a_report_file_that_is_not_the_committed_report(played: Path, keys: Keys) -> None:
    path = game.report_path(played, 2, "north")
    payload = envelope.open_sealed(envelope.read_file(path), keys.north)
    data = canonical_loads(payload)
    data["report"] = {"forged": True}
    _reseal_report(played, keys, "north", 2, canonical_bytes(data))
    ledger.verify_record(played)  # verify cannot open a report: the record still verifies
    with pytest.raises(AuditError, match="0002-north.pbem: opened with the revealed key, it does not hold the report"):
        audit.audit(played, audit.make_reveal(played, keys.referee))


def test_protocol_9_audit_catches_a_state_file_that_is_not_the_committed_state(played: Path, keys: Keys) -> None:
    last = ledger.verify_record(played).entries[-1]
    path = ledger.state_path(played, last.number)
    data = canonical_loads(envelope.open_sealed(envelope.read_file(path), keys.referee))
    data["state"] = {"forged": True}
    raw = envelope.seal(keys.referee, [keys.referee.public], canonical_bytes(data), game="rps-test", kind="state",
                        side="", step=last.number, answers=last.hash)
    path.write_text(armor.armor(raw))
    ledger.verify_record(played)
    bundle = audit.make_reveal(played, keys.referee)
    with pytest.raises(AuditError, match="it does not hold the state entry"):
        audit.audit(played, bundle)


def test_protocol_9_a_revealed_key_that_is_not_the_envelopes_fails_its_key_commitment(played: Path,
                                                                                      keys: Keys) -> None:
    bundle = audit.make_reveal(played, keys.referee)
    bundle["reports"]["0001"]["south"] = bundle["reports"]["0001"]["north"]
    with pytest.raises(DecryptError, match="does not match the header's kc"):
        audit.audit(played, bundle)
    bundle = audit.make_reveal(played, keys.referee)
    del bundle["reports"]["0001"]["south"]
    with pytest.raises(AuditError, match="content key of .*0001-south.pbem is missing"):
        audit.audit(played, bundle)
    bundle = audit.make_reveal(played, keys.referee)
    bundle["reports"]["0099"] = {"north": "00" * 32}
    with pytest.raises(AuditError, match="0099, which the record does not hold"):
        audit.audit(played, bundle)


def test_protocol_7_4_a_report_not_sealed_to_the_referee_too_fails_verify(played: Path, keys: Keys) -> None:
    """Without the referee's stanza nobody could reveal the report's key: verify refuses it (§7.4)."""
    payload = envelope.open_sealed(envelope.read_file(game.report_path(played, 1, "south")), keys.south)
    _reseal_report(played, keys, "south", 1, payload, to_referee=False)
    with pytest.raises(DecryptError, match="0001-south.pbem is not sealed to referee"):
        ledger.verify_record(played)
    _reseal_report(played, keys, "south", 1, payload)
    ledger.verify_record(played)


def test_protocol_9_cli_audit_runs_from_the_public_record_and_the_bundle_alone(played: Path, keys: Keys,
                                                                               tmp_path: Path) -> None:
    """An outsider's copy: game.toml and the record folders, no private area, no key at all."""
    from typer.testing import CliRunner

    from pbem.cli.main import app
    bundle = tmp_path / "reveal.json"
    bundle.write_text(audit.dump_reveal(audit.make_reveal(played, keys.referee)), encoding="utf-8")
    public = tmp_path / "public"
    public.mkdir()
    shutil.copyfile(played / "game.toml", public / "game.toml")
    for folder in ("ledger", "orders", "reports", "state"):
        shutil.copytree(played / folder, public / folder)
    result = CliRunner().invoke(app, ["audit", str(public), "--reveal", str(bundle)])
    assert result.exit_code == 0 and "every report and kept state opened with the revealed keys" in result.output


def test_protocol_9_the_latest_state_key_is_required_in_the_bundle(
        played: Path, keys: Keys) -> None:
    """A referee cannot hide its latest sealed state by leaving its key out of the bundle (§9); only an
    earlier state, which the referee may have pruned, may go without one (tests/transport/mail: a
    player's copy keeps it, and the whole game by mail audits)."""
    last = ledger.verify_record(played).entries[-1].number
    bundle = audit.make_reveal(played, keys.referee)
    del bundle["states"][f"{last:04d}"]
    with pytest.raises(AuditError, match=f"content key of .*state/{last:04d}.pbem is missing"):
        audit.audit(played, bundle)
