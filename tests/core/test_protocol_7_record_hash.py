"""Protocol §7 (issue 10 item 8): a record is chained by the hash of what is signed.

Ledger entries and the manifest used to be signed over their parsed content but chained by their
exact bytes, so a folder whose text files went through git's ``core.autocrlf`` (or a mail client
that writes CRLF) kept every signature and still failed verify. In v2 the hash of a record is
H("pbem-record-v2" || canonical JSON of the parsed document, signature included).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import tomli_w
from core_support import Keys
from typer.testing import CliRunner

from pbem.cli.main import app as cli
from pbem.core import identity, ledger
from pbem.core.canonical import canonical_bytes

runner = CliRunner()


def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def test_protocol_7_item_8_a_game_cloned_with_autocrlf_verifies_and_audits(played: Path, keys: Keys,
                                                                           tmp_path: Path) -> None:
    identity.save_private(keys.referee, tmp_path / "referee.key")
    bundle = tmp_path / "reveal.json"
    result = runner.invoke(cli, ["game", "reveal", str(played), "--key", str(tmp_path / "referee.key"),
                                 "--out", str(bundle)])
    assert result.exit_code == 0, result.output
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(played, repo / "g")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "a finished game")
    _git(tmp_path, "-c", "core.autocrlf=true", "clone", "-q", str(repo), str(tmp_path / "clone"))
    g = tmp_path / "clone" / "g"
    assert b"\r\n" in (g / "game.toml").read_bytes() and b"\r\n" in (g / "ledger" / "0001.toml").read_bytes()
    assert not (g / ".pbem").exists()  # the referee's private area is not published (.gitignore)
    for argv in (["verify", str(g)], ["audit", str(g), "--reveal", str(bundle)]):
        result = runner.invoke(cli, argv)
        assert result.exit_code == 0, result.output
    assert "audit ok" in result.output


def test_protocol_7_record_hash_is_the_hash_of_the_signed_document(played: Path) -> None:
    """Re-written TOML (CRLF, other key order, other quoting) keeps the hash; another signature does not."""
    path = played / "ledger" / "0002.toml"
    data = path.read_bytes()
    doc = tomllib.loads(data.decode("utf-8"))
    assert ledger.record_hash(data) == hashlib.sha256(b"pbem-record-v2" + canonical_bytes(doc)).hexdigest()
    assert ledger.record_hash(data.replace(b"\n", b"\r\n")) == ledger.record_hash(data)
    rewritten = tomli_w.dumps(dict(reversed(list(doc.items())))).encode("utf-8")
    assert rewritten != data and ledger.record_hash(rewritten) == ledger.record_hash(data)
    entry3 = tomllib.loads((played / "ledger" / "0003.toml").read_text(encoding="utf-8"))
    assert entry3["prev"] == ledger.record_hash(data)
    other = dict(doc, signature=doc["signature"][:-4] + ("AAA=" if not doc["signature"].endswith("AAA=") else "BBB="))
    assert ledger.record_hash_of(other) != ledger.record_hash(data)


def test_protocol_7_the_signed_body_and_the_hashed_document_are_made_in_one_encoding_as_apart(played: Path) -> None:
    """``_signed`` signs the body's canonical JSON and chains the whole document's, made together
    (``canonical_pair``): the same bytes as each made alone, for the manifest and every entry."""
    man = ledger.read_manifest(played)
    for path in [played / "game.toml", *sorted((played / "ledger").glob("*.toml"))]:
        data = path.read_bytes()
        doc = tomllib.loads(data.decode("utf-8"))
        body = {k: v for k, v in doc.items() if k != "signature"}
        domain = ledger.MANIFEST_DOMAIN if path.name == "game.toml" else ledger.ENTRY_DOMAIN
        parsed, digest = ledger.load_record(data, str(path), domain, man.referee)
        assert parsed == body
        assert digest == hashlib.sha256(b"pbem-record-v2" + canonical_bytes(doc)).hexdigest()
        assert man.referee.verifies(identity.unb64(doc["signature"], "signature", 64), domain + canonical_bytes(body))
