"""The mail judge for people (issue 22 item 6; docs/judge.md §3 and §7): who is answered and how often,
HTML read as a browser shows it, a byte-order mark, one "Re:".

Same world as test_judge_mail_clients: one rock-paper-scissors game through real servers (aiosmtpd, pymap).
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterator

import pytest
from mail_table import Table, mail, only_reply, received
from mailworld import parse_mail

from pbem.core import armor, identity
from pbem.core import game as core_game
from pbem.transport.mail import adapter
from pbem.transport.mail.htmltext import text_of
from pbem.transport.mail.judge import PLAYER_REFUSALS_PER_HOUR, REFUSALS_PER_HOUR

NORTH = "north@player.test"


@pytest.fixture
def fixed_hour(table: Table, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The judge's clock held still (the limits count per clock hour); the counts cleared before and after."""
    now = table.parts.judge.clock()
    table.parts.judge.journal.db.execute("DELETE FROM refusals")
    monkeypatch.setattr(table.parts.judge, "clock", lambda: now)
    yield now
    table.parts.judge.journal.db.execute("DELETE FROM refusals")


def refusals_sent(table: Table, address: str, now: int) -> int:
    return table.parts.judge.journal.refusals(address, now)


def outcome(table: Table, message_id: str) -> str:
    """What the journal recorded for a handled mail (so "no mail went out" cannot mean "the judge crashed")."""
    row = table.parts.judge.journal.db.execute("SELECT outcome FROM processed WHERE message_id = ?",
                                               (message_id,)).fetchone()
    assert row is not None, f"{message_id} was not handled"
    return str(row[0])


# --- §7 who is answered: rate limits per unregistered sender; a player is told first ---

@pytest.mark.parametrize("body", ["Hello judge, what is this?\n", armor.BEGIN + "\nAAAA\n" + armor.END + "\n"])
def test_judge_7_a_stranger_whose_mail_is_refused_gets_no_mail_at_all(table: Table, body: str) -> None:
    """Backscatter: a mail from an address no game knows earns a refusal, which is mailed to nobody."""
    raw, mid = mail("stranger@elsewhere.test", body)
    assert table.exchange(raw) == {}
    assert outcome(table, mid).startswith("Refused")


def test_judge_7_an_order_from_an_unknown_address_is_answered_only_to_the_sides_registered_address(
        table: Table) -> None:
    """The signature says who spoke; the receipt goes to the side's registered address, never to the sender."""
    got = table.exchange(mail("stranger@elsewhere.test", table.order())[0])
    assert list(got) == [NORTH] and len(got[NORTH]) == 1
    assert "Received" in parse_mail(got[NORTH][0]).get_body(("plain",)).get_content()


def _started_game_nobody_registered(table: Table, spare_joins: int) -> tuple[str, list[str]]:
    """A second game whose sides joined without mail (no address is registered for it), and more joins
    of its north side, written before it started, each refused now."""
    keys = {s: identity.generate(s) for s in ("north", "south")}
    judge = table.parts.judge
    gid = judge.open_game("rps", "standard", {s: k.public for s, k in keys.items()})
    folder = judge.games_dir / gid
    spare = [core_game.write_join(folder, keys["north"], "north") for _ in range(spare_joins)]
    for side, key in keys.items():
        adapter.accept_join(folder, judge.referee, core_game.write_join(folder, key, side).encode(), "join", 1)
    judge.tick(gid)
    assert core_game.status(folder)["step"] == 0 and judge.journal.players(gid) == {}
    return gid, spare


def test_judge_7_an_unregistered_sender_gets_ten_refusals_an_hour_then_no_mail(table: Table, fixed_hour: int,
                                                                              caplog: pytest.LogCaptureFixture) -> None:
    """A join from an address no game knows is answered (the joiner must hear why it failed), but an address
    whose mail keeps being refused is answered REFUSALS_PER_HOUR times in the hour, then never: no mail goes out."""
    gid, joins = _started_game_nobody_registered(table, REFUSALS_PER_HOUR + 3)
    joiner = "late.joiner@elsewhere.test"
    answers = []
    for join in joins:
        raw, mid = mail(joiner, join, subject="join")
        with caplog.at_level(logging.INFO, logger="pbem.judge"):
            got = table.exchange(raw)
        assert set(got) <= {joiner} and "joins are closed" in outcome(table, mid)
        answers.append(len(got.get(joiner, [])))
        if got:
            assert "joins are closed" in only_reply(got, joiner)
    assert answers == [1] * REFUSALS_PER_HOUR + [0] * 3
    assert "the limit for an address no game knows" in caplog.text
    assert table.parts.judge.journal.players(gid) == {}


def test_judge_7_a_player_is_told_in_the_last_refusal_and_never_loses_a_receipt(
        table: Table, fixed_hour: int, caplog: pytest.LogCaptureFixture) -> None:
    """A registered player gets PLAYER_REFUSALS_PER_HOUR refusals an hour (not the strangers' 10); the last one
    says that no more follow this hour and why; the log names the true reason; an order still gets its receipt."""
    journal = table.parts.judge.journal
    journal.db.execute("INSERT OR REPLACE INTO refusals VALUES (?, ?, ?)",  # well past the strangers' limit
                       (NORTH, fixed_hour // 3600, PLAYER_REFUSALS_PER_HOUR - 2))
    junk = "Sorry, forgot the attachment.\n"
    text = only_reply(table.exchange(mail(NORTH, junk)[0]), NORTH)
    assert text.startswith("Refused") and "Note:" not in text
    text = only_reply(table.exchange(mail(NORTH, junk)[0]), NORTH)
    assert f"this is the judge's {PLAYER_REFUSALS_PER_HOUR}th answer this hour to {NORTH}" in text
    assert "still answered" in text
    raw, mid = mail(NORTH, junk)
    with caplog.at_level(logging.INFO, logger="pbem.judge"):
        assert table.exchange(raw) == {}
    assert outcome(table, mid).startswith("Refused")
    assert "not registered" not in caplog.text
    assert f"{NORTH} had {PLAYER_REFUSALS_PER_HOUR} answers that accepted nothing this hour, the limit for a " \
           "player, who was told so" in caplog.text
    assert "receipt number" in received(table, mail(NORTH, table.order())[0])
    assert refusals_sent(table, NORTH, fixed_hour) == PLAYER_REFUSALS_PER_HOUR


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied; owner-email=\"north@player.test\"",
                                    "Precedence: auto_reply", "X-Autoreply: yes", "X-Autogenerated: Reply",
                                    "X-AutoReply-From: north@player.test",
                                    "X-MS-Exchange-Inbox-Rules-Loop: north@player.test"])
def test_judge_7_a_players_vacation_reply_is_not_answered_and_not_counted(table: Table, fixed_hour: int,
                                                                          header: str) -> None:
    raw, mid = mail(NORTH, "I am away until Monday.\n", headers=header + "\n", subject="Out of office: orders")
    assert table.exchange(raw) == {}
    assert outcome(table, mid).startswith("ignored")
    assert refusals_sent(table, NORTH, fixed_hour) == 0


def test_judge_7_auto_submitted_no_with_a_comment_is_a_person(table: Table) -> None:
    """RFC 3834: "Auto-Submitted: no" may carry a comment; that mail was written by a person and is answered."""
    received(table, mail(NORTH, table.order(), headers="Auto-Submitted: no (written by hand)\n")[0])


# --- §7 one answer: the reply's subject ---

def test_judge_7_a_reply_subject_keeps_one_re(table: Table) -> None:
    raw, _ = mail(NORTH, table.order(), subject="Re: RE: Aw: Fwd: RE[2]: SV: orders  for\tstep")
    head = parse_mail(table.exchange(raw)[NORTH][0])
    assert head["Subject"] == "Re: orders for step"


# --- §3 what a mail client does to a mail: HTML, byte-order marks ---

def test_judge_3_html_is_read_as_a_browser_shows_it() -> None:
    page = ("<html><head><title>t</title><style>p {margin: 0}</style></head><body>\n"
            "  <p>first<br>\n    second&nbsp;&amp;   third<br/>\n</p><div>one</div><div>two<br></div>\n"
            "<pre>  kept\n  lines</pre><p class=MsoNormal>l1<o:p></o:p></p><p class=MsoNormal>l2</p>"
            "<!-- a comment --><script>var x = 1;</script><br>after a blank line</body></html>")
    assert text_of(page) == "first\nsecond & third\none\ntwo\nkept\nlines\nl1\nl2\n\nafter a blank line\n"


def thunderbird_html(order: str) -> str:
    """How Thunderbird writes a pasted text in an HTML-only mail: ``line<br>`` plus a newline, indented."""
    lines = order.splitlines()
    return ('<html>\n  <head>\n    <meta http-equiv="content-type" content="text/html; charset=UTF-8">\n'
            '  </head>\n  <body>\n    <p>Here are my orders:</p>\n    <p>' + "<br>\n      ".join(lines)
            + "<br>\n    </p>\n  </body>\n</html>\n")


def test_judge_3_html_only_mail_from_thunderbird_is_received(table: Table) -> None:
    raw, _ = mail(NORTH, thunderbird_html(table.order()), ctype="text/html; charset=UTF-8")
    text = received(table, raw)
    assert "re-wrapped" not in text


def test_judge_3_html_only_mail_with_apple_mail_divs_is_received(table: Table) -> None:
    order = table.order()
    page = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
            '<body style="word-wrap: break-word;" class=""><div class="">Orders:</div><div class=""><br class="">'
            '</div>' + "".join(f'<div class="">{line}</div>\n' for line in order.splitlines()) + "</body></html>")
    received(table, mail(NORTH, page, ctype="text/html; charset=utf-8")[0])


def test_judge_3_a_byte_order_mark_before_an_attached_envelope_is_stripped(table: Table) -> None:
    raw, _ = mail(NORTH, "", ctype='multipart/mixed; boundary="b1"')
    att = base64.encodebytes(b"\xef\xbb\xbf" + table.order().encode()).decode()
    raw += (f"--b1\nContent-Type: text/plain; charset=utf-8\n\nsee attached\n--b1\n"
            'Content-Type: application/octet-stream; name="orders.asc"\n'
            'Content-Disposition: attachment; filename="orders.asc"\nContent-Transfer-Encoding: base64\n\n'
            f"{att}\n--b1--\n").encode()
    received(table, raw)


def test_judge_3_a_byte_order_mark_before_a_pasted_envelope_is_stripped(table: Table) -> None:
    raw, _ = mail(NORTH, "\ufeff" + table.order())
    received(table, raw)



def test_judge_3_armor_truly_broken_in_an_html_only_mail_is_refused_saying_it_came_from_the_html(table: Table) -> None:
    lines = table.order().splitlines()
    lines[2] = lines[2][:30] + "<br>\n" + lines[2][30:]  # an editor that really re-wrapped a line
    raw, _ = mail(NORTH, "<div>" + "<br>\n".join(lines) + "</div>", ctype="text/html; charset=utf-8")
    text = only_reply(table.exchange(raw), NORTH)
    assert text.startswith("Refused your envelope:") and "re-wrapped" in text
    assert "read from the HTML copy of your mail" in text and "attach the file" in text


def test_judge_7_the_limits_count_per_clock_hour_and_past_hours_are_forgotten(table: Table, fixed_hour: int) -> None:
    journal = table.parts.judge.journal
    last_hour = fixed_hour // 3600 - 1
    journal.db.execute("INSERT INTO refusals VALUES (?, ?, ?)", (NORTH, last_hour, PLAYER_REFUSALS_PER_HOUR))
    text = only_reply(table.exchange(mail(NORTH, "no envelope here\n")[0]), NORTH)
    assert text.startswith("Refused") and "Note:" not in text
    assert journal.db.execute("SELECT hour, n FROM refusals WHERE address = ?", (NORTH,)).fetchall() == \
        [(fixed_hour // 3600, 1)]
