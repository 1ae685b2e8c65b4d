"""The judge's IDLE loop against a real IMAP server, Dovecot (docs/judge.md §1; issue 22 item 6).

A quiet interval ends the IDLE command with DONE and its tagged answer, on the same connection:
one login however many intervals pass (the server's own log counts them), and no warning logged.
"""

from __future__ import annotations

import imaplib
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dovecot import Dovecot, dovecot
from mailworld import IMAP_PASSWORD, append, make_world
from test_judge_tls import _cert

from pbem.core import game as core_game
from pbem.transport.mail import runner
from pbem.transport.mail.config import Secret, Server
from pbem.transport.mail.servers import ImapInbox

QUIET = 0.4  # seconds of one quiet interval (poll_seconds; 60 by default)


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dovecot]:
    """One Dovecot for the module, serving IMAP both without TLS and over TLS (a start and a stop cost
    about a second; each test has a user of its own: ``server``)."""
    tls = _cert(tmp_path_factory.mktemp("tls"))
    with dovecot(tls, users=16) as d:
        d.cafile = str(tls[0])
        yield d


@pytest.fixture(params=["none", "tls"])
def server(request: pytest.FixtureRequest, shared_server: Dovecot, monkeypatch: pytest.MonkeyPatch) -> Dovecot:
    """Dovecot, reached without TLS or over TLS (whose own buffer the IDLE wait must also look into), as a
    user no other test logged in as: its mailboxes empty, its logins counted and its connections kicked
    alone."""
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    shared_server.fresh_user()
    shared_server.security = request.param
    return shared_server


@pytest.fixture
def inbox(server: Dovecot, caplog: pytest.LogCaptureFixture) -> Iterator[ImapInbox]:
    """The judge's inbox on that server, its log captured; closed after."""
    caplog.set_level(logging.INFO, logger="pbem.judge")
    port = server.tls_port if server.security == "tls" else server.port
    box = ImapInbox(Server("127.0.0.1", port, server.security, server.user, Secret(env="PBEM_TEST_IMAP_PASSWORD"),
                           cafile=server.cafile if server.security == "tls" else ""), timeout=10)
    yield box
    box.close()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_judge_1_idle_keeps_one_login_across_quiet_intervals_on_dovecot(server: Dovecot, inbox: ImapInbox,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    assert inbox.fetch(10) == [] and inbox.has_idle
    for _ in range(5):
        started = time.monotonic()
        inbox.wait(QUIET)
        assert time.monotonic() - started >= QUIET * 0.9  # it waited on the server, not on an error
        assert inbox.fetch(10) == []
    assert server.logins() == 1, server.log
    assert inbox.logins == 1
    assert warnings(caplog) == []


def test_judge_1_a_connection_dropped_during_idle_is_logged_once_and_logged_into_again(
        server: Dovecot, inbox: ImapInbox, caplog: pytest.LogCaptureFixture) -> None:
    assert inbox.fetch(10) == []
    timer = threading.Timer(QUIET, server.kick)
    timer.start()
    started = time.monotonic()
    inbox.wait(30)
    assert time.monotonic() - started < 10  # the drop ends the wait; the judge does not sit on a dead connection
    timer.join()
    assert len(warnings(caplog)) == 1 and "imap idle:" in warnings(caplog)[0]
    assert inbox.fetch(10) == [] and inbox.logins == 2 and server.logins() == 2
    inbox.wait(QUIET)
    assert inbox.logins == 2 and len(warnings(caplog)) == 1


def test_judge_1_one_idle_lasts_at_most_29_minutes_rfc_2177(server: Dovecot, inbox: ImapInbox,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    """A poll_seconds longer than the RFC's 29 minutes idles again within it, on the same login
    (29 minutes stand for QUIET seconds here)."""
    from pbem.transport.mail import servers

    monkeypatch.setattr(servers, "IDLE_AT_MOST", QUIET)
    assert inbox.fetch(10) == []
    started = time.monotonic()
    inbox.wait(60)
    assert QUIET * 0.9 <= time.monotonic() - started < 10
    inbox.wait(60)
    assert inbox.logins == 1 and server.logins() == 1 and warnings(caplog) == []


def test_judge_1_idle_wakes_for_new_mail_and_stays_logged_in_on_dovecot(server: Dovecot, inbox: ImapInbox,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    assert inbox.fetch(10) == []
    inbox.wait(QUIET)  # a quiet interval first
    mail = b"From: a@b.test\r\nSubject: hi\r\nMessage-ID: <idle@b.test>\r\n\r\nhi\r\n"
    timer = threading.Timer(0.5, append, [server.port, mail, server.user])  # the mail system delivers: its own login
    timer.start()
    started = time.monotonic()
    inbox.wait(30)
    assert time.monotonic() - started < 10  # woken by the server, not by the end of the interval
    timer.join()
    got = inbox.fetch(10)
    assert len(got) == 1 and b"<idle@b.test>" in got[0][1]
    inbox.done(got[0][0])  # moved to the done mailbox (Dovecot has MOVE)
    assert inbox.fetch(10) == []
    inbox.wait(QUIET)
    assert server.logins() == 2, server.log  # the judge once, the delivery once
    assert inbox.logins == 1
    assert warnings(caplog) == []
    check = imaplib.IMAP4("127.0.0.1", server.port, timeout=10)
    check.login(server.user, IMAP_PASSWORD)
    assert check.select("pbem-done")[1] == [b"1"]
    check.logout()


def test_judge_1_a_whole_game_by_mail_through_dovecot_on_one_login(tmp_path: Path, shared_server: Dovecot) -> None:
    """The whole judge (fetch, MOVE to the done mailbox, IDLE between passes) on a real server, one login."""
    from test_judge_game import make_players, open_game, rps_throw

    with make_world(tmp_path, imap_server="dovecot", dovecot_server=shared_server) as world:
        players = make_players(world, ("north", "south"))
        parts, gid = open_game(world, players, "rps", "standard")
        game_dir = parts.judge.games_dir / gid
        for p in players.values():
            p.join(world, game_dir)
        quiet = 0
        while quiet < 3:
            moved = runner.step(parts) + sum(p.play(world, rps_throw) for p in players.values())
            quiet = 0 if moved else quiet + 1
            parts.inbox.wait(QUIET if not moved else 0.05)
        info = core_game.status(game_dir)
        assert not info["owes"] and info["result"]["winner"]
        assert core_game.verify(players["north"].copy)["entries"] == info["step"] + 1
        assert isinstance(parts.inbox, ImapInbox) and parts.inbox.logins == 1
        parts.inbox.close()
