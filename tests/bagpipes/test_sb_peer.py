"""Swords and Bagpipes with no referee on the core's peer seam (docs/bagpipes-peer.md, protocol §13.10-13.12):
whole games through the real files with one folder per seat, and the attacks a cheating seat would try."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.bagpipes.peerdemo import seat_folders, simple_bot
from pbem.core.peer import autoplay, folder, message


def _entries(d: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((d / "ledger").iterdir())]


def _same_record(dirs: dict[str, Path]) -> None:
    first = next(iter(dirs.values()))
    for sub in ("ledger", "messages"):
        names = sorted(p.name for p in (first / sub).iterdir())
        for d in dirs.values():
            assert sorted(p.name for p in (d / sub).iterdir()) == names
            assert all((d / sub / n).read_bytes() == (first / sub / n).read_bytes() for n in names)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_bagpipes_peer_a_whole_game_ends_with_verify_and_audit_ok_in_every_seat_s_folder(tmp_path: Path,
                                                                                          players: int) -> None:
    dirs, keys = seat_folders(tmp_path, players)
    played = autoplay.play(dirs, keys, simple_bot(players, b"test-seed"))
    assert not played.outcome.owes and not played.outcome.verdict
    _same_record(dirs)
    for d in dirs.values():
        assert "verify ok" in folder.verify(d)[0]
        assert "audit ok" in folder.audit(d)[-1]
        kinds = autoplay.entry_kinds(d)
        assert kinds[0] == "setup" and kinds[-1] == "end"
        assert "void" not in kinds
    assert played.outcome.state["phase"] == "over"


def _resign(keys: dict[str, Any], text: str, change: Any) -> str:
    """The same message with its body changed by ``change``, signed again by its seat (a seat's own lie)."""
    man_game = message.read(text, "m", _GAME[0], _KEYS[0]).side
    m = message.read(text, "m", _GAME[0], _KEYS[0])
    body = json.loads(json.dumps(m.body))
    change(body)
    return message.write(keys[man_game], _GAME[0], m.side, m.step, m.answers, m.phase, m.clock, body)


_GAME: list[str] = [""]
_KEYS: list[Any] = [{}]


def _cheat_once(dirs: dict[str, Path], keys: dict[str, Any], label_start: str, change: Any) -> dict[str, str]:
    """Play until a seat sends an opening of a label starting with ``label_start``; the others receive it
    changed by ``change`` (signed by the seat). Returns {"side": the cheater}."""
    man = folder.manifest(next(iter(dirs.values())))
    _GAME[0], _KEYS[0] = man.game, man.keys
    done: dict[str, str] = {}

    def post(side: str, text: str) -> str:
        if done:
            return text
        m = message.read(text, "m", man.game, man.keys)
        openings = m.body.get("openings", [])
        if any(o["label"].startswith(label_start) for o in openings):
            done["side"] = side

            def lie(body: dict[str, Any]) -> None:
                o = next(o for o in body["openings"] if o["label"].startswith(label_start))
                change(o)
            return _resign(keys, text, lie)
        return text
    autoplay.play(dirs, keys, simple_bot(len(dirs), b"cheat-seed"), post=post)
    return done


def test_bagpipes_peer_a_seat_that_lies_about_a_card_it_plays_is_named_at_once(tmp_path: Path) -> None:
    dirs, keys = seat_folders(tmp_path, 2)

    def other_card(o: dict[str, Any]) -> None:
        o["value"] = "sample-rally#1" if not str(o["value"]).startswith("sample-rally") else "sample-levy#1"
    cheat = _cheat_once(dirs, keys, "card.", other_card)
    assert cheat, "no card was played in the game"
    for side, d in dirs.items():
        if side == cheat["side"]:
            continue
        last = _entries(d)[-1]
        assert last["kind"] == "void" and last["cheater"] == cheat["side"]
        assert "decrypts to" in last["reason"]
        assert any(p.name.endswith(f"-{cheat['side']}.json") for p in (d / "proofs").iterdir())


def test_bagpipes_peer_a_loyalty_reveal_that_does_not_open_its_commitment_is_named(tmp_path: Path) -> None:
    dirs, keys = seat_folders(tmp_path, 2)

    def flip(o: dict[str, Any]) -> None:
        o["value"] = {**o["value"], "loyalty": "england" if o["value"]["loyalty"] == "scotland" else "scotland"}
    cheat = _cheat_once(dirs, keys, "hidden.", flip)
    assert cheat
    for side, d in dirs.items():
        if side != cheat["side"]:
            last = _entries(d)[-1]
            assert last["kind"] == "void" and last["cheater"] == cheat["side"]
            assert "does not open the handle" in last["reason"]


def test_bagpipes_peer_a_seat_that_stops_answering_forfeits_from_signed_messages(tmp_path: Path) -> None:
    dirs, keys = seat_folders(tmp_path, 2)
    played = autoplay.play(dirs, keys, simple_bot(2, b"quit-seed"), limit=6)
    assert played.outcome.owes
    # clan2 stops answering; clan1 sends what it owes, then claims once the deadline is past
    played = autoplay.run(dirs, keys, simple_bot(2, b"quit-seed"), played.clock, quiet=("clan2",))
    with pytest.raises(Exception, match="deadline"):
        folder.write_owed(dirs["clan1"], keys["clan1"], None, played.clock)
    _, claim = folder.write_owed(dirs["clan1"], keys["clan1"], None, played.clock + 49 * 3600)
    autoplay.send(dirs, "clan1", claim)
    for d in dirs.values():
        last = _entries(d)[-1]
        assert last["kind"] == "forfeit", last
        assert "clan2" in json.dumps(last)


def test_bagpipes_peer_a_seat_s_folder_never_holds_another_seat_s_hidden_cards_before_the_rules_show_them(
        tmp_path: Path) -> None:
    dirs, keys = seat_folders(tmp_path, 2)
    autoplay.play(dirs, keys, simple_bot(2, b"leak-seed"), limit=12)
    for seat, d in dirs.items():
        secrets = json.loads((d / ".pbem" / f"peer-{seat}" / "secrets.json").read_text())
        mine = {label: o["value"] for label, o in secrets["openings"].items() if label.startswith("card.")}
        for other, od in dirs.items():
            if other == seat:
                continue
            shown: set[str] = set()
            for e in _entries(od):
                shown |= set(e.get("revealed", {}))
                text = json.dumps(e)
                for label, card in mine.items():
                    if label not in shown:
                        assert card not in text, f"{other}'s record shows {seat}'s {label} ({card}) before the rules"
            assert not (od / ".pbem" / f"peer-{seat}").exists()
