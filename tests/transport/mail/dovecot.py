"""A real Dovecot IMAP server for the judge's tests, run unprivileged on 127.0.0.1 with its own config.

Dovecot from Debian (package dovecot-imapd) runs without root when its internal and login users are
the user that starts it and nothing is chrooted: passwd-file authentication, one maildir per user,
every file under one temporary folder. Run as root (a container), the test starts it as ``nobody``,
so the folder is made outside pytest's own temporary folder (root's is closed to other users).
Its log says each login ("imap-login: ... Login: user=<judge>"), which the tests count.

One server may serve the tests of a whole module (a start and a stop cost about a second): it then
serves several users alike, and each test takes a user no test used before (``fresh_user``), whose
mailboxes are empty and whose logins, connections and kicks are its own.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mailworld import IMAP_PASSWORD, IMAP_USER, POLL, Accounts, account_names, free_port

CONFIG = """\
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
info_log_path = {base}/dovecot.log
listen = 127.0.0.1
protocols = imap
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {base}/passwd
}}
mail_location = maildir:{base}/mail/%u
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
  }}
}}
service anvil {{
  chroot =
}}
"""


@dataclass
class Dovecot:
    port: int  # IMAP without TLS
    tls_port: int  # IMAP over TLS (0: none)
    base: Path
    proc: subprocess.Popen[bytes]
    security: str = "none"  # how a test's client reaches it: "none" (port) or "tls" (tls_port)
    cafile: str = ""  # the certificate a client trusts for TLS
    accounts: Accounts = field(default_factory=lambda: Accounts((IMAP_USER,)))  # password IMAP_PASSWORD

    @property
    def user(self) -> str:
        """The user of the test it now serves: kick and logins are about this one."""
        return self.accounts.current

    @property
    def log(self) -> str:
        path = self.base / "dovecot.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def fresh_user(self) -> str:
        """The next user no test has logged in as, made the server's ``user``: an empty mailbox, no login."""
        return self.accounts.fresh()

    def kick(self, user: str | None = None) -> None:
        """Drop every connection of ``user`` (``doveadm kick``), as a server restart or a network cut would."""
        user = user or self.user
        doveadm = shutil.which("doveadm") or "/usr/bin/doveadm"
        owner = self.base.stat()
        root = os.getuid() == 0
        subprocess.run([doveadm, "-c", str(self.base / "dovecot.conf"), "kick", user], check=True,
                       capture_output=True, user=owner.st_uid if root else None, group=owner.st_gid if root else None,
                       extra_groups=[] if root else None)

    def stop(self) -> None:
        """Stop the server (SIGTERM, as an init system does; SIGKILL if it lingers)."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def restart(self) -> None:
        """Stop the server and start it again on the same ports, config and mail (a server restart:
        every connection is cut; what was delivered stays). The connections are kicked first: a
        logged-in session's own ``imap`` process outlives the master it was started by."""
        self.kick()
        self.stop()
        owner = self.base.stat()
        self.proc = _start(_binary(), self.base, owner.st_uid, owner.st_gid)
        self.wait_listening()

    def wait_listening(self) -> None:
        """Return once the server accepts connections on its port (at most 20 s)."""
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                    raise RuntimeError(f"Dovecot did not start: {err.strip()} {self.log.strip()}") from None
                time.sleep(POLL)

    def logins(self, user: str | None = None) -> int:
        """How many times ``user`` logged in, by the server's own log."""
        user = user or self.user
        return sum(1 for line in self.log.splitlines() if "imap-login:" in line and f"Login: user=<{user}>" in line)


def _binary() -> str:
    exe = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else "")
    if not exe:
        why = "Dovecot is not installed (apt-get install dovecot-imapd; .ci/run installs it)"
        if os.environ.get("CI"):  # in CI a skipped server test is a missing test
            pytest.fail(why)
        pytest.skip(why)
    return exe


def _start(exe: str, base: Path, uid: int, gid: int) -> subprocess.Popen[bytes]:
    """Dovecot in the foreground with the config in ``base``, as ``uid``/``gid`` when run as root."""
    root = os.getuid() == 0
    return subprocess.Popen([exe, "-F", "-c", str(base / "dovecot.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, user=uid if root else None, group=gid if root else None,
                            extra_groups=[] if root else None)


@contextlib.contextmanager
def dovecot(tls: tuple[Path, Path] | None = None, users: int = 1) -> Iterator[Dovecot]:
    """Dovecot serving the judge's IMAP account until the block ends; then stopped and removed.

    With ``tls`` (certificate, key) it also serves IMAP over TLS on ``tls_port``. With ``users`` above
    one it serves as many accounts (the judge's, then "judge2", "judge3" ...: ``Dovecot.fresh_user``).
    """
    exe = _binary()
    run_as = pwd.getpwnam("nobody") if os.getuid() == 0 else pwd.getpwuid(os.getuid())
    base = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    port, tls_port = free_port(), free_port() if tls else 0
    ssl = "ssl = no"
    if tls:
        shutil.copy(tls[0], base / "cert.pem")
        shutil.copy(tls[1], base / "key.pem")
        ssl = f"ssl = yes\nssl_cert = <{base}/cert.pem\nssl_key = <{base}/key.pem"
    group = run_as.pw_gid
    (base / "dovecot.conf").write_text(CONFIG.format(base=base, user=run_as.pw_name, group=grp.getgrgid(group).gr_name,
                                                     port=port, tls_port=tls_port, ssl=ssl), encoding="utf-8")
    names = account_names(users)
    (base / "passwd").write_text("".join(f"{name}:{{PLAIN}}{IMAP_PASSWORD}:{run_as.pw_uid}:{group}::"
                                         f"{base}/mail/{name}\n" for name in names), encoding="utf-8")
    for sub in ("run", "state", "mail"):
        (base / sub).mkdir()
    if os.getuid() == 0:
        for path in [base, *base.rglob("*")]:
            os.chown(path, run_as.pw_uid, group)
    server = Dovecot(port, tls_port, base, _start(exe, base, run_as.pw_uid, group), accounts=Accounts(names))
    try:
        server.wait_listening()
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
