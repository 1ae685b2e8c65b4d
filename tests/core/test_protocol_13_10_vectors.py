"""A stored whole peer game with hidden facts and a deal (tests/core/vectors/hidden_game/, docs/protocol.md
§13.8): every entry recomputes byte for byte from the manifest and the messages, verify and audit pass, and
every handle of the set-up is checked against the final openings with hashlib alone (§13.4, §13.10)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from pbem.core import ruleset as rs
from pbem.core.errors import LedgerError
from pbem.core.peer import folder as peer
from pbem.core.peer import message

rs.register("duel", "support.hidden_duel:DuelRuleset")
STORED = Path(__file__).parent / "vectors" / "hidden_game"


def _copy(tmp: Path) -> Path:
    game = tmp / "duel"
    shutil.copytree(STORED, game)
    return game


def test_protocol_13_8_the_stored_hidden_game_recomputes_byte_for_byte_and_audits(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    out = peer.outcome(game)
    stored = [p.read_bytes() for p in sorted((STORED / "ledger").iterdir())]
    assert out.entries == stored
    assert peer.verify(game)[0].startswith("verify ok")
    assert peer.audit(game)[-1].startswith("audit ok")


def _lp(text: str) -> bytes:
    raw = text.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def test_protocol_13_10_every_handle_opens_by_hashlib_alone(tmp_path: Path) -> None:
    """commit(label, salt, value) = SHA-256("pbem-commit-v2" || lp(label) || salt || canonical JSON of value)."""
    setup = json.loads((STORED / "ledger" / "0000.json").read_bytes())
    man = peer.manifest(STORED)
    openings = {}
    for p in sorted((STORED / "messages").iterdir()):
        m = message.read(p.read_bytes(), str(p), man.game, man.keys)
        for o in m.body.get("openings", []):
            openings[o["label"]] = o
    assert sorted(k for k in openings if k.startswith("hidden.")) == sorted(setup["handles"])
    for label, handle in setup["handles"].items():
        o = openings[label]
        value = json.dumps(o["value"], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert hashlib.sha256(b"pbem-commit-v2" + _lp(label) + bytes.fromhex(o["salt"]) + value).hexdigest() == handle


def test_protocol_13_10_the_stored_game_without_a_final_is_not_audited(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    for p in (game / "messages").glob("*-final-south.pbem"):
        p.unlink()
    shutil.rmtree(game / "ledger")
    peer.rebuild(game)
    with pytest.raises(LedgerError, match="is not over: step 3: south owes final"):
        peer.audit(game)
