"""docs/judge.md "One mail per step": the order that completes a step gets no separate receipt mail;
the step's report mail carries every side's receipt with its report and the record's changes, and
the player's ``pbem inbox`` files it where ``pbem audit`` finds it (real SMTP and IMAP servers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mail_table import Table, mail, only_reply
from mailworld import SharedPymap, make_world, parse_mail
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity


@pytest.fixture
def table(tmp_path: Path, pymap_server: SharedPymap) -> Iterator[Table]:
    with make_world(tmp_path, pymap_server=pymap_server) as world:
        yield Table(world)


def _names(data: bytes) -> list[str]:
    return [p.get_filename() or "" for p in parse_mail(data).walk() if p.get_filename()]


def test_judge_the_order_completing_a_step_gets_one_mail_with_its_receipt(table: Table, tmp_path: Path) -> None:
    north, south = "north@player.test", "south@player.test"
    first = table.exchange(mail(north, table.order("north"))[0])
    assert "Received" in only_reply(first, north)  # the step is not complete: the receipt comes at once
    got = table.exchange(mail(south, table.order("south", "paper"))[0])
    assert core_game.status(table.dir)["step"] == 1
    assert len(got[south]) == 1 and len(got[north]) == 1, {a: len(m) for a, m in got.items()}
    for side, data in (("south", got[south][0]), ("north", got[north][0])):
        assert parse_mail(data)["Subject"].startswith(f"{table.gid}: step 1")
        names = _names(data)
        assert f"0001-{side}.pbem" in names and f"{table.gid}-0001.pbem-files.json" in names
        assert f"receipt-{table.gid}-0000-{side}-1.asc" in names  # its own receipt, and no other side's
        assert not [n for n in names if n.startswith("receipt-") and f"-{side}-" not in n]
    body = parse_mail(got[south][0]).get_body(("plain",)).get_content()
    assert "signed receipt" in " ".join(body.split())
    # the player takes the mail in: record verified, receipt filed for audit, report opened
    p = table.players["south"]
    key = tmp_path / "south.key"
    identity.save_private(p.key, key)
    saved = tmp_path / "step1.eml"
    saved.write_bytes(got[south][0])
    res = CliRunner().invoke(app, ["inbox", str(saved), "--key", str(key), "--game", str(p.copy)])
    assert res.exit_code == 0, res.output
    assert "filed 1 new receipt(s)" in res.output
    assert (p.copy / ".pbem" / "receipts" / "0000-south-001.pbem").is_file()
    # "resend GAME" sends the step's mail again, the receipt with it
    again = table.exchange(mail(south, f"resend {table.gid}\n", subject="please")[0])[south]
    resent = next(m for m in again if parse_mail(m)["Subject"].endswith("(resent)"))
    assert f"receipt-{table.gid}-0000-south-1.asc" in _names(resent) and "0001-south.pbem" in _names(resent)
