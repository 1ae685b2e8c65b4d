"""RPS through the whole protocol: new_game -> orders -> adjudicate -> verify -> reveal -> audit,
and tampering with the record (docs/protocol.md §7-§9), through the CLI where one exists."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from core_support import Keys
from typer.testing import CliRunner

from pbem.cli.main import app as cli
from pbem.core import audit, game, identity, ledger

runner = CliRunner()


def run(*args: object) -> tuple[int, str]:
    result = runner.invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture
def bundle(played: Path, keys: Keys, tmp_path: Path) -> Path:
    identity.save_private(keys.referee, tmp_path / "referee.key")
    code, out = run("game", "reveal", played, "--key", tmp_path / "referee.key", "--out", tmp_path / "reveal.json")
    assert code == 0, out
    return tmp_path / "reveal.json"


def test_protocol_9_rps_game_verifies_and_audits_through_the_cli(played: Path, bundle: Path) -> None:
    status = game.status(played)
    assert status["owes"] == {} and status["result"]["winner"]
    code, out = run("verify", played)
    assert code == 0 and "ok: " in out and "entry 0003" in out
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 0 and "audit ok" in out


def test_protocol_7_4_players_open_their_own_reports_only(played: Path, keys: Keys) -> None:
    rep = game.open_report(game.report_path(played, 1, "north"), keys.north)
    assert rep["side"] == "north" and rep["step"] == 1
    from pbem.core.errors import DecryptError
    with pytest.raises(DecryptError):
        game.open_report(game.report_path(played, 1, "north"), keys.south)


def resign(path: Path, keys: Keys, change: callable) -> None:
    """Edit a ledger entry and re-sign it with the referee's key (a cheating referee)."""
    doc = tomllib.loads(path.read_text())
    doc.pop("signature")
    change(doc)
    path.write_bytes(ledger.dump_signed(doc, keys.referee, ledger.ENTRY_DOMAIN))


def test_protocol_7_2_edited_ledger_entry_fails_verify(played: Path) -> None:
    p = played / "ledger" / "0002.toml"
    p.write_text(p.read_text().replace("rock", "paper", 1))
    code, out = run("verify", played)
    assert code == 1 and out.startswith("error: ") and "0002.toml" in out


def test_protocol_7_2_resigned_entry_breaks_the_chain(played: Path, keys: Keys) -> None:
    resign(played / "ledger" / "0001.toml", keys, lambda d: d.update(board=d["board"].replace("rock", "paper")))
    code, out = run("verify", played)
    assert code == 1 and "0001" in out and "answers ledger entry" in out


def test_protocol_8_forged_die_reveal_fails_verify(played: Path, keys: Keys) -> None:
    resign(played / "ledger" / "0003.toml", keys, lambda d: d.update(dice="00" * 32))
    code, out = run("verify", played)
    assert code == 1 and "dice reveal of entry 3" in out


def test_protocol_9_referee_lying_about_a_result_fails_audit(played: Path, keys: Keys, bundle: Path) -> None:
    """The last entry re-signed with a different board: verify passes, the audit names it."""
    def change(d: dict) -> None:
        board = json.loads(d["board"])
        board["rounds"][-1]["winner"] = "nobody"
        d["board"] = json.dumps(board, sort_keys=True, separators=(",", ":"))
    last = played / "ledger" / "0003.toml"
    resign(last, keys, change)
    for side in ("north", "south"):  # reports must answer the new entry hash
        _rebind_report(played, keys, side, 3)
    _rebind_state(played, keys, 3)
    assert run("verify", played)[0] == 0
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "0003.toml" in out and "board" in out


def test_protocol_9_tampered_report_commitment_fails_audit(played: Path, keys: Keys, bundle: Path) -> None:
    resign(played / "ledger" / "0003.toml", keys,
           lambda d: d["reports"].update(north="0" * 64))
    for side in ("north", "south"):
        _rebind_report(played, keys, side, 3)
    _rebind_state(played, keys, 3)
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "report for north" in out


def test_protocol_9_wrong_dice_secret_in_bundle_fails_audit(played: Path, bundle: Path) -> None:
    data = json.loads(bundle.read_text())
    data["dice_secret"] = "11" * 32
    bundle.write_text(audit.dump_reveal(data))
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "dice anchor" in out


def test_protocol_9_altered_order_in_bundle_fails_audit(played: Path, bundle: Path) -> None:
    data = json.loads(bundle.read_text())
    data["orders"]["0001"]["north"]["order"]["throw"] = "scissors"
    bundle.write_text(audit.dump_reveal(data))
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "differs from the signed order" in out


def test_protocol_7_3_swapped_order_file_fails_verify(played: Path) -> None:
    a, b = played / "orders" / "0000-north.pbem", played / "orders" / "0001-north.pbem"
    a.write_bytes(b.read_bytes())
    code, out = run("verify", played)
    assert code == 1 and "0000-north.pbem" in out


def test_protocol_7_4_missing_report_fails_verify(played: Path) -> None:
    (played / "reports" / "0002-south.pbem").unlink()
    code, out = run("verify", played)
    assert code == 1 and "missing" in out


def _rebind_report(d: Path, keys: Keys, side: str, n: int) -> None:
    """Re-seal a report so it answers the (re-signed) entry: what a cheating referee would do."""
    from pbem.core import armor, envelope
    p = game.report_path(d, n, side)
    payload = envelope.open_sealed(envelope.read_file(p), getattr(keys, side))
    entry_hash = ledger.record_hash(ledger.entry_path(d, n).read_bytes())
    raw = envelope.seal(keys.referee, [getattr(keys, side).public, keys.referee.public], payload, game="rps-test",
                        kind="report",
                        side=side, step=n, answers=entry_hash)
    p.write_text(armor.armor(raw))


def _rebind_state(d: Path, keys: Keys, n: int) -> None:
    from pbem.core import armor, envelope
    p = game.state_path(d, n)
    if not p.exists():  # the referee keeps only the latest sealed state (protocol §7.5)
        return
    payload = envelope.open_sealed(envelope.read_file(p), keys.referee)
    entry_hash = ledger.record_hash(ledger.entry_path(d, n).read_bytes())
    raw = envelope.seal(keys.referee, [keys.referee.public], payload, game="rps-test", kind="state", side="",
                        step=n, answers=entry_hash)
    p.write_text(armor.armor(raw))


def test_protocol_7_atomic_write_leaves_no_temporary_files(played: Path) -> None:
    assert not [p for p in played.rglob(".*.tmp")]
    assert audit.REVEAL_FORMAT == "pbem-reveal-v2"


def _rebind_all(d: Path, keys: Keys, n: int) -> None:
    for side in ("north", "south"):
        _rebind_report(d, keys, side, n)
    _rebind_state(d, keys, n)


def test_protocol_8_cli_audit_names_a_forged_die(played: Path, keys: Keys, bundle: Path) -> None:
    """A die the referee changed in the record: the audit stops at the dice reveal of that entry."""
    resign(played / "ledger" / "0003.toml", keys, lambda d: d.update(dice="ab" * 32))
    _rebind_all(played, keys, 3)
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "0003.toml: the dice reveal of entry 3 does not hash to the previous reveal" in out


def test_protocol_9_cli_audit_names_a_die_changed_in_the_public_board(played: Path, keys: Keys,
                                                                     bundle: Path) -> None:
    """Round 3 was a tie settled by dice; a referee rewriting those dice is caught by the replay."""
    def change(d: dict) -> None:
        board = json.loads(d["board"])
        rolls = board["rounds"][-1]["dice"]
        assert rolls, "round 3 (rock against rock) is settled by dice"
        rolls[-1] = [6, 1] if rolls[-1] != [6, 1] else [1, 6]
        d["board"] = json.dumps(board, sort_keys=True, separators=(",", ":"))
    resign(played / "ledger" / "0003.toml", keys, change)
    _rebind_all(played, keys, 3)
    assert run("verify", played)[0] == 0
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "0003.toml: field board does not match the replay of entry 3" in out


def test_protocol_7_3_rewritten_past_entry_is_betrayed_by_the_players_signed_orders(played: Path,
                                                                                   keys: Keys) -> None:
    """A referee rewrites entry 2 and re-links everything it signs; the orders of step 2 are the
    players', signed to answer the original entry 2, so the public record no longer checks."""
    resign(played / "ledger" / "0002.toml", keys, lambda d: d["commitments"].update(first_die="0" * 64))
    _rebind_all(played, keys, 2)
    new_hash = ledger.record_hash((played / "ledger" / "0002.toml").read_bytes())
    resign(played / "ledger" / "0003.toml", keys, lambda d: d.update(prev=new_hash))
    _rebind_all(played, keys, 3)
    code, out = run("verify", played)
    assert code == 1 and "0002-north.pbem answers ledger entry" in out


def test_protocol_6_cli_audit_names_a_tampered_commitment_in_the_last_entry(played: Path, keys: Keys,
                                                                           bundle: Path) -> None:
    resign(played / "ledger" / "0003.toml", keys, lambda d: d["commitments"].update(first_die="0" * 64))
    _rebind_all(played, keys, 3)
    assert run("verify", played)[0] == 0
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "0003.toml: commitment 'first_die' does not match the replay of entry 3" in out


def test_protocol_9_cli_audit_names_a_tampered_state_commitment(played: Path, keys: Keys, bundle: Path) -> None:
    resign(played / "ledger" / "0003.toml", keys, lambda d: d.update(state="1" * 64))
    _rebind_all(played, keys, 3)
    code, out = run("audit", played, "--reveal", bundle)
    assert code == 1 and "0003.toml: field state does not match the replayed state of entry 3" in out


def test_protocol_7_verify_needs_only_the_public_files(played: Path, tmp_path: Path) -> None:
    """A copy with no key at all (only what the referee publishes) verifies."""
    import shutil
    public = tmp_path / "public"
    shutil.copytree(played, public)
    assert not list(public.rglob("*.key"))
    code, out = run("verify", public)
    assert code == 0 and out.splitlines()[-1].startswith("ok: 4 entries")
