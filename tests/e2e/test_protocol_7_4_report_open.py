"""Protocol §7.4 (issue 10 item 6): a report is always opened against its game's manifest and ledger.

A report used to be checked against the referee and the ledger only when it sat inside a game
folder; one saved from a mail to another folder opened even when the opponent had forged it
(a fake hand, a fake board). Now every opening needs the game's record (``--game DIR``, or the
report's own game folder) and checks the signer is the manifest's referee, the entry it answers
and that entry's commitment.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from e2e_support import new_game, report_of, run, runner

from pbem.cli.main import app
from pbem.core import armor, envelope, identity
from pbem.core import game as core_game
from pbem.core import ledger as led
from pbem.core.canonical import canonical_bytes


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reports")
    g = new_game(root)
    mail = root / "mail"
    mail.mkdir()
    shutil.copy(report_of(g, "scotland"), mail / "genuine.pbem")
    me = identity.load_private(root / "keys" / "scotland.key")
    enemy = identity.load_private(root / "keys" / "england.key")
    real = core_game.open_report(report_of(g, "scotland"), me)
    fake = dict(real, view=dict(real["view"], hand=["truce"] * len(real["view"].get("hand", [1]))))
    man = led.read_manifest(g)
    entry = led.latest(g, man)
    for name, signer, step, answers in (("forged", enemy, entry.number, entry.hash),
                                        ("future", enemy, entry.number + 5, entry.hash)):
        payload = canonical_bytes({"salt": "00" * 32, "report": fake})
        sealed = envelope.seal(signer, [me.public], payload, game=man.game, kind="report", side="scotland",
                               step=step, answers=answers)
        (mail / f"{name}.pbem").write_text(armor.armor(sealed), encoding="ascii")
    return root


def _open(world: Path, report: str, *game: str) -> tuple[int, str]:
    result = runner.invoke(app, ["report", "open", str(world / "mail" / report), *game,
                                 "--key", str(world / "keys" / "scotland.key"), "--svg", str(world / "x.svg")])
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stderr


def test_protocol_7_4_a_report_saved_outside_its_game_needs_the_game(world: Path) -> None:
    code, err = _open(world, "genuine.pbem")
    assert code == 1 and err.startswith("error: ") and "holds no game.toml (protocol §7.4)" in err
    assert "hint: give the game folder with --game DIR" in err
    out = run("report", "open", world / "mail" / "genuine.pbem", "--game", world / "g",
              "--key", world / "keys" / "scotland.key", "--svg", world / "x.svg")
    assert "you owe: card" in out


def test_protocol_7_4_item_6_a_report_forged_by_the_opponent_is_refused(world: Path) -> None:
    for argv in ((), ("--game", str(world / "g"))):
        code, err = _open(world, "forged.pbem", *argv)
        assert code == 1 and len(err.splitlines()) <= 2, err
    assert "is signed by a key that is not referee's" in err and "truce" not in err


def test_protocol_7_4_a_report_whose_entry_is_missing_is_refused(world: Path, tmp_path: Path) -> None:
    g = tmp_path / "g"
    shutil.copytree(world / "g", g)
    me = identity.load_private(world / "keys" / "scotland.key")
    referee = identity.load_private(world / "keys" / "referee.key")
    man = led.read_manifest(g)
    payload = envelope.open_sealed(envelope.read_file(report_of(g, "scotland")), me)
    sealed = envelope.seal(referee, [me.public], payload, game=man.game, kind="report", side="scotland", step=3,
                           answers="ab" * 32)
    (tmp_path / "later.pbem").write_text(armor.armor(sealed), encoding="ascii")
    result = runner.invoke(app, ["report", "open", str(tmp_path / "later.pbem"), "--game", str(g),
                                 "--key", str(world / "keys" / "scotland.key")])
    assert result.exit_code == 1
    assert "answers ledger entry 3, which is not in" in result.stderr and "(protocol §7.4)" in result.stderr


def test_protocol_7_4_a_referee_signed_report_that_breaks_its_commitment_is_refused(world: Path,
                                                                                   tmp_path: Path) -> None:
    """Even the referee cannot send a report other than the one the ledger committed to."""
    g = world / "g"
    me = identity.load_private(world / "keys" / "scotland.key")
    referee = identity.load_private(world / "keys" / "referee.key")
    man = led.read_manifest(g)
    entry = led.latest(g, man)
    real = core_game.open_report(report_of(g, "scotland"), me)
    salt = envelope.open_sealed(envelope.read_file(report_of(g, "scotland")), me)
    salt_hex = json.loads(salt)["salt"]
    fake = dict(real, step=real["step"], view=dict(real["view"], hand=[]))
    sealed = envelope.seal(referee, [me.public], canonical_bytes({"salt": salt_hex, "report": fake}), game=man.game,
                           kind="report", side="scotland", step=entry.number, answers=entry.hash)
    (tmp_path / "fake.pbem").write_text(armor.armor(sealed), encoding="ascii")
    result = runner.invoke(app, ["report", "open", str(tmp_path / "fake.pbem"), "--game", str(g),
                                 "--key", str(world / "keys" / "scotland.key")])
    assert result.exit_code == 1 and "does not match its commitment" in result.stderr


def test_protocol_7_5_report_open_writes_no_map_into_the_record_nor_anywhere_unless_asked(
        world: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a report leaves no file behind (issue 24: a map per opening piled up); --svg writes one."""
    monkeypatch.chdir(tmp_path)
    report = report_of(world / "g", "scotland")
    out = run("report", "open", report, "--key", world / "keys" / "scotland.key")
    assert "map written" not in out and not list(tmp_path.iterdir())
    assert not list((world / "g").rglob("*.svg"))
    out = run("report", "open", report, "--key", world / "keys" / "scotland.key", "--svg", tmp_path / "m.svg")
    assert f"map written to {tmp_path / 'm.svg'}" in out and (tmp_path / "m.svg").read_text().startswith("<svg")
    run("verify", world / "g")
