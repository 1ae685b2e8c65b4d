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
@pytest.mark.parametrize("players", [2])  # 4 seats: the demo's test (tests/e2e/test_step15_bagpipes_peer_cli.py)
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


class _Seeded:
    """Every random draw of the clients from one seeded stream (the test's, so two games can differ in one
    place only): chain secrets, salts, deal keys and shuffles."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, swap: bool) -> None:
        import random

        from pbem.core.peer import chain, deal, dealing, handles
        self.rng, self.swap, self.shuffles = random.Random(7), swap, 0
        monkeypatch.setattr(chain, "fresh_secret", lambda: self.rng.randbytes(32))
        monkeypatch.setattr(handles, "fresh_salt", lambda: self.rng.randbytes(32))
        monkeypatch.setattr(deal, "fresh_key", lambda: self.rng.randrange(1, deal.ORDER))
        outer = self

        class System:
            def SystemRandom(self) -> Any:  # noqa: N802  (the stdlib's name)
                return outer

        monkeypatch.setattr(dealing, "system_random", System())

    def shuffle(self, pile: list[int]) -> None:
        self.rng.shuffle(pile)
        if self.swap and len(pile) > 20:  # the bagpipe pile of clan2's pass: clan2's card and a deep stock card
            self.shuffles += 1
            if self.shuffles == 2:
                pile[1], pile[-1] = pile[-1], pile[1]


def _no_cards(players: int) -> autoplay.Bot:
    """The simple bot with its hand hidden from itself: its orders depend on public facts only."""
    from pbem.bagpipes import bots
    from pbem.bagpipes.ruleset import BagpipesRuleset
    from pbem.core.drbg import Drbg
    peer = BagpipesRuleset(players).peer()

    def bot(side: str, public: dict[str, Any], facts: Any) -> Any:
        kind = public["pending"]["owes"].get(side)
        if kind is None or kind == "count":
            return None
        view = peer.private_view(public, side, {})
        return bots.simple_bot(view, side, kind, Drbg(b"no-cards-bot-stream/" + side.encode()))
    return bot


def _seen_by(d: Path) -> list[Any]:
    return [[e["kind"], e.get("state"), e.get("revealed"), e.get("log"), e.get("orders")] for e in _entries(d)]


@pytest.mark.slow
def test_bagpipes_peer_non_interference_another_hand_leaves_the_other_seat_s_record_alike_until_it_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.core import identity
    keys = {s: identity.generate(s) for s in ("clan1", "clan2")}
    seen = []
    for n, swap in enumerate((False, True)):
        with monkeypatch.context() as m:
            _Seeded(m, swap)
            m.setattr(identity, "generate", lambda s: keys[s])
            dirs, keys2 = seat_folders(tmp_path / str(n), 2)
            autoplay.play(dirs, keys2, _no_cards(2))
            mine = json.loads((dirs["clan2"] / ".pbem" / "peer-clan2" / "secrets.json").read_text())
            seen.append((_seen_by(dirs["clan1"]), mine["openings"]["card.clan2.1"]["value"]))
    (first, card1), (second, card2) = seen
    assert card1 != card2  # clan2 held another card
    shown = next(i for i, e in enumerate(first) if "card.clan2.1" in (e[2] or {}))
    assert first[shown][0] == "end"  # no rule shows a bagpipe card that is never played before the final audit
    assert first[:shown] == second[:shown]  # clan1's record alike until the rules show clan2's card
    assert first[shown] != second[shown]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bagpipes_peer_every_player_count_opens_with_no_referee_and_deals_only_labels(tmp_path: Path,
                                                                                      players: int) -> None:
    from pbem.bagpipes.ruleset import BagpipesRuleset
    from pbem.core.drbg import Drbg
    rules = BagpipesRuleset(players)
    peer = rules.peer()
    assert peer.sides == tuple(f"clan{n}" for n in range(1, players + 1))  # no referee seat
    d = peer.deck("standard", rules.options())
    assert d is not None and sum(d.piles) == len(d.cards) and len(d.piles) == (1 if players == 2 else 2)
    public = peer.public_setup("standard", rules.options(), Drbg(b"a-setup-stream-for-the-test"))
    assert public["pending"]["owes"] == {s: "plan" for s in peer.sides}
    assert all(c == "?" for c in public["round_deck"][1:]) and all(c.startswith("@") for c in public["bagpipe_deck"])
    dirs, _ = seat_folders(tmp_path, players)
    assert folder.manifest(dirs["clan1"]).sides == peer.sides
