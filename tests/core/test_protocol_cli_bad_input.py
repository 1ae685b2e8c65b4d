"""Every bad input of issue 3, through the ``pbem`` command (docs/protocol.md §3-§7, §9):
one ``error:`` sentence, exit code 1, no traceback, and the game folder byte-identical."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from core_support import Keys, order, snapshot
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import armor, audit, beacon, envelope, game, identity
from pbem.core.canonical import canonical_bytes

runner = CliRunner()


@pytest.fixture
def kdir(tmp_path: Path, keys: Keys) -> Path:
    d = tmp_path / "keys"
    for who in ("referee", "north", "south", "outsider"):
        identity.save_private(getattr(keys, who), d / f"{who}.key")
        identity.save_public(getattr(keys, who), d / f"{who}.pub.toml")
    return d


def put(tmp_path: Path, name: str, data: str | bytes) -> Path:
    p = tmp_path / "mail" / name
    p.parent.mkdir(exist_ok=True)
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def ok(*args: object) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def refused(d: Path, *args: object) -> str:
    """Run ``pbem ARGS``: exit 1, one ``error:`` sentence (maybe a hint), no traceback, nothing written."""
    before = snapshot(d)
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.splitlines()
    assert lines[0].startswith("error: ") and lines[0].endswith("."), result.output
    assert all(line.startswith("hint: ") for line in lines[1:]), result.output
    assert snapshot(d) == before
    return lines[0]


def adjudicate_refused(d: Path, kdir: Path, *files: Path) -> str:
    return refused(d, "adjudicate", d, *files, "--key", kdir / "referee.key")


def sealed(keys: Keys, d: Path, *, signer: str = "north", side: str = "north", step: int = 0,
           answers: str | None = None, to: str = "referee", game_id: str = "rps-fresh") -> str:
    """An order envelope with chosen header fields and a valid payload."""
    answers = game.status(d)["entry_hash"] if answers is None else answers
    proof = beacon.entropy_proof(getattr(keys, signer), game_id, step, answers)
    payload = canonical_bytes({"order": {"side": side, "step": step, "throw": "rock"}, "proof": identity.b64(proof)})
    raw = envelope.seal(getattr(keys, signer), [getattr(keys, to).public], payload, game=game_id, kind="order",
                        side=side, step=step, answers=answers)
    return armor.armor(raw)


def flipped(text: str, where: Callable[[bytes], int]) -> str:
    raw = bytearray(armor.dearmor(text))
    raw[where(bytes(raw))] ^= 0x01
    return armor.armor(bytes(raw))


@pytest.mark.parametrize("part, where, words", [
    ("header", lambda raw: raw.index(b"rps-fresh"), "signature does not verify"),
    ("body", lambda raw: len(raw) - 100, "signature does not verify"),
    ("signature", lambda raw: len(raw) - 1, "signature does not verify"),
])
def test_protocol_4_3_cli_flipped_byte_is_refused(fresh: Path, keys: Keys, kdir: Path, tmp_path: Path,
                                                 part: str, where: Callable[[bytes], int], words: str) -> None:
    bad = put(tmp_path, f"{part}.asc", flipped(order(keys, fresh, "north"), where))
    south = put(tmp_path, "south.asc", order(keys, fresh, "south"))
    assert words in adjudicate_refused(fresh, kdir, bad, south)
    assert words in refused(fresh, "game", "receive", fresh, bad, "--key", kdir / "referee.key")


def test_protocol_4_5_cli_order_for_another_game_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                           tmp_path: Path) -> None:
    bad = put(tmp_path, "n.asc", sealed(keys, fresh, game_id="rps-other"))
    msg = adjudicate_refused(fresh, kdir, bad, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "is for game 'rps-other', not 'rps-fresh' (protocol §4.5)" in msg


def test_protocol_4_5_cli_order_for_another_step_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                           tmp_path: Path) -> None:
    bad = put(tmp_path, "n.asc", sealed(keys, fresh, step=4))
    msg = adjudicate_refused(fresh, kdir, bad, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "is for step 4, not step 0" in msg


def test_protocol_4_5_cli_replayed_order_and_old_ledger_hash_are_refused(fresh: Path, keys: Keys, kdir: Path,
                                                                        tmp_path: Path) -> None:
    old_hash = game.status(fresh)["entry_hash"]
    first = [put(tmp_path, f"{s}0.asc", order(keys, fresh, s, t)) for s, t in (("north", "rock"), ("south", "paper"))]
    ok("adjudicate", fresh, *first, "--key", kdir / "referee.key")
    assert "already adjudicated" in adjudicate_refused(fresh, kdir, *first)
    assert "already adjudicated" in refused(fresh, "game", "receive", fresh, first[0], "--key", kdir / "referee.key")
    stale = put(tmp_path, "stale.asc", sealed(keys, fresh, step=1, answers=old_hash))
    msg = adjudicate_refused(fresh, kdir, stale, put(tmp_path, "s1.asc", order(keys, fresh, "south")))
    assert f"answers ledger entry {old_hash[:12]}" in msg


def test_protocol_4_5_cli_order_signed_for_the_wrong_side_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                                    tmp_path: Path) -> None:
    bad = put(tmp_path, "as-south.asc", sealed(keys, fresh, signer="north", side="south"))
    msg = adjudicate_refused(fresh, kdir, put(tmp_path, "n.asc", order(keys, fresh, "north")), bad)
    assert "not south's" in msg


def test_protocol_4_5_cli_order_signed_by_a_non_participant_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                                      tmp_path: Path) -> None:
    bad = put(tmp_path, "outsider.asc", sealed(keys, fresh, signer="outsider"))
    msg = adjudicate_refused(fresh, kdir, bad, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "signed by a key that is not north's" in msg


def test_protocol_4_4_cli_order_sealed_to_the_wrong_recipient_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                                        tmp_path: Path) -> None:
    bad = put(tmp_path, "n.asc", sealed(keys, fresh, to="outsider"))
    msg = adjudicate_refused(fresh, kdir, bad, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "is not sealed to referee" in msg


def test_protocol_3_cli_truncated_armor_is_refused(fresh: Path, keys: Keys, kdir: Path, tmp_path: Path) -> None:
    cut = put(tmp_path, "cut.asc", "\n".join(order(keys, fresh, "north").splitlines()[:-2]))
    msg = adjudicate_refused(fresh, kdir, cut, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "is truncated" in msg


def test_protocol_3_cli_two_envelopes_in_one_message_are_refused(fresh: Path, keys: Keys, kdir: Path,
                                                                tmp_path: Path) -> None:
    two = put(tmp_path, "two.asc", order(keys, fresh, "north") + "\n" + order(keys, fresh, "south"))
    assert "more than one envelope" in adjudicate_refused(fresh, kdir, two)
    assert "more than one envelope" in refused(fresh, "game", "receive", fresh, two, "--key", kdir / "referee.key")


def test_protocol_3_cli_oversized_input_is_refused(fresh: Path, keys: Keys, kdir: Path, tmp_path: Path) -> None:
    big = put(tmp_path, "big.asc", order(keys, fresh, "north") + "x" * armor.MAX_INPUT)
    msg = adjudicate_refused(fresh, kdir, big, put(tmp_path, "s.asc", order(keys, fresh, "south")))
    assert "over the 1048576-byte limit" in msg
    assert "limit" in refused(fresh, "game", "receive", fresh, big, "--key", kdir / "referee.key")


def test_protocol_7_3_cli_second_order_in_one_batch_is_refused(fresh: Path, keys: Keys, kdir: Path,
                                                              tmp_path: Path) -> None:
    files = [put(tmp_path, "n1.asc", order(keys, fresh, "north")),
             put(tmp_path, "n2.asc", order(keys, fresh, "north", "paper")),
             put(tmp_path, "s.asc", order(keys, fresh, "south"))]
    assert "second order from north" in adjudicate_refused(fresh, kdir, *files)


def test_protocol_7_3_cli_second_order_replaces_the_first_before_adjudication(fresh: Path, keys: Keys, kdir: Path,
                                                                             tmp_path: Path) -> None:
    key = kdir / "referee.key"
    ok("game", "receive", fresh, put(tmp_path, "n1.asc", order(keys, fresh, "north", "rock")), "--key", key)
    kept = (fresh / ".pbem" / "pending" / "0000-north.pbem").read_bytes()
    ok("game", "receive", fresh, put(tmp_path, "n2.asc", order(keys, fresh, "north", "paper")), "--key", key)
    assert (fresh / ".pbem" / "pending" / "0000-north.pbem").read_bytes() != kept
    assert not (fresh / "orders").exists()  # pending orders stay out of the public record
    ok("adjudicate", fresh, put(tmp_path, "s.asc", order(keys, fresh, "south", "rock")), "--key", key)
    assert game.status(fresh)["board"]["rounds"][0]["throws"] == ["paper", "rock"]


def test_protocol_7_3_cli_only_the_side_itself_can_replace_its_kept_order(fresh: Path, keys: Keys, kdir: Path,
                                                                         tmp_path: Path) -> None:
    key = kdir / "referee.key"
    ok("game", "receive", fresh, put(tmp_path, "n1.asc", order(keys, fresh, "north", "rock")), "--key", key)
    for signer in ("south", "outsider", "referee"):
        forged = put(tmp_path, f"{signer}.asc", sealed(keys, fresh, signer=signer, side="north"))
        assert "not north's" in refused(fresh, "game", "receive", fresh, forged, "--key", key)


def test_protocol_7_3_cli_illegal_order_is_refused_on_arrival(fresh: Path, keys: Keys, kdir: Path,
                                                             tmp_path: Path) -> None:
    bad = put(tmp_path, "lizard.asc", game.write_order(fresh, keys.north, "north", 0,
                                                       {"side": "north", "step": 0, "throw": "lizard"}))
    msg = refused(fresh, "game", "receive", fresh, bad, "--key", kdir / "referee.key")
    assert "lizard.asc: throw 'lizard'" in msg and "(RPS rule 1)" in msg


def test_protocol_7_1_cli_wrong_referee_key_is_refused(fresh: Path, keys: Keys, kdir: Path, tmp_path: Path) -> None:
    files = [put(tmp_path, f"{s}.asc", order(keys, fresh, s)) for s in ("north", "south")]
    msg = refused(fresh, "adjudicate", fresh, *files, "--key", kdir / "outsider.key")
    assert "is not this game's referee" in msg


def test_protocol_7_5_crash_before_the_last_rename_leaves_the_folder_as_before(
        fresh: Path, keys: Keys, kdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while renaming the ledger entry (the commit point) undoes the reports and state already moved."""
    files = [put(tmp_path, f"{s}.asc", order(keys, fresh, s)) for s in ("north", "south")]
    real_replace = os.replace

    def replace(src: object, dst: object) -> None:
        if Path(str(dst)).parent.name == "ledger":
            raise OSError(28, "No space left on device", str(dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert "No space left on device" in adjudicate_refused(fresh, kdir, *files)
    assert not list(fresh.rglob(".*.tmp"))
    monkeypatch.undo()
    ok("adjudicate", fresh, *files, "--key", kdir / "referee.key")
    assert game.status(fresh)["step"] == 1


def test_protocol_7_5_crash_writing_the_last_file_leaves_the_folder_as_before(
        fresh: Path, keys: Keys, kdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [put(tmp_path, f"{s}.asc", order(keys, fresh, s)) for s in ("north", "south")]
    real_write = game._write_temp

    def write_temp(path: Path, data: bytes) -> Path:
        if path.parent.name == "ledger":
            raise KeyboardInterrupt  # the referee pressed ^C, or the machine died, mid-step
        return real_write(path, data)

    monkeypatch.setattr(game, "_write_temp", write_temp)
    before = snapshot(fresh)
    with pytest.raises(KeyboardInterrupt):
        game.adjudicate(fresh, keys.referee, files)
    assert snapshot(fresh) == before
    assert sorted(p.name for p in (fresh / "ledger").iterdir()) == ["0000.toml"]


def test_protocol_7_5_failed_new_game_leaves_no_folder(tmp_path: Path, keys: Keys,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = game._write_temp
    monkeypatch.setattr(game, "_write_temp", lambda p, d: (_ for _ in ()).throw(OSError(5, "I/O error", str(p)))
                        if p.parent.name == "ledger" else real_write(p, d))
    with pytest.raises(OSError):
        game.new_game(tmp_path / "g", "rps", "standard", {}, keys.referee,
                      {"north": keys.north.public, "south": keys.south.public})
    assert not (tmp_path / "g").exists()


def test_protocol_5_cli_key_show_refuses_a_tampered_or_missing_file(kdir: Path) -> None:
    pub = kdir / "north.pub.toml"
    pub.write_text(pub.read_text().replace('name = "north"', 'name = "mallory"').replace(
        "fingerprint = ", "fingerprint = \"aaaa-aaaa-aaaa-aaaa\"\nx = "))
    assert "does not match its keys" in refused(kdir, "key", "show", pub)
    assert "no such file" in refused(kdir, "key", "show", kdir / "nobody.pub.toml")


def test_protocol_5_cli_protected_key_needs_its_passphrase(fresh: Path, keys: Keys, tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("correct horse\n")
    (tmp_path / "bad").write_text("wrong horse\n")
    identity.save_private(keys.referee, tmp_path / "ref.key", b"correct horse")
    files = [put(tmp_path, f"{s}.asc", order(keys, fresh, s)) for s in ("north", "south")]
    assert "passphrase" in refused(fresh, "adjudicate", fresh, *files, "--key", tmp_path / "ref.key")
    assert "wrong passphrase" in refused(fresh, "adjudicate", fresh, *files, "--key", tmp_path / "ref.key",
                                         "--passphrase-file", tmp_path / "bad")
    ok("adjudicate", fresh, *files, "--key", tmp_path / "ref.key", "--passphrase-file", tmp_path / "pw")


def test_protocol_9_cli_audit_refuses_a_bundle_with_extra_or_missing_fields(played: Path, keys: Keys,
                                                                            tmp_path: Path) -> None:
    bundle = audit.make_reveal(played, keys.referee)
    bundle["salts"] = {}
    (tmp_path / "b.json").write_text(audit.dump_reveal(bundle))
    assert "salts" in refused(played, "audit", played, "--reveal", tmp_path / "b.json")


def test_protocol_9_the_reveal_bundle_is_canonical_json_and_an_indented_copy_is_refused(played: Path, keys: Keys,
                                                                                        tmp_path: Path) -> None:
    """§9: the bundle is canonical JSON (§2), one byte form; the indented JSON pbem once wrote is refused."""
    bundle = audit.make_reveal(played, keys.referee)
    text = audit.dump_reveal(bundle)
    assert text.encode("utf-8") == json.dumps(bundle, sort_keys=True, separators=(",", ":"),
                                              ensure_ascii=False).encode("utf-8")
    (tmp_path / "ok.json").write_text(text, encoding="utf-8")
    ok("audit", played, "--reveal", tmp_path / "ok.json")
    (tmp_path / "indented.json").write_text(json.dumps(bundle, indent=1, sort_keys=True), encoding="utf-8")
    assert "canonical JSON" in refused(played, "audit", played, "--reveal", tmp_path / "indented.json")
