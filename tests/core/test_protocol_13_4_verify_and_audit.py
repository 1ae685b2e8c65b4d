"""verify and audit of a peer folder (docs/protocol.md §13.4): audit checks the record verify computed from the
first message, so the two cost one replay (``folder.verified`` then ``folder.audited``, as the demo calls
them); each still refuses what it refused alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_protocol_13_10_hidden_facts import SIDES, Duel, order

from pbem.core.errors import LedgerError, PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer import record


def test_protocol_13_4_verify_and_audit_replay_the_record_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Duel(tmp_path)
    d.start()
    d.play_out()
    replays: list[int] = []
    real = record._computed
    monkeypatch.setattr(record, "_computed", lambda *a: replays.append(1) or real(*a))
    lines, out = peer.verified(d.dirs["north"])
    audited = peer.audited(d.dirs["north"], lines, out)
    assert len(replays) == 1
    assert lines[0].startswith("verify ok") and audited[-1].startswith("audit ok")
    assert audited == peer.audit(d.dirs["north"])


def test_protocol_13_4_audit_of_what_verify_computed_refuses_a_game_not_over(tmp_path: Path) -> None:
    d = Duel(tmp_path)
    d.start()
    state = d.state()
    d.round({s: order(s, state["field"][s][0]) for s in SIDES})
    lines, out = peer.verified(d.dirs["north"])
    assert lines[0].startswith("verify ok")
    with pytest.raises(LedgerError, match="is not over"):
        peer.audited(d.dirs["north"], lines, out)
    (d.dirs["north"] / "ledger" / "0001.json").write_bytes(b"{}")
    with pytest.raises(PbemError):
        peer.verified(d.dirs["north"])
