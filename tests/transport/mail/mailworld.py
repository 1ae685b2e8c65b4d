"""Real mail servers on 127.0.0.1 for the judge's tests (a module of its own, not conftest, whose name
another test folder also uses): aiosmtpd (SMTP, with AUTH) and pymap (IMAP, maildir).

The SMTP server plays the whole mail system: a mail to the judge is delivered into the judge's
Maildir (the one pymap serves over IMAP), a mail to anyone else lands in that address's list.
"""

from __future__ import annotations

import contextlib
import imaplib
import itertools
import mailbox
import os
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from pbem.core import identity, ruleset

sys.path.append(str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game (rock-paper-scissors)
ruleset.register("rps", "support.rps_game:RpsRuleset")

JUDGE = "judge@judge.test"
SMTP_USER, SMTP_PASSWORD = "judge", "smtp-secret"
IMAP_USER, IMAP_PASSWORD = "judge", "imap-secret"


# How often a test looks again for what a server or the judge is about to do (a mail delivered, a port
# listening): a mail reaches the judge's IMAP mailbox within milliseconds, and each look costs a pass of
# the judge over an inbox holding nothing new, about a millisecond; a longer sleep only waits.
POLL = 0.01

PORTS_LOW, PORTS_HIGH, PORTS_EACH = 10_000, 32_000, 20  # below the kernel's ephemeral range (32768 and up)
PORT_REST_SECONDS = 30.0  # a port handed out is not handed out again by this process for this long
_handed = itertools.count()
_handed_at: dict[int, float] = {}


def free_port() -> int:
    """A port for a test server, free now and out of every other process's way: the kernel hands out
    ports for ``bind(0)`` and outgoing connections only from its ephemeral range, above these, and each
    process (a pytest-xdist worker, another test run) draws from its own block, chosen by its pid. A
    port picked with ``bind(0)`` and closed could be taken by such a connection, or handed to another
    worker, before the server binds it (docs/performance.md "Test suite").

    A port handed out rests before it is handed out again: a server that has its port but is not yet
    listening (pymap starts after the SMTP server) must not get a twin. The probe sets SO_REUSEADDR
    as the servers do, so a port in TIME_WAIT from an earlier test counts as free, not as taken."""
    blocks = (PORTS_HIGH - PORTS_LOW) // PORTS_EACH
    first = PORTS_LOW + (os.getpid() % blocks) * PORTS_EACH
    now = time.monotonic()
    for _ in range(PORTS_EACH):
        port = first + next(_handed) % PORTS_EACH
        if now - _handed_at.get(port, -PORT_REST_SECONDS) < PORT_REST_SECONDS:
            continue  # handed out a moment ago: its server may not be listening yet
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: the next one
        _handed_at[port] = now
        return port
    with socket.socket() as s:  # the whole block in use or resting: let the kernel choose
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    _handed_at[port] = now
    return port


class Mailer:
    """aiosmtpd handler: the judge's mail goes to its Maildir, everyone else's to a list."""

    def __init__(self, judge_maildir: Path, imap_port: int | None = None, imap_user: str = IMAP_USER) -> None:
        self.judge_maildir = judge_maildir
        self.imap_port = imap_port
        self.imap_user = imap_user  # the judge's IMAP account, delivered into
        self.delivered: dict[str, list[bytes]] = defaultdict(list)
        self.refused: set[str] = set()  # recipients this server answers 550 (no such user)
        self.lock = threading.Lock()
        self.count = 0
        self.conn: imaplib.IMAP4 | None = None

    def append(self, data: bytes) -> None:
        """IMAP APPEND over one kept connection (a mail system delivering to the judge's mailbox)."""
        assert self.imap_port
        for attempt in (1, 2):
            try:
                if self.conn is None:
                    self.conn = imaplib.IMAP4("127.0.0.1", self.imap_port, timeout=10)
                    self.conn.login(self.imap_user, IMAP_PASSWORD)
                typ, detail = self.conn.append("INBOX", None, None, data)
                assert typ == "OK", detail
                return
            except (OSError, imaplib.IMAP4.error):
                self.conn = None
                if attempt == 2:
                    raise

    def close(self) -> None:
        """Log out of the kept connection (the IMAP server may serve other tests after this one)."""
        if self.conn is not None:
            with contextlib.suppress(OSError, imaplib.IMAP4.error):
                self.conn.logout()
            self.conn = None

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any) -> str:
        if address.lower() in self.refused:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.original_content or envelope.content
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                if rcpt.lower() == JUDGE:
                    if self.imap_port:
                        self.append(data)
                    else:
                        deliver(self.judge_maildir, data)
                else:
                    self.delivered[rcpt.lower()].append(data)
            self.count += 1
        return "250 OK"


def deliver(maildir: Path, data: bytes) -> None:
    """Deliver a mail the way a mail system does: write in tmp/, rename into new/."""
    md = mailbox.Maildir(str(maildir), factory=None, create=True)
    md.add(data)


def append(port: int, data: bytes, user: str = IMAP_USER) -> None:
    """Deliver into the judge's IMAP mailbox (IMAP APPEND: the server sees it at once)."""
    conn = imaplib.IMAP4("127.0.0.1", port, timeout=10)
    try:
        conn.login(user, IMAP_PASSWORD)
        typ, detail = conn.append("INBOX", None, None, data)
        assert typ == "OK", detail
    finally:
        conn.logout()


def _auth(server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == SMTP_USER.encode() \
        and auth_data.password == SMTP_PASSWORD.encode()
    return AuthResult(success=ok, handled=False)


@dataclass
class Smtp:
    port: int
    mailer: Mailer
    controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.mailer, hostname="127.0.0.1", port=self.port, authenticator=_auth,
                                     auth_require_tls=False, auth_required=True, data_size_limit=50_000_000)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def account_names(count: int) -> tuple[str, ...]:
    """The IMAP accounts a shared server serves: the judge's, then "judge2", "judge3" ... (one password)."""
    return (IMAP_USER, *(f"{IMAP_USER}{n}" for n in range(2, count + 1)))


@dataclass
class Accounts:
    """The accounts of a server that many tests share (its start costs more than a test): each test takes
    one no test used before, whose mailboxes are empty and whose logins, connections and kicks are its own."""

    names: tuple[str, ...]
    handed: int = 0

    @property
    def current(self) -> str:
        """The account handed out last (the judge's before any)."""
        return self.names[max(self.handed - 1, 0)]

    def fresh(self) -> str:
        if self.handed == len(self.names):
            raise RuntimeError(f"this server serves only {len(self.names)} accounts: start it with more")
        self.handed += 1
        return self.current


@dataclass
class Imap:
    port: int
    base: Path
    proc: subprocess.Popen[bytes] | None = None
    dovecot: Any = None  # the dovecot.Dovecot serving, when it is Dovecot (its module imports this one)
    user: str = IMAP_USER  # the judge's account on it


@dataclass
class SharedPymap:
    """One pymap for the worlds of a test process (``pymap_server``): its start costs about 0.4 s."""

    port: int
    base: Path
    proc: subprocess.Popen[bytes]
    accounts: Accounts


@dataclass
class MailWorld:
    """Both servers, the judge's folders and config, and the player keys."""

    root: Path
    smtp: Smtp
    imap: Imap
    judge_maildir: Path
    config: Path
    env: dict[str, str] = field(default_factory=dict)

    def to_judge(self, data: bytes) -> None:
        """Deliver one mail to the judge's mailbox, as the mail system would."""
        if self.smtp.mailer.imap_port:
            with self.smtp.mailer.lock:
                self.smtp.mailer.append(data)
        else:
            deliver(self.judge_maildir, data)

    def mails_to(self, address: str) -> list[bytes]:
        return list(self.smtp.mailer.delivered.get(address.lower(), []))


def _pymap_base(base: Path, users: tuple[str, ...] = (IMAP_USER,)) -> None:
    """pymap's account files for ``users`` (one password) and each one's empty Maildir."""
    from pysasl.hashing import BuiltinHash  # pymap's own password hash, cheap rounds for tests

    base.mkdir(parents=True)
    hashed = BuiltinHash(rounds=1000).hash(IMAP_PASSWORD)
    (base / "pymap-etc-passwd").write_text("".join(f"{user}:::::{user}:\n" for user in users))
    (base / "pymap-etc-shadow").write_text("".join(f"{user}:{hashed}:::::::\n" for user in users))
    for user in users:
        for sub in ("new", "cur", "tmp"):
            (base / user / sub).mkdir(parents=True, exist_ok=True)


def start_pymap(base: Path, port: int, tls: tuple[Path, Path] | None = None) -> subprocess.Popen[bytes]:
    """pymap serving ``base`` (maildir backend); with ``tls`` (cert, key) it offers STARTTLS."""
    exe = Path(sys.executable).parent / "pymap"
    security = ["--cert", str(tls[0]), "--key", str(tls[1])] if tls else ["--no-tls"]
    proc = subprocess.Popen([str(exe), "--host", "127.0.0.1", "--port", str(port), *security,
                             "--no-service", "admin", "maildir", str(base)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(POLL)
    proc.kill()
    raise RuntimeError("pymap did not start")


def write_config(path: Path, *, smtp_port: int, imap_port: int | None, maildir: Path | None,
                 extra: str = "", imap_user: str = IMAP_USER) -> None:
    incoming = (f'[imap]\nhost = "127.0.0.1"\nport = {imap_port}\nsecurity = "none"\nuser = "{imap_user}"\n'
                'password_env = "PBEM_TEST_IMAP_PASSWORD"\n' if imap_port else f'[maildir]\npath = "{maildir}"\n')
    path.write_text(
        f'[judge]\naddress = "{JUDGE}"\nkey = "judge.key"\ndata = "data"\npoll_seconds = 1\n'
        f'reminder_hours = 24\nretry_seconds = [1, 2, 4]\n{extra}\n'
        f'{incoming}\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nsecurity = "none"\nuser = "{SMTP_USER}"\n'
        'password_env = "PBEM_TEST_SMTP_PASSWORD"\n', encoding="utf-8")


@contextlib.contextmanager
def make_world(root: Path, imap_server: str = "pymap", dovecot_server: Any = None,
               pymap_server: SharedPymap | None = None) -> Iterator[MailWorld]:
    """SMTP + IMAP servers and a judge config pointing at them (passwords in the environment).

    The IMAP server is pymap, or with ``imap_server="dovecot"`` a real Dovecot (the dovecot module):
    ``dovecot_server``, a running one that other tests share (the world takes a fresh user of it and
    leaves it running), or else one of the world's own. Likewise pymap: ``pymap_server``, or the world's own.
    """
    os.environ["PBEM_TEST_SMTP_PASSWORD"] = SMTP_PASSWORD
    os.environ["PBEM_TEST_IMAP_PASSWORD"] = IMAP_PASSWORD
    servers = contextlib.ExitStack()
    if imap_server == "dovecot":
        from dovecot import dovecot  # which imports this module

        server = dovecot_server or servers.enter_context(dovecot())
        imap = Imap(server.port, root / "imap", dovecot=server, user=server.fresh_user())
        _pymap_base(imap.base, (imap.user,))  # the Maildir a test may read directly instead (judge_maildir)
    elif pymap_server is not None:
        imap = Imap(pymap_server.port, pymap_server.base, user=pymap_server.accounts.fresh())
    else:
        imap = Imap(free_port(), root / "imap")
        _pymap_base(imap.base)
    judge_maildir = imap.base / imap.user
    smtp = Smtp(free_port(), Mailer(judge_maildir, imap.port, imap.user))
    smtp.start()
    if imap_server != "dovecot" and pymap_server is None:
        imap.proc = start_pymap(imap.base, imap.port)
    judge_dir = root / "judge"
    judge_dir.mkdir()
    identity.save_private(identity.generate("judge"), judge_dir / "judge.key")
    config = judge_dir / "judge.toml"
    write_config(config, smtp_port=smtp.port, imap_port=imap.port, maildir=None, imap_user=imap.user)
    w = MailWorld(root, smtp, imap, judge_maildir, config,
                  {"PBEM_TEST_SMTP_PASSWORD": SMTP_PASSWORD, "PBEM_TEST_IMAP_PASSWORD": IMAP_PASSWORD})
    try:
        yield w
    finally:
        smtp.stop()
        smtp.mailer.close()
        if imap.proc is not None:
            imap.proc.kill()
            imap.proc.wait()
        servers.close()


@pytest.fixture(scope="session")
def pymap_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedPymap]:
    """One pymap for every ``world`` of this test process, each world an account of its own."""
    base = tmp_path_factory.mktemp("pymap") / "imap"
    accounts = Accounts(account_names(64))
    _pymap_base(base, accounts.names)
    port = free_port()
    proc = start_pymap(base, port)
    yield SharedPymap(port, base, proc, accounts)
    proc.kill()
    proc.wait()


@pytest.fixture
def world(tmp_path: Path, pymap_server: SharedPymap) -> Iterator[MailWorld]:
    """Both servers and a judge config for one test (import it into the test module to use it)."""
    with make_world(tmp_path, pymap_server=pymap_server) as w:
        yield w


def parse_mail(data: bytes) -> Any:
    return message_from_bytes(data, policy=default_policy)





@pytest.fixture
def smtp(tmp_path: Path) -> Iterator[Smtp]:
    """The test SMTP server alone (AUTH as the world's): a player's own mail to a referee friend or, with no
    referee, to the other players (what it delivers is in ``smtp.mailer.delivered``)."""
    server = Smtp(free_port(), Mailer(tmp_path / "judge-maildir"))
    server.start()
    yield server
    server.stop()
