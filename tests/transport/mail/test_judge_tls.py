"""TLS to both servers (docs/judge.md §1): IMAP with STARTTLS (pymap), SMTP over TLS and with STARTTLS
(aiosmtpd), the server's certificate checked against the config's ``cafile``."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from mailworld import (
    IMAP_PASSWORD,
    IMAP_USER,
    JUDGE,
    POLL,
    SMTP_PASSWORD,
    Mailer,
    _auth,
    _pymap_base,
    free_port,
    start_pymap,
)
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import identity


def _cert(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    return folder / "cert.pem", folder / "key.pem"


@pytest.mark.parametrize("smtp_security", ["tls", "starttls"])
def test_check_over_tls_with_the_servers_certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     smtp_security: str) -> None:
    monkeypatch.setenv("PBEM_TEST_SMTP_PASSWORD", SMTP_PASSWORD)
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    cert, key = _cert(tmp_path / "tls")
    other, _ = _cert(tmp_path / "other")
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    base = tmp_path / "imap"
    _pymap_base(base)
    imap_port, smtp_port = free_port(), free_port()
    proc = start_pymap(base, imap_port, tls=(cert, key))
    # implicit TLS: aiosmtpd cannot tell the socket is TLS, so it is told AUTH needs nothing more
    kw = ({"ssl_context": ctx, "auth_require_tls": False} if smtp_security == "tls"
          else {"tls_context": ctx, "require_starttls": True, "auth_require_tls": True})
    controller = Controller(Mailer(base / IMAP_USER), hostname="127.0.0.1", port=smtp_port, authenticator=_auth,
                            **kw)
    controller.start()
    try:
        identity.save_private(identity.generate("judge"), tmp_path / "judge.key")
        for ca, ok in ((cert, True), (other, False)):
            config = tmp_path / "judge.toml"
            config.write_text(
                f'[judge]\naddress = "{JUDGE}"\nkey = "judge.key"\ndata = "data"\n'
                f'[imap]\nhost = "127.0.0.1"\nport = {imap_port}\nsecurity = "starttls"\nuser = "{IMAP_USER}"\n'
                f'password_env = "PBEM_TEST_IMAP_PASSWORD"\ncafile = "{ca}"\n'
                f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nsecurity = "{smtp_security}"\nuser = "judge"\n'
                f'password_env = "PBEM_TEST_SMTP_PASSWORD"\ncafile = "{ca}"\n')
            res = CliRunner().invoke(app, ["judge", "check", "--config", str(config)])
            if ok:
                assert res.exit_code == 0, res.output
                assert "imap: logged in" in res.output and "smtp: connected" in res.output
                assert f"({smtp_security})" in res.output
            else:
                assert res.exit_code == 1
                assert "CERTIFICATE_VERIFY_FAILED" in res.output or "certificate verify failed" in res.output
    finally:
        controller.stop()
        proc.kill()
        proc.wait()


TLS_FRONT = """
import asyncio, ssl, sys
cert, key, port, backend = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)

async def pipe(r, w):
    try:
        while data := await r.read(65536):
            w.write(data)
            await w.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        w.close()

async def handle(r, w):
    br, bw = await asyncio.open_connection("127.0.0.1", backend)
    await asyncio.gather(pipe(r, bw), pipe(br, w))

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", port, ssl=ctx)
    await server.serve_forever()

asyncio.run(main())
"""


def tls_front(cert: Path, key: Path, backend: int) -> tuple[int, subprocess.Popen[bytes]]:
    """A TLS endpoint in front of a plain server, in its own process (as stunnel would put one before
    pymap, which offers STARTTLS only): the judge's implicit-TLS IMAP path meets a real server."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", TLS_FRONT, str(cert), str(key), str(port), str(backend)])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return port, proc
        except OSError:
            time.sleep(POLL)
    proc.kill()
    raise RuntimeError("the TLS front did not start")


def test_imap_over_implicit_tls_fetches_and_moves_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mailworld import append

    from pbem.transport.mail.config import Secret, Server
    from pbem.transport.mail.servers import ImapInbox

    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    cert, key = _cert(tmp_path / "tls")
    base = tmp_path / "imap"
    _pymap_base(base)
    port = free_port()
    proc = start_pymap(base, port)
    front_port, front = tls_front(cert, key, port)
    try:
        append(port, b"From: a@b.test\nSubject: hi\nMessage-ID: <tls@b.test>\n\nhi\n")
        inbox = ImapInbox(Server("127.0.0.1", front_port, "tls", IMAP_USER, Secret(env="PBEM_TEST_IMAP_PASSWORD"),
                                 cafile=str(cert)))
        got = inbox.fetch(10)
        assert len(got) == 1 and b"<tls@b.test>" in got[0][1]
        inbox.done(got[0][0])
        assert inbox.fetch(10) == []
        inbox.close()
    finally:
        front.kill()
        front.wait()
        proc.kill()
        proc.wait()
