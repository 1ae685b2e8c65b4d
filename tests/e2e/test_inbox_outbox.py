"""docs/playing.md "Your mailbox": the referee's ``pbem outbox`` writes one mail per player per step
(report, receipts, the record's changes); the player's ``pbem inbox`` takes it in (verified), files the
receipts where ``pbem audit`` finds them by itself, and opens the new report. Real files end to end;
every hostile input is refused in one sentence and changes nothing (protocol §3.1, §9.2)."""

from __future__ import annotations

import email
import email.policy
import shutil
from pathlib import Path

import pytest
from e2e_support import new_game, run, runner

from pbem.cli.main import app
from pbem.core import game as core_game

SIDES = ("england", "scotland")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and not p.name.endswith(".lock") and p.name != "seen.json"}


def refused(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.output.startswith("error: "), result.output
    return result.output


class Table:
    """A referee's folder and one copy per player, kept in step only by mails (.eml files)."""

    def __init__(self, root: Path) -> None:
        self.root, self.keys, self.g = root, root / "keys", new_game(root)
        self.game = core_game.status(self.g)["game"]
        self.home = {s: root / s for s in SIDES}
        for h in self.home.values():
            h.mkdir()

    def key(self, side: str) -> Path:
        return self.keys / f"{side}.key"

    def copy(self, side: str) -> Path:
        return self.home[side] / str(self.game)

    def outbox(self, *extra: str | Path) -> dict[str, Path]:
        out = self.root / "out"
        run("outbox", self.g, "--key", self.keys / "referee.key", "--out", out, *extra)
        step = core_game.status(self.g)["step"]
        return {s: out / f"{self.game}-{step:04d}-{s}.eml" for s in SIDES}

    def inbox(self, side: str, *paths: Path) -> str:
        return run("inbox", *paths, "--key", self.key(side), "--game", self.copy(side))

    def seal(self, side: str, step: int) -> Path:
        folder = self.copy(side) if self.copy(side).is_dir() else self.g
        rep = core_game.report_path(folder, step, side)
        draft, sealed = self.home[side] / f"{step}.toml", self.home[side] / f"{step}.asc"
        run("orders", "auto", rep, "--key", self.key(side), "--out", draft, "--seed", "01")
        run("orders", "seal", draft, "--key", self.key(side), "--game", folder, "--out", sealed)
        return sealed


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    mails = t.outbox()
    for s in SIDES:
        t.home[s].joinpath(mails[s].name).write_bytes(mails[s].read_bytes())
        out = run("inbox", t.home[s] / mails[s].name, "--key", t.key(s), "--game", t.copy(s))
        assert "the copy verifies (1 ledger entries)" in out and f"{s} - step 0" in out
    return t


def _attachments(eml: Path) -> list[str]:
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    return [p.get_filename() or "" for p in msg.walk() if p.get_filename()]


def test_outbox_writes_one_mail_per_player_with_report_receipt_and_record(table: Table) -> None:
    sealed = {s: table.seal(s, 0) for s in SIDES}
    run("adjudicate", table.g, sealed["england"], sealed["scotland"], "--key", table.keys / "referee.key")
    mails = table.outbox("--to", "england=alice@example.org")
    for s in SIDES:
        names = _attachments(mails[s])
        assert names[0] == f"0001-{s}.pbem" and names[1] == f"{table.game}-0001.pbem-files.json"
        assert names[2:] == [f"receipt-{table.game}-0000-{s}-1.asc"]  # the side's own receipt only
    assert "To: alice@example.org" in mails["england"].read_text()
    out = table.inbox("england", mails["england"])
    assert "filed 1 new receipt(s)" in out and "england - step 1" in out
    assert (table.copy("england") / ".pbem" / "receipts" / "0000-england-001.pbem").is_file()
    again = table.inbox("england", mails["england"])  # a mail taken in twice changes nothing
    assert "imported 0 new file(s)" in again and "0 new receipt(s)" in again and "1 already kept" in again
    folders = table.root / "folders"
    run("outbox", table.g, "--key", table.keys / "referee.key", "--out", folders, "--folders")
    one = folders / f"{table.game}-0001-scotland"
    assert sorted(p.name for p in one.iterdir()) == sorted(["mail.txt", *_attachments(mails["scotland"])])
    (one / f"{table.game}-reveal.json").write_text('{"not": "a files bundle"}')  # saved beside: passed over
    assert "scotland - step 1" in table.inbox("scotland", one)  # a folder of saved attachments


def test_inbox_takes_a_mailbox_and_a_maildir(table: Table) -> None:
    sealed = {s: table.seal(s, 0) for s in SIDES}
    run("adjudicate", table.g, sealed["england"], sealed["scotland"], "--key", table.keys / "referee.key")
    mails = table.outbox()
    mbox = table.root / "mbox"
    other = b"From: friend@example.org\nSubject: lunch?\n\nSee you at noon.\n"
    mbox.write_bytes(b"From x Fri Nov 27 10:00:00 2026\n" + other + b"\nFrom y Fri Nov 27 11:00:00 2026\n"
                     + mails["england"].read_bytes())
    assert "england - step 1" in table.inbox("england", mbox)
    maildir = table.root / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "cur" / "1.eml").write_bytes(other)
    (maildir / "new" / "2.eml").write_bytes(mails["scotland"].read_bytes())
    assert "scotland - step 1" in table.inbox("scotland", maildir)


def test_audit_finds_the_filed_receipts_by_itself_and_catches_a_defaulted_order(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """§9.2 ATTACK: the referee receipts England's order, then drops it and gives England the default
    orders. The receipt England's inbox filed is enough: audit, given no --receipt, proves it."""
    sealed = table.seal("england", 0)
    receipt = table.root / "receipt.asc"
    run("game", "receive", table.g, sealed, "--key", table.keys / "referee.key", "--receipt-out", receipt)
    assert "filed 1 new receipt(s)" in table.inbox("england", receipt)
    run("game", "receive", table.g, table.seal("scotland", 0), "--key", table.keys / "referee.key")
    (table.g / ".pbem" / "pending" / "0000-england.pbem").unlink()  # the cheat: the order is dropped ...
    deadline = core_game.status(table.g)["deadline"]
    monkeypatch.setattr("time.time", lambda: float(deadline) + 1)
    run("adjudicate", table.g, "--key", table.keys / "referee.key", "--deadline-passed")  # ... and defaulted
    table.inbox("england", table.outbox()["england"])
    reveal = table.root / "reveal.json"
    run("game", "reveal", table.g, "--key", table.keys / "referee.key", "--out", reveal, "--mid-game")
    for p in ("orders", "reports", "state"):  # the rest of the public record, as published
        shutil.copytree(table.g / p, table.copy("england") / p, dirs_exist_ok=True)
    out = refused("audit", table.copy("england"), "--reveal", reveal)
    assert "england was given default orders at step 0" in out and "0000-england-001.pbem" in out
    run("audit", table.copy("england"), "--reveal", reveal, "--no-kept-receipts")


def test_mail_import_accepts_a_receipt_mail(table: Table) -> None:
    sealed = table.seal("scotland", 0)
    receipt = table.root / "receipt.asc"
    run("game", "receive", table.g, sealed, "--key", table.keys / "referee.key", "--receipt-out", receipt)
    mail = table.root / "receipt.eml"
    mail.write_text("From: referee@example.org\nSubject: your receipt\n\nKeep it:\n\n" + receipt.read_text())
    out = run("mail", "import", mail, "--game", table.copy("scotland"))
    assert "filed 1 new receipt(s)" in out
    assert (table.copy("scotland") / ".pbem" / "receipts" / "0000-scotland-001.pbem").is_file()


@pytest.mark.parametrize("attack", ["other-game", "not-mine", "another-sides-receipt", "forged-receipt",
                                    "replayed-receipt", "garbage", "nothing-for-pbem"])
def test_inbox_refuses_a_hostile_input_in_one_sentence_and_changes_nothing(
        table: Table, tmp_path: Path, attack: str) -> None:
    before = snapshot(table.copy("england"))
    bad = tmp_path / "bad.eml"
    if attack == "other-game":  # another game's mail, into this game's copy
        other = Table(tmp_path / "elsewhere")
        bad = other.outbox()["england"]
        want = "holds game"
    elif attack == "not-mine":  # another game's mail to a fresh folder, with a key that plays no side there
        from pbem.hammer.play.demo import make_keys
        make_keys(tmp_path / "k2")
        other = Table(tmp_path / "elsewhere")
        out = refused("inbox", other.outbox()["england"], "--key", tmp_path / "k2" / "england.key", "--game",
                      tmp_path / "fresh")
        assert "your key plays no side of game" in out and not list((tmp_path / "fresh").rglob("*.toml"))
        return
    elif attack in ("another-sides-receipt", "forged-receipt", "replayed-receipt"):
        side = "scotland" if attack == "another-sides-receipt" else "england"
        if attack == "replayed-receipt":  # a true receipt of another game
            other = Table(tmp_path / "elsewhere")
            sealed = other.seal("england", 0)
            run("game", "receive", other.g, sealed, "--key", other.keys / "referee.key", "--receipt-out", bad)
            want = "is for game"
        else:
            sealed = table.seal(side, 0)
            run("game", "receive", table.g, sealed, "--key", table.keys / "referee.key", "--receipt-out", bad)
            want = "is scotland's receipt, but your key is england's"
        if attack == "forged-receipt":  # England's receipt re-signed by Scotland
            from pbem.cli.key import load_key
            from pbem.core import armor
            from pbem.core import envelope as env_mod
            env = env_mod.read(bad.read_text(), "r")
            h = env.header
            forged = env_mod.sign_only(load_key(table.key("scotland"), None), env.body, game=h.game, kind=h.kind,
                                       side=h.side, step=h.step, answers=h.answers)
            bad.write_text(armor.armor(forged))
            want = "is signed by a key that is not referee's"
    elif attack == "garbage":
        bad.write_bytes(b"\x00\x01 not a mail at all \xff" * 10)
        want = "holds nothing for pbem"
    else:
        bad.write_text("From: friend@example.org\nSubject: hello\n\nNothing here.\n")
        want = "holds nothing for pbem"
    out = refused("inbox", bad, "--key", table.key("england"), "--game", table.copy("england"))
    assert want in out and out.count("\n") <= 2, out
    assert snapshot(table.copy("england")) == before


def _mail_with(path: Path, name: str, data: bytes) -> Path:
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "referee@example.org", "the end"
    msg.set_content("The game is over; the reveal bundle is attached.\n")
    msg.add_attachment(data, maintype="application", subtype="json", filename=name)
    path.write_bytes(msg.as_bytes())
    return path


def test_inbox_keeps_the_reveal_bundle_where_audit_finds_it(table: Table, tmp_path: Path) -> None:
    """protocol §9: the last step's mail carries the reveal bundle; inbox keeps it (checked to be this game's,
    never replaced by another), and audit uses it without --reveal."""
    sealed = {s: table.seal(s, 0) for s in SIDES}
    run("adjudicate", table.g, sealed["england"], sealed["scotland"], "--key", table.keys / "referee.key")
    table.inbox("england", table.outbox()["england"])
    reveal = tmp_path / "reveal.json"
    run("game", "reveal", table.g, "--key", table.keys / "referee.key", "--out", reveal, "--mid-game")
    for p in ("orders", "reports", "state"):
        shutil.copytree(table.g / p, table.copy("england") / p, dirs_exist_ok=True)
    other = Table(tmp_path / "elsewhere")
    foreign = tmp_path / "foreign.json"
    run("game", "reveal", other.g, "--key", other.keys / "referee.key", "--out", foreign, "--mid-game")
    before = snapshot(table.copy("england"))
    out = refused("inbox", _mail_with(tmp_path / "f.eml", f"{table.game}-reveal.json", foreign.read_bytes()),
                  "--key", table.key("england"), "--game", table.copy("england"))
    assert f"is not the reveal bundle of game {table.game}" in out and snapshot(table.copy("england")) == before
    mail = _mail_with(tmp_path / "end.eml", f"{table.game}-reveal.json", reveal.read_bytes())
    out = table.inbox("england", mail)
    assert "the reveal bundle is kept in" in out
    audited = run("audit", table.copy("england"))
    assert "receipt" in audited  # the filed receipt, held to the ledger with the kept reveal
