"""TLS to both servers (docs/judge.md §1): IMAP with STARTTLS (pymap), SMTP over TLS and with STARTTLS
(aiosmtpd), the server's certificate checked against the config's ``cafile``."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from conftest import (IMAP_PASSWORD, IMAP_USER, JUDGE, SMTP_PASSWORD, Mailer, _auth, _pymap_base, free_port,
                      start_pymap)
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
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
