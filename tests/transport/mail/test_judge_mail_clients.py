"""What real mail clients and hostile senders do to a mail (issue 12 items 4-5; docs/judge.md, limits).

One judge serves one rock-paper-scissors game through real servers (aiosmtpd, pymap); each test
mails it one message shaped like a client shapes it, and checks the single answer.
"""

from __future__ import annotations

import base64
import os
import quopri
import time
from pathlib import Path

import pytest
from mail_table import Table, hostile, mail, only_reply, received
from mailworld import JUDGE, parse_mail

from pbem.core import armor, identity
from pbem.core import game as core_game
from pbem.transport.mail import runner
from pbem.transport.mail.judge import PLAYER_REFUSALS_PER_HOUR

# --- item 4: real mail clients ---

def test_armor_pasted_in_the_body(table: Table) -> None:
    raw, _ = mail("north@player.test", "Here are my orders.\n\n" + table.order())
    received(table, raw)


def test_armor_attached_as_a_file(table: Table) -> None:
    raw, mid = mail("north@player.test", "", ctype='multipart/mixed; boundary="b1"')
    att = base64.encodebytes(table.order().encode()).decode()
    raw += (f"--b1\nContent-Type: text/plain\n\nsee attached\n--b1\nContent-Type: application/octet-stream\n"
            f"Content-Disposition: attachment; filename=\"orders.asc\"\nContent-Transfer-Encoding: base64\n\n"
            f"{att}\n--b1--\n").encode()
    received(table, raw)


def test_binary_envelope_attached(table: Table) -> None:
    raw, _ = mail("north@player.test", "", ctype='multipart/mixed; boundary="b1"')
    binary = armor.dearmor(table.order())
    raw += (f"--b1\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"o.pbem\"\n"
            f"Content-Transfer-Encoding: base64\n\n{base64.encodebytes(binary).decode()}\n--b1--\n").encode()
    received(table, raw)


def test_quoted_printable_body(table: Table) -> None:
    body = quopri.encodestring(("Orders — voilà\n" + table.order()).encode("utf-8"))
    raw, _ = mail("north@player.test", body, cte="quoted-printable")
    received(table, raw)


def test_base64_body(table: Table) -> None:
    raw, _ = mail("north@player.test", base64.encodebytes(table.order().encode()), cte="base64")
    received(table, raw)


def test_crlf_line_ends(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order(), crlf=True)
    assert b"\r\n-----END PBEM ENVELOPE-----\r\n" in raw
    received(table, raw)


def test_html_alternative_part(table: Table) -> None:
    order = table.order()
    html = "<html><body><p>My orders</p><pre>" + order.replace("\n", "<br>") + "</pre></body></html>"
    raw, _ = mail("north@player.test", "", ctype='multipart/alternative; boundary="alt"')
    raw += (f"--alt\nContent-Type: text/plain\n\n{order}\n--alt\nContent-Type: text/html\n\n{html}\n--alt--\n").encode()
    received(table, raw)


def test_html_only_mail(table: Table) -> None:
    order = table.order()
    html = "<div>" + "</div><div>".join(order.splitlines()) + "</div>"
    raw, _ = mail("north@player.test", html, ctype="text/html; charset=utf-8")
    received(table, raw)


def test_signature_below_the_armor(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order() + "\n-- \nAnn of the North\nSent from my phone\n")
    received(table, raw)


def test_quoted_reply_with_gt(table: Table) -> None:
    quoted = "\n".join("> " + line for line in table.order().splitlines())
    raw, _ = mail("north@player.test", "Resending, see below.\n\nOn Monday the judge wrote:\n" + quoted + "\n",
                  subject="Re: orders")
    received(table, raw)


def test_several_envelopes_in_one_mail_each_get_a_receipt(table: Table) -> None:
    first, second = table.order(throw="rock"), table.order(throw="paper")
    raw, _ = mail("north@player.test", first + "\nand the one I mean:\n" + second)
    text = received(table, raw)
    assert text.count("Received") == 2


def test_judge_mail_lines_are_short_and_armor_is_64_columns(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order())
    got = table.exchange(raw)["north@player.test"][0]
    assert max(len(line) for line in got.split(b"\r\n")) <= 78
    msg = parse_mail(got)
    for part in msg.walk():
        if part.get_filename(""):
            text = part.get_payload(decode=True).decode()
            if armor.BEGIN in text:
                assert all(len(line) <= 64 for line in text.splitlines() if not line.startswith("-----"))


# --- item 5 and hostile mail: one answer, nothing changed ---

def test_duplicate_delivery_is_processed_once(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order())
    received(table, raw)
    snap = table.snapshot()
    assert table.exchange(raw) == {}
    assert table.snapshot() == snap


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "Precedence: bulk", "Precedence: junk",
                                    "Precedence: list", "Return-Path: <>"])
def test_automatic_mail_is_never_answered(table: Table, header: str) -> None:
    raw, _ = mail("north@player.test", "I am away until Monday.\n", headers=header + "\n")
    assert table.exchange(raw) == {}


@pytest.mark.slow
def test_a_mail_loop_with_a_broken_auto_responder_stops(table: Table) -> None:
    """An auto-responder that ignores Auto-Submitted answers every judge mail; the judge's refusals are capped
    (for a registered player at PLAYER_REFUSALS_PER_HOUR, the last of them saying so; docs/judge.md §7)."""
    raw, _ = mail("north@player.test", "Out of office.\n")
    answers = []
    for n in range(PLAYER_REFUSALS_PER_HOUR + 3):  # each judge answer triggers the next auto-reply
        got = table.exchange(raw.replace(b"Message-ID: <", f"Message-ID: <{n}.".encode(), 1))
        answers.append(len(got.get("north@player.test", [])))
    assert answers == [1] * PLAYER_REFUSALS_PER_HOUR + [0] * 3  # answers at first, then silence
    table.parts.judge.journal.db.execute("DELETE FROM refusals")  # the next hour, for the other tests


def test_the_judges_own_mail_is_not_answered(table: Table) -> None:
    raw, _ = mail(JUDGE, "help\n", subject="help")
    assert table.exchange(raw) == {}


def test_huge_mail_is_refused_with_one_reply(table: Table) -> None:
    raw, _ = mail("south@player.test", "x" * 2_100_000)
    assert "over the judge's limit" in hostile(table, raw)


def test_malformed_mime_is_refused_with_one_reply(table: Table) -> None:
    raw, _ = mail("south@player.test", "--nope\nContent-Type: text/plain\n\nbroken\n",
                  ctype='multipart/mixed; boundary="never-closed"', cte="base64")
    hostile(table, raw)


def test_binary_junk_is_refused_with_one_reply(table: Table) -> None:
    raw, _ = mail("south@player.test", os.urandom(5000), ctype="application/octet-stream", cte="8bit")
    hostile(table, raw)


def test_armor_around_junk_is_refused(table: Table) -> None:
    junk = base64.b64encode(os.urandom(300)).decode()
    body = armor.BEGIN + "\n" + "\n".join(junk[i:i + 64] for i in range(0, len(junk), 64)) + "\n" + armor.END + "\n"
    assert "Refused" in hostile(table, mail("south@player.test", body)[0])


def test_envelope_for_another_game_is_refused(table: Table, tmp_path: Path) -> None:
    from pbem.core import game as g

    other = tmp_path / "other"
    south = table.players["south"]
    keys = {s: identity.load_public(p.pub_file()) for s, p in table.players.items()}
    g.new_game(other, "rps", "standard", {}, identity.generate("ref"), keys)
    order = g.write_order(other, south.key, "south", 0, {"side": "south", "step": 0, "throw": "rock"})
    assert "does not run" in hostile(table, mail("south@player.test", order)[0])


def test_forged_from_is_refused_and_told_to_the_real_address(table: Table) -> None:
    """From says south, the envelope is south's side signed by another key: the signature decides."""
    step = core_game.status(table.dir)["step"]
    impostor = identity.generate("impostor")
    from pbem.core import envelope as env_mod
    from pbem.core.canonical import canonical_bytes

    man_ref = core_game.led.read_manifest(table.dir).referee
    entry = core_game.led.latest(table.dir, core_game.led.read_manifest(table.dir))
    payload = canonical_bytes({"entropy": "00" * 32, "order": {"side": "south", "step": step, "throw": "rock"}})
    forged = armor.armor(env_mod.seal(impostor, [man_ref], payload, game=table.gid, kind="order", side="south",
                                      step=step, answers=entry.hash))
    assert "not signed by that side's key" in hostile(table, mail("south@player.test", forged)[0])


def test_unregistered_sender_gets_no_answer(table: Table) -> None:
    raw, _ = mail("stranger@elsewhere.test", "help\n", subject="help")
    assert table.exchange(raw) == {}


# --- mail commands ---

def test_help_status_and_resend_commands(table: Table) -> None:
    text = only_reply(table.exchange(mail("north@player.test", "help\n", subject="help")[0]), "north@player.test")
    assert "status [GAME]" in text
    text = only_reply(table.exchange(mail("north@player.test", "", subject="status")[0]), "north@player.test")
    assert f"Game {table.gid}: step" in text
    got = table.exchange(mail("north@player.test", f"resend {table.gid} all\n", subject="please")[0])
    assert len(got["north@player.test"]) == 2  # the answer, and the resent report with every public file
    names = [p.get_filename() for m in got["north@player.test"] for p in parse_mail(m).walk() if p.get_filename()]
    assert f"{table.gid}-all.pbem-files.json" in names


def test_a_mail_that_crashes_the_judge_is_set_aside_after_three_tries(table: Table,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.transport.mail import inbound

    real = inbound.parse

    def boom(raw: bytes, own: str, max_bytes: int) -> inbound.Inbound:
        if b"make-me-crash" in raw:
            raise RuntimeError("a bug")
        return real(raw, own, max_bytes)

    monkeypatch.setattr(inbound, "parse", boom)
    raw, mid = mail("north@player.test", "make-me-crash\n")
    table.world.to_judge(raw)
    for _ in range(runner.GIVE_UP_AFTER + 2):
        time.sleep(0.1)
        runner.step(table.parts)
    assert table.parts.judge.journal.seen(mid)
    received(table, mail("north@player.test", table.order())[0])  # the judge goes on


def test_subject_with_line_breaks_cannot_inject_headers(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order(), subject="=?utf-8?q?orders=0D=0ABcc=3A_x=40evil=2Etest?=")
    got = table.exchange(raw)
    assert list(got) == ["north@player.test"]
    head = got["north@player.test"][0].split(b"\r\n\r\n")[0]
    assert b"\r\nBcc:" not in head and b"Subject: Re: orders Bcc: x@evil.test" in head


def test_a_reply_quoting_the_judges_receipt_with_a_new_order_gets_one_receipt(table: Table) -> None:
    raw, _ = mail("north@player.test", table.order())
    first = parse_mail(table.exchange(raw)["north@player.test"][0])
    receipt = next(p for p in first.walk() if (p.get_filename() or "").startswith("receipt-"))
    quoted = "\n".join("> " + line for line in receipt.get_content().splitlines())
    raw, _ = mail("north@player.test", table.order(throw="scissors") + "\nOn Monday the judge wrote:\n" + quoted + "\n")
    text = received(table, raw)
    assert text.count("Received") == 1 and "Refused" not in text and "Ignored" not in text


def test_a_busy_game_leaves_the_mail_for_the_next_pass(table: Table) -> None:
    """Another pbem command writing the game (the lock held): the mail is not refused, it waits."""
    from pbem.transport.mail import adapter

    raw, mid = mail("north@player.test", table.order())
    with adapter.game_lock(table.dir):
        table.world.to_judge(raw)
        for _ in range(3):
            time.sleep(0.1)
            runner.step(table.parts)
        assert not table.parts.judge.journal.seen(mid)
    table.pump()
    assert table.parts.judge.journal.seen(mid)


def test_armor_indented_by_the_client_is_refused_with_the_readers_reason(table: Table) -> None:
    """Protocol §3: leading white space on an armor line is refused; the judge says so, as the CLI would."""
    indented = "\n".join("    " + line for line in table.order().splitlines())
    text = only_reply(table.exchange(mail("north@player.test", indented)[0]), "north@player.test")
    assert text.startswith("Refused your envelope:") and "protocol §3" in text and "Nothing" not in text[:15]


def test_a_mail_with_too_many_envelopes_is_refused_whole(table: Table) -> None:
    from pbem.transport.mail.judge import MAX_ENVELOPES

    snap = table.snapshot()
    orders = "\n".join(table.order() for _ in range(MAX_ENVELOPES + 1))
    text = only_reply(table.exchange(mail("south@player.test", orders)[0]), "south@player.test")
    assert text.startswith(f"Refused: your mail holds {MAX_ENVELOPES + 1} envelopes")
    assert table.snapshot() == snap


def test_an_adjudication_that_meets_another_writer_is_done_on_the_next_pass(table: Table,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.transport.mail import adapter

    real, calls = adapter.adjudicate, []

    def busy_once(*args: object, **kw: object) -> adapter.View:
        calls.append(1)
        if len(calls) == 1:
            raise adapter.GameBusy("game is busy: another pbem command is writing it")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(adapter, "adjudicate", busy_once)
    step = core_game.status(table.dir)["step"]
    raw, _ = mail("north@player.test", table.order("north") + "\n" + table.order("south"))
    table.exchange(raw)
    assert len(calls) >= 2 and core_game.status(table.dir)["step"] == step + 1


def test_a_reply_quoting_the_help_text_without_gt_runs_no_command(table: Table) -> None:
    """Some clients quote without "> ": the help text's own lines ("  help    this text") are not commands."""
    from pbem.transport.mail import compose, inbound

    inb = inbound.parse(mail("north@player.test", "Thanks!\n\n" + compose.HELP, subject="Re: your mail")[0],
                        JUDGE, 10**6)
    assert inb.commands == []
    inb = inbound.parse(mail("north@player.test", "resend rps-1 ALL\n", subject="Re: x")[0], JUDGE, 10**6)
    assert inb.commands == [("resend", ["rps-1", "all"])]
