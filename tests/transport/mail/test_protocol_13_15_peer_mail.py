"""docs/protocol.md §13.15, a game with no referee by mail: each player mails its signed messages to every other
side through its own account (``pbem mail account`` with one ``--to`` per other side, ``pbem mail send``) and takes
in what it receives (``pbem mail import``); against a real SMTP server (aiosmtpd) on 127.0.0.1, the mails saved as
a mail client saves them. The three-player rock-paper-scissors toy played whole by mail, Hammer's first year and
winter by mail, and the mails a cheat or an accident would send."""

from __future__ import annotations

import email
import email.policy
import filecmp
import json
import mailbox
from pathlib import Path

from mailworld import SMTP_PASSWORD, SMTP_USER, Smtp
from support.hammer_peer_bot import order
from support.peer_cli import HammerByCli
from support.rps_peer_table import SEATS, THROWS, Table, run
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import armor, identity
from pbem.core.peer import folder as peer
from pbem.core.peer import message
from pbem.transport.mail import compose, player_mail

HAMMER_SIDES = ("england", "scotland")


def address(side: str) -> str:
    return f"{side}@friends.test"


def pbem(*args: str | Path, ok: bool = True) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args], env={player_mail.PASSWORD_ENV: SMTP_PASSWORD})
    assert (result.exit_code == 0) == ok, result.output
    return result.output


class Post:
    """The players' mail: each side's account on the SMTP server (one ``--to`` per other side), and each side's
    mails, as they arrive, saved into a fresh Maildir of its own (as a mail client keeps them) and taken in
    (``pbem mail import``)."""

    def __init__(self, tmp: Path, smtp: Smtp, dirs: dict[str, Path]) -> None:
        self.tmp, self.smtp, self.dirs, self.read = tmp, smtp, dirs, {s: 0 for s in dirs}
        for s in dirs:
            others = [a for o in dirs if o != s for a in ("--to", address(o))]
            pbem("mail", "account", "--game", dirs[s], "--host", "127.0.0.1", "--port", str(smtp.port),
                 "--security", "none", "--user", SMTP_USER, "--from", address(s), *others)

    def inbox(self, side: str) -> list[bytes]:
        return list(self.smtp.mailer.delivered.get(address(side), []))

    def mail(self, side: str, text_file: Path) -> None:
        assert "mailed " in pbem("mail", "send", text_file, "--game", self.dirs[side])

    def collect(self, side: str) -> str:
        """The mails new in ``side``'s inbox saved into a fresh Maildir and taken in; the import's output."""
        new = self.inbox(side)[self.read[side]:]
        self.read[side] += len(new)
        box = self.tmp / f"{side}-mail-{self.read[side]}"
        md = mailbox.Maildir(str(box), create=True)
        for raw in new:
            md.add(raw)
        return pbem("mail", "import", box, "--game", self.dirs[side])


class MailTable(Table):
    """The RPS table of the peer CLI tests, each message mailed (``pbem mail send``) and taken in from each other
    side's mail (``pbem mail import``)."""

    def __init__(self, tmp: Path, smtp: Smtp) -> None:
        super().__init__(tmp)
        self.post = Post(tmp, smtp, self.dirs)
        self.inbox, self.collect = self.post.inbox, self.post.collect

    def send(self, side: str, text_file: Path, to: tuple[str, ...] = SEATS) -> None:
        self.post.mail(side, text_file)
        for s in to:
            if s != side:
                self.collect(s)


class MailHammer(HammerByCli):
    """Braveheart with no referee opened and joined through the CLI verbs (the join files handed over), then every
    message mailed."""

    def __init__(self, tmp: Path, smtp: Smtp) -> None:
        super().__init__(tmp, HAMMER_SIDES)
        self.post = Post(tmp, smtp, self.dirs)

    def deliver(self, side: str, sealed: Path) -> None:
        self.post.mail(side, sealed)
        self.post.collect(self.other(side))


def test_protocol_13_15_two_players_play_hammer_s_first_year_and_winter_by_mail(tmp_path: Path, smtp: Smtp) -> None:
    """Braveheart's first year, its Winter Turn and the next year's deal by mail, every message (commitments, plays,
    reveals, opens, the deals' passes, the winter's claims and seals) mailed through the SMTP server and taken in
    from a Maildir; then England resigns by mail and the final audit's openings go by mail too. Both folders end
    byte for byte alike, verify and audit, and each message reached the other side once."""
    t = MailHammer(tmp_path, smtp)
    england = t.dirs["england"]

    def second_year(status: str) -> bool:
        states = [json.loads(p.read_text()).get("state") for p in sorted((england / "ledger").glob("*.json"))]
        return any(st and st["game"]["year"] > 1297 and st["game"]["phase"] != "winter" for st in states)

    t.play(second_year, lambda side: order(t.dirs[side], side))
    winters = [json.loads(p.read_text()) for p in sorted((england / "ledger").glob("*.json"))]
    assert any(e.get("state", {}).get("game", {}).get("phase") == "winter" for e in winters)
    resign = tmp_path / "resign.asc"
    pbem("game", "resign", england, "--key", t.keys / "england.key", "--out", resign)
    t.deliver("england", resign)
    assert "game is over" in t.play(lambda status: False, lambda side: None)
    t.verify_both_and_compare()
    for s in HAMMER_SIDES:
        assert "audit ok" in run("audit", t.dirs[s])
        held = sorted(p.name for p in (t.dirs[s] / "messages").iterdir())
        theirs = [n for n in held if not n.split(".")[0].endswith(f"-{s}") and "-join-" not in n]  # joins handed
        assert len(t.post.inbox(s)) == len(theirs) > 20


def test_protocol_13_15_three_players_play_a_whole_game_with_no_referee_by_mail(tmp_path: Path, smtp: Smtp) -> None:
    """Joins, starts and every round's commits and reveals go by mail to both other sides; every folder ends with the
    same record, which verifies and audits; each message reached each other side once, from its sender's address."""
    t = MailTable(tmp_path, smtp)
    t.join_and_start()
    for _ in range(4):
        if "over" in run("status", t.dirs["north"]):
            break
        t.round()
    for s in SEATS:
        assert '"winner": "north"' in run("verify", t.dirs[s]) and "audit ok" in run("audit", t.dirs[s])
        held = sorted(p.name for p in (t.dirs[s] / "messages").iterdir())
        assert len(t.inbox(s)) == len([n for n in held if not n.endswith(f"-{s}.pbem")])
        assert all(f"From: {address(s)}".encode() not in raw for raw in t.inbox(s))
    for other in SEATS[1:]:
        cmp = filecmp.dircmp(t.dirs["north"], t.dirs[other], ignore=[".pbem"])
        assert not cmp.left_only and not cmp.right_only and not cmp.diff_files
        for sub in ("ledger", "messages"):
            assert not filecmp.dircmp(t.dirs["north"] / sub, t.dirs[other] / sub).diff_files


def _started(tmp_path: Path, smtp: Smtp) -> tuple[MailTable, bytes]:
    """Everyone started; north seals its commitment of step 1 and mails it; the mail as south received it (south has
    not taken it in)."""
    t = MailTable(tmp_path, smtp)
    t.join_and_start()
    sealed = t.seal("north", THROWS["north"])
    pbem("mail", "send", sealed, "--game", t.dirs["north"])
    return t, t.inbox("south")[-1]


def _import_one(t: MailTable, side: str, raw: bytes, name: str, ok: bool = True) -> str:
    path = t.tmp / f"{name}.eml"
    path.write_bytes(raw)
    return pbem("mail", "import", path, "--game", t.dirs[side], ok=ok)


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_protocol_13_15_a_tampered_attachment_is_refused_and_nothing_is_taken(tmp_path: Path, smtp: Smtp) -> None:
    """The attachment of north's mail changed on the way (one character of its armored body): the import refuses the
    mail in one sentence and south's folder is as it was."""
    t, raw = _started(tmp_path, smtp)
    before = _files(t.dirs["south"])
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    part = next(p for p in mail.walk() if (p.get_filename() or "").endswith(".pbem"))
    text = part.get_payload(decode=True)
    lines = text.split(b"\n")
    k = next(n for n, line in enumerate(lines) if line and not line.startswith(b"-----") and b":" not in line)
    lines[k] = (b"B" if lines[k][:1] == b"A" else b"A") + lines[k][1:]
    tampered = compose.message(address("north"), [address("south")], "tampered", "see attached", "<t@friends.test>",
                               attachments=[(part.get_filename() or "", b"\n".join(lines), "text/plain")]).as_bytes()
    out = _import_one(t, "south", tampered, "tampered", ok=False)
    assert "Nothing was taken in (protocol §13.15)." in out and "Traceback" not in out
    assert _files(t.dirs["south"]) == before


def test_protocol_13_15_a_message_signed_by_another_sides_key_is_refused(tmp_path: Path, smtp: Smtp) -> None:
    """East forges a commitment in north's name, signed with east's own key, and mails it: refused whole."""
    t, _ = _started(tmp_path, smtp)
    man = peer.manifest(t.dirs["east"])
    out = peer.outcome(t.dirs["east"])
    east = identity.load_private(t.key("east"))
    forged = message.write(east, man.game, "north", 1, peer.entry_hash(out.entries[-1]), "commit", 5,
                           {"commitment": "00" * 32})
    before = _files(t.dirs["south"])
    path = t.tmp / "forged.asc"
    path.write_text(forged)
    out_text = pbem("mail", "import", path, "--game", t.dirs["south"], ok=False)
    assert "is signed by a key that is not" in out_text and "Nothing was taken in" in out_text
    assert _files(t.dirs["south"]) == before


def test_protocol_13_15_a_mail_of_another_game_is_left_alone_and_a_replay_changes_nothing(
        tmp_path: Path, smtp: Smtp) -> None:
    """A message of another peer game in the same mailbox is left alone (said); the same mail taken twice takes
    nothing the second time; a mail carrying no message at all is refused in one sentence."""
    t, raw = _started(tmp_path, smtp)
    assert "took 1 new message(s)" in _import_one(t, "south", raw, "first")
    before = _files(t.dirs["south"])
    again = _import_one(t, "south", raw, "again")
    assert "took 0 new message(s)" in again and "1 it held already" in again
    assert _files(t.dirs["south"]) == before
    other = Table(tmp_path / "other", name="rps2")
    other.join_and_start()
    foreign = next((other.dirs["north"] / "messages").glob("0000-start-north.pbem")).read_bytes()
    path = t.tmp / "foreign.asc"
    path.write_bytes(foreign)
    out = pbem("mail", "import", path, "--game", t.dirs["south"])
    assert "took 0 new message(s)" in out and "left alone 1 file(s)" in out
    assert _files(t.dirs["south"]) == before
    empty = t.tmp / "empty.eml"
    empty.write_bytes(b"From: a@b.test\r\nTo: south@friends.test\r\nSubject: hi\r\n\r\nno message here\r\n")
    assert "holds nothing for pbem" in pbem("mail", "import", empty, "--game", t.dirs["south"], ok=False)


def test_protocol_13_15_send_mails_only_a_message_of_this_game_its_folder_holds(tmp_path: Path, smtp: Smtp) -> None:
    """A message this folder never took (another folder's) and a file that is no message of this game are refused
    before anything is sent; a refereed game's account takes one --to only."""
    t, _ = _started(tmp_path, smtp)
    sent = sum(len(v) for v in smtp.mailer.delivered.values())
    south_commit = t.seal("south", THROWS["south"])  # south's own commit: its folder holds it
    east_folder = t.dirs["east"]
    out = pbem("mail", "send", south_commit, "--game", east_folder, ok=False)
    assert "does not hold" in out and "nothing was sent" in out
    junk = tmp_path / "junk.asc"
    junk.write_text("not a message")
    out = pbem("mail", "send", junk, "--game", t.dirs["south"], ok=False)
    assert "junk.asc" in out and "Traceback" not in out
    assert sum(len(v) for v in smtp.mailer.delivered.values()) == sent
    g = tmp_path / "refereed"
    from pbem.core import game as core_game
    keys = {n: identity.generate(n) for n in ("referee", "north", "south")}
    core_game.new_game(g, "rps", "standard", {}, keys["referee"], {s: keys[s].public for s in ("north", "south")})
    out = pbem("mail", "account", "--game", g, "--host", "127.0.0.1", "--port", "25", "--security", "none",
               "--from", "a@x.test", "--to", "r@x.test", "--to", "s@x.test", ok=False)
    assert "a refereed game's orders go to one address" in out


def test_protocol_13_15_a_forgery_mailed_beside_a_true_message_refuses_the_whole_mailbox_and_loses_no_mail(
        tmp_path: Path, smtp: Smtp) -> None:
    """East forges north's commitment with its own key and mails it through its own account and the real SMTP
    server (``pbem mail send`` would refuse it: its folder never took it); south saves it beside north's true
    mail. The import refuses them all in one sentence naming the forged mail and §13.15, takes nothing (not even
    north's true message) and loses no mail; once the forgery is set aside, north's message is taken."""
    t, _ = _started(tmp_path, smtp)
    man = peer.manifest(t.dirs["east"])
    east = identity.load_private(t.key("east"))
    forged = message.write(east, man.game, "north", 1, peer.entry_hash(peer.outcome(t.dirs["east"]).entries[-1]),
                           "commit", 5, {"commitment": "00" * 32})
    account = player_mail.needed(t.dirs["east"])
    raw = compose.message(address("east"), [address("south")], "north's commit", "see attached", "<f@friends.test>",
                          attachments=[("0001-commit-north.pbem", forged.encode("ascii"), "text/plain")]).as_bytes()
    player_mail.deliver(account, SMTP_PASSWORD, [address("south")], raw)
    box = t.tmp / "south-box"  # the mails saved one file each, in the order they came: the forgery read last
    box.mkdir()
    for n, mail in enumerate(t.inbox("south")):  # the joins, the start, north's true commit, the forgery
        (box / f"{n:03}.eml").write_bytes(mail)
    saved = _files(box)
    before = _files(t.dirs["south"])
    out = pbem("mail", "import", box, "--game", t.dirs["south"], ok=False)
    assert f"south-box/{len(saved) - 1:03}.eml" in out and "is signed by a key that is not" in out
    assert "Nothing was taken in (protocol §13.15)." in out and "Traceback" not in out
    assert _files(t.dirs["south"]) == before
    assert _files(box) == saved
    (box / f"{len(saved) - 1:03}.eml").unlink()
    assert "took 1 new message(s)" in pbem("mail", "import", box, "--game", t.dirs["south"])


def test_protocol_13_15_a_message_changed_under_good_armor_is_caught_by_its_signature(
        tmp_path: Path, smtp: Smtp) -> None:
    """Someone on the mail path changes one byte of north's signed message and armors it again properly (so only
    the signature can tell) and mails it on through the real SMTP server: south's import refuses it in one
    sentence naming the mail and §13.15, and south's folder is as it was."""
    t, raw = _started(tmp_path, smtp)
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    part = next(p for p in mail.walk() if (p.get_filename() or "").endswith(".pbem"))
    signed = bytearray(armor.dearmor(part.get_payload(decode=True)))
    at = bytes(signed).index(b'"commitment"')  # a byte of the payload, inside what the signature covers
    signed[at + 20] = ord("0") if signed[at + 20] != ord("0") else ord("1")
    changed = compose.message(address("north"), [address("south")], "on the way", "see attached", "<c@friends.test>",
                              attachments=[(part.get_filename() or "", armor.armor(bytes(signed)).encode("ascii"),
                                            "text/plain")]).as_bytes()
    player_mail.deliver(player_mail.needed(t.dirs["east"]), SMTP_PASSWORD, [address("south")], changed)
    before = _files(t.dirs["south"])
    out = _import_one(t, "south", t.inbox("south")[-1], "changed", ok=False)
    assert "changed.eml" in out and "Nothing was taken in (protocol §13.15)." in out and "Traceback" not in out
    assert _files(t.dirs["south"]) == before


def test_protocol_13_15_a_server_that_refuses_one_address_says_which_and_the_others_still_get_it(
        tmp_path: Path, smtp: Smtp) -> None:
    """The server takes north's mail for south and refuses east's address: pbem mail send fails in one sentence
    naming east's address, and south's copy arrived (north sends it again to east alone, or east imports a
    relayed copy)."""
    t, _ = _started(tmp_path, smtp)
    smtp.mailer.refused.add(address("east"))
    sealed = t.seal("south", THROWS["south"])
    before = len(t.inbox("north"))
    out = pbem("mail", "send", sealed, "--game", t.dirs["south"], ok=False)
    assert f"refused the address {address('east')}" in out and "the mail went to the others only" in out
    assert len(t.inbox("north")) == before + 1 and "Traceback" not in out
