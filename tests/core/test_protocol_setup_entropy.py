"""Set-up dice nobody can bias (docs/protocol.md §8.1): ``game open`` publishes the dice anchor,
each side sends a sealed join with its entropy, ``game start`` keys the set-up with all of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from core_support import Keys, order, snapshot
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import audit, beacon, envelope, game, identity, ledger, ruleset
from pbem.core.errors import EnvelopeError, FormatError, PbemError, ReplayError, SignatureError

runner = CliRunner()
SIDES = ("north", "south")


def run(*args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture
def kdir(tmp_path: Path, keys: Keys) -> Path:
    d = tmp_path / "keys"
    for who in ("referee", "north", "south"):
        identity.save_private(getattr(keys, who), d / f"{who}.key")
        identity.save_public(getattr(keys, who), d / f"{who}.pub.toml")
    return d


@pytest.fixture
def opened(tmp_path: Path, keys: Keys) -> Path:
    d = tmp_path / "opened"
    game.open_game(d, "rps", "standard", {}, keys.referee, {s: getattr(keys, s).public for s in SIDES},
                   game_id="rps-joined", chain_length=20)
    return d


def joins(keys: Keys, d: Path, tmp_path: Path) -> list[Path]:
    out = []
    for side in SIDES:
        p = tmp_path / f"join-{side}.asc"
        p.write_text(game.write_join(d, getattr(keys, side), side))
        out.append(p)
    return out


def test_protocol_8_1_cli_open_join_start_play_verify_and_audit(tmp_path: Path, kdir: Path, keys: Keys) -> None:
    d = tmp_path / "g"
    code, out = run("game", "open", d, "--ruleset", "rps", "--scenario", "standard", "--referee",
                    kdir / "referee.key", "--side", f"north={kdir / 'north.pub.toml'}",
                    "--side", f"south={kdir / 'south.pub.toml'}")
    assert code == 0 and "wait for their joins" in out, out
    assert not (d / "ledger").exists() and not (d / "reports").exists()
    for side in SIDES:
        code, out = run("game", "join", d, "--side", side, "--key", kdir / f"{side}.key", "--out",
                        tmp_path / f"{side}.join")
        assert code == 0, out
    code, out = run("game", "start", d, tmp_path / "north.join", tmp_path / "south.join", "--key",
                    kdir / "referee.key")
    assert code == 0 and "north owes throw, south owes throw" in out, out
    for throws in (("paper", "rock"), ("scissors", "paper")):
        game.adjudicate(d, keys.referee, [order(keys, d, s, t) for s, t in zip(SIDES, throws)])
    code, out = run("verify", d)
    assert code == 0 and "set-up entropy from the players and the dice chain" in out
    assert "entry 0000: setup, joins from north, south" in out
    code, out = run("game", "reveal", d, "--key", kdir / "referee.key", "--out", tmp_path / "bundle.json")
    assert code == 0, out
    code, out = run("audit", d, "--reveal", tmp_path / "bundle.json")
    assert code == 0 and "audit ok: 3 entries" in out, out
    bundle = json.loads((tmp_path / "bundle.json").read_text())
    bundle["joins"]["south"]["entropy"] = "00" * 32
    (tmp_path / "bundle.json").write_text(audit.dump_reveal(bundle))
    code, out = run("audit", d, "--reveal", tmp_path / "bundle.json")
    assert code == 1 and "the join of south for the set-up differs from the signed join" in out


def test_protocol_8_1_setup_seed_mixes_every_sides_join_entropy(opened: Path, keys: Keys, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset.load("rps")
    keyed: list[bytes] = []
    real_setup = rules.setup
    monkeypatch.setattr(rules, "setup", lambda sc, op, rng: keyed.append(rng._key) or real_setup(sc, op, rng))
    game.start_game(opened, keys.referee, joins(keys, opened, tmp_path), rules=rules)
    man = ledger.read_manifest(opened)
    r0 = ledger.read_entry(opened, 0, man).dice
    k0 = beacon.step_key(bytes.fromhex(audit.make_reveal(opened, keys.referee)["dice_secret"]), "rps-joined", 0)
    entropy = {s: beacon.entropy_of(beacon.entropy_proof(getattr(keys, s), "rps-joined", 0, man.hash)) for s in SIDES}
    assert keyed == [beacon.step_seed(k0, "rps-joined", 0, r0, [(s, entropy[s]) for s in SIDES])]
    assert keyed[0] != beacon.step_seed(k0, "rps-joined", 0, r0, [])


def test_protocol_8_1_game_cannot_start_without_every_join(opened: Path, keys: Keys, tmp_path: Path) -> None:
    north, _ = joins(keys, opened, tmp_path)
    before = snapshot(opened)
    with pytest.raises(PbemError, match=r"south sent no join \(protocol §8\.1\)\.$"):
        game.start_game(opened, keys.referee, [north])
    with pytest.raises(EnvelopeError, match="second join from north"):
        game.start_game(opened, keys.referee, [north, north])
    assert snapshot(opened) == before


def test_protocol_8_1_join_signed_by_another_side_or_for_another_game_is_refused(opened: Path, keys: Keys,
                                                                               tmp_path: Path) -> None:
    north, south = joins(keys, opened, tmp_path)
    man = ledger.read_manifest(opened)
    payload = b'{"order":null,"proof":"' + identity.b64(bytes(64)).encode() + b'"}'
    forged = envelope.seal(keys.north, [keys.referee.public], payload,
                           game=man.game, kind="join", side="south", step=0, answers=man.hash)
    other = tmp_path / "other"
    game.open_game(other, "rps", "standard", {}, keys.referee, {s: getattr(keys, s).public for s in SIDES},
                   game_id="rps-other", chain_length=20)
    elsewhere = game.write_join(other, keys.south, "south")
    before = snapshot(opened)
    with pytest.raises(SignatureError, match="not south's"):
        game.start_game(opened, keys.referee, [north, envelope.armor.armor(forged)])
    with pytest.raises(ReplayError, match="is for game 'rps-other'"):
        game.start_game(opened, keys.referee, [north, elsewhere])
    with pytest.raises(SignatureError):
        game.write_join(opened, keys.north, "south")
    assert snapshot(opened) == before


def test_protocol_8_1_joins_close_when_the_game_starts(opened: Path, keys: Keys, tmp_path: Path) -> None:
    files = joins(keys, opened, tmp_path)
    game.start_game(opened, keys.referee, files)
    before = snapshot(opened)
    with pytest.raises(ReplayError, match="already started"):
        game.start_game(opened, keys.referee, files)
    with pytest.raises(ReplayError, match="already started"):
        game.write_join(opened, keys.north, "north")
    with pytest.raises(EnvelopeError, match="is a join envelope, not an order"):
        game.adjudicate(opened, keys.referee, [files[0], order(keys, opened, "south")])
    assert snapshot(opened) == before


def test_protocol_8_1_a_game_made_at_once_takes_no_joins(fresh: Path, keys: Keys) -> None:
    with pytest.raises(FormatError, match="takes no joins"):
        game.write_join(fresh, keys.north, "north")


def test_protocol_8_1_verify_checks_the_joins_entry_0_consumed(opened: Path, keys: Keys, tmp_path: Path) -> None:
    game.start_game(opened, keys.referee, joins(keys, opened, tmp_path))
    assert game.verify(opened)["entries"] == 1
    copy = tmp_path / "copy"
    shutil.copytree(opened, copy)
    (copy / "joins" / "south.pbem").write_text((copy / "joins" / "north.pbem").read_text())
    with pytest.raises(PbemError, match=r"south\.pbem: its hash does not match field orders\.south"):
        game.verify(copy)
    (opened / "joins" / "north.pbem").unlink()
    with pytest.raises(PbemError, match="the join consumed by entry 0 is missing"):
        game.verify(opened)
