"""Hammer of the Scots with no referee: Game Turns on handles (docs/hammer-peer.md, protocol §13.10).

Two folders, one per side, play the Braveheart set-up, the deal and Game Turns through the peer record's
functions the CLI verbs call (join, start, seal what is owed, receive): the cards are opened with their
orders (3.1), the moves name handles, a battle asks its blocks of their owners (5.1) and the record pauses
until they open; both records are byte-identical, and the final audit (every handle opened, the game
replayed with every fact) passes. The record ends at the first winter (not built yet); the bots play an Event
they hold in some Game Turns (peer_bot.EVENT_TURNS; tests/hammer/test_peer_events.py plays each one)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.hammer_peer_bot import order

from pbem.core import identity
from pbem.core.peer import folder as peer
from pbem.core.peer.demo import joined
from pbem.hammer.peer import HammerPeer

SIDES = ("england", "scotland")


KEYS: dict[str, identity.PrivateIdentity] = {}


def play(tmp_path: Path, limit: int = 400, stop: Callable[[peer.Outcome], bool] = lambda out: False) -> dict[str, Path]:
    keys = KEYS
    keys.update({s: identity.generate(s) for s in SIDES})
    dirs, send = joined({s: tmp_path / s / "bh" for s in SIDES}, keys, "hammer", "braveheart", {}, length=256,
                        clock=1)
    for _ in range(limit):
        out = peer.outcome(dirs["england"])
        if out.verdict or (out.entries and not out.owes) or stop(out):
            break
        for s in sorted(out.owes):
            owed = out.owes[s]
            send(s, peer.write_owed(dirs[s], keys[s], order(dirs[s], s) if owed == "commit" else None, 1)[1])
    return dirs


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One honest first year, played once for the tests that read it."""
    return play(tmp_path_factory.mktemp("year"))


def test_hammer_peer_5_1_game_turns_with_battles_on_handles_verify_and_audit(year: dict[str, Path]) -> None:
    dirs = year
    names = sorted(p.name for p in (dirs["england"] / "ledger").iterdir())
    assert names == sorted(p.name for p in (dirs["scotland"] / "ledger").iterdir())
    assert all((dirs["england"] / "ledger" / n).read_bytes() == (dirs["scotland"] / "ledger" / n).read_bytes()
               for n in names)
    entries = [json.loads((dirs["england"] / "ledger" / n).read_text()) for n in names]
    assert entries[-1]["kind"] == "end" and entries[-1]["audit"] == "ok"  # the first winter ends it (not built)
    assert entries[-2]["state"]["game"]["phase"] == "winter" and entries[-2]["state"]["game"]["turn"] >= 3
    pauses = [e for e in entries if e["kind"] == "pause"]
    assert all(q["question"]["rule"].startswith(("5.", "3.12")) for q in pauses)  # a battle asks, or an Event
    battles = [line for e in entries if e["kind"] == "step" for line in e["log"] if line["what"] == "battle"]
    assert battles
    for s in SIDES:
        assert any("verify ok" in line for line in peer.verify(dirs[s]))
        assert any("audit ok" in line for line in peer.audit(dirs[s]))


def test_hammer_peer_13_10_noninterference_a_side_opens_only_blocks_the_rules_reveal(year: dict[str, Path]) -> None:
    """Before the end, every hidden block a side opens (ahead in its reveal, or in an open the rules asked
    for) is one a battle or an Event then reveals (5.1, 5.32, 3.12): no order, no Player 1 plan that did not
    come to pass (``if_player1`` while the other side became Player 1), no move, shows the other side anything
    more."""
    dirs = year
    revealed = set()
    for path in sorted((dirs["scotland"] / "ledger").iterdir()):
        for line in json.loads(path.read_text()).get("log", []):
            if line["what"] == "reveal":
                revealed |= {b["block"] for b in line["blocks"]}
    opened = set()
    for m in peer.messages(dirs["scotland"], peer.manifest(dirs["scotland"])):
        if m.phase in ("reveal", "open"):
            opened |= {o["label"] for o in m.body.get("openings", []) if o["label"].startswith("hidden.")
                       and o["label"].split(".")[2].isdigit()}  # blocks; not what orders seal (plans, answers)
    assert opened and opened <= revealed, sorted(opened - revealed)


def test_hammer_peer_5_1_a_battle_reveal_that_does_not_open_its_handle_names_the_cheater(tmp_path: Path) -> None:
    """At the first battle's question the owner opens the asked handle as another of its blocks: the other
    side's client checks the opening against the handle at once, writes a void entry naming the cheater,
    and verify says so (protocol §13.6, §13.10)."""
    dirs = play(tmp_path, stop=lambda out: bool(out.resume))
    out = peer.outcome(dirs["scotland"])
    question = out.resume["question"]
    liar, label = question["owner"], question["label"]
    private = dirs[liar] / ".pbem" / f"peer-{liar}" / "secrets.json"
    secrets = json.loads(private.read_text())
    truth = secrets["openings"][label]["value"]
    other = next(v["value"] for k, v in sorted(secrets["openings"].items())
                 if k.startswith("hidden.") and v["value"] != truth)
    secrets["openings"][label]["value"] = other  # the lie: the same salt, another block
    private.write_text(json.dumps(secrets))
    honest = "scotland" if liar == "england" else "england"
    peer.take(dirs[honest], peer.write_owed(dirs[liar], KEYS[liar], None, 1)[1].encode("ascii"), "the lie")
    last = json.loads(sorted((dirs[honest] / "ledger").iterdir())[-1].read_text())
    assert last["kind"] == "void" and last["cheater"] == liar
    assert f"its opening of {label} does not open the handle it published" in last["reason"]
    assert any(f"{liar} cheated at step" in line for line in peer.verify(dirs[honest]))


def _beyond_allowance(game_dir: Path, side: str) -> dict[str, object] | None:
    """A move of one of ``side``'s unseen blocks one area beyond its Move Rating (2.13) that the rules accept
    while the block is unseen (the most any block may move), or None."""
    from support.hammer_peer_bot import own

    from pbem.core.errors import PbemError
    from pbem.core.peer.rules import Facts
    from pbem.hammer.rules.blocks import spec
    from pbem.hammer.rules.board import board

    out, mine = own(game_dir, side)
    rules, public = HammerPeer(), out.state
    for handle, b in sorted(public["game"]["blocks"].items()):
        if b["owner"] != side or handle not in mine or handle in public["seen"] or b["location"] in ("pool", "dead"):
            continue
        reach = spec(mine[handle]).move + 1
        paths = [[b["location"]]]
        for _ in range(reach):
            paths = [[*p, n] for p in paths for n in board().neighbours(p[-1]) if n not in p]
        for path in paths:
            attempt = {"moves": [{"from": b["location"], "parts": [{"blocks": [handle], "path": path[1:]}]}]}
            try:
                rules.validate(public, side, attempt, Facts(out.revealed, out.owners))
            except PbemError:
                continue
            return attempt
    return None


def test_hammer_peer_2_13_a_move_beyond_a_hidden_blocks_allowance_is_caught_with_the_cheater_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland moves an unseen block one area beyond its Move Rating: the record accepts it while the block is
    unseen (moving reveals nothing), and convicts Scotland once the block's identity opens (its battle, or the
    final audit's replay with every fact): "scotland cheated at step N: ... Move Rating" (protocol §13.10)."""
    import support.hammer_peer_bot as bot

    honest = bot.order
    cheated: list[int] = []

    def cheat(game_dir: Path, side: str) -> dict[str, object]:
        if side == "scotland" and not cheated and HammerPeer().owes(peer.outcome(game_dir).state).get(side) \
                == "moves":
            move = _beyond_allowance(game_dir, side)
            if move is not None:
                cheated.append(1)
                return move
        return honest(game_dir, side)

    monkeypatch.setattr(peer, "_check_own", lambda *args: None)  # the cheat's client does not check its own order
    monkeypatch.setattr(sys.modules[__name__], "order", cheat)
    dirs = play(tmp_path)
    assert cheated
    last = json.loads(sorted((dirs["england"] / "ledger").iterdir())[-1].read_text())
    assert last["kind"] == "void" and last["cheater"] == "scotland", last
    assert "Move Rating" in last["reason"]
    assert any("scotland cheated at step" in line for line in peer.verify(dirs["england"]))


def test_hammer_peer_4_1_a_card_order_opens_its_card_and_not_the_blocks_its_if_player1_attacks(
        year: dict[str, Path]) -> None:
    """Whether a side becomes Player 1 is not known when its card order is revealed (4.1), so the blocks its
    ``if_player1`` moves would bring into battle are not opened ahead: only the card (3.1). (A naive client
    opening them shows the other side blocks that may never fight.)"""
    entries = [json.loads(p.read_text()) for p in sorted((year["england"] / "ledger").iterdir())]
    for before, step in zip(entries, entries[1:]):
        if step["kind"] == "step" and before.get("state") and all("card" in o for o in step["orders"].values()):
            for side, o in step["orders"].items():
                if o.get("if_player1"):
                    assert HammerPeer().foresee(before["state"], side, o) == [o["card"]]
                    return
    pytest.fail("no card order with if_player1 moves in the year")


def test_hammer_peer_13_5_a_side_that_stops_after_seeing_the_others_link_forfeits(tmp_path: Path) -> None:
    """Both sides commit their cards; England reveals (its order, its card and its chain link); Scotland, having
    seen them, never reveals. England may not claim before the deadline, and after it England's signed claim
    ends both records with a forfeit naming Scotland (protocol §13.5), proven by the signed messages."""
    from pbem.core.errors import PbemError

    def both_reveal(out: peer.Outcome) -> bool:
        return len(out.entries) >= 2 and out.owes == {"england": "reveal", "scotland": "reveal"}

    dirs = play(tmp_path, stop=both_reveal)
    assert both_reveal(peer.outcome(dirs["england"]))
    reveal = peer.write_owed(dirs["england"], KEYS["england"], None, 1)[1]
    peer.take(dirs["scotland"], reveal.encode("ascii"), "england's reveal")  # Scotland now knows the dice
    with pytest.raises(PbemError, match="a forfeit may be claimed after the deadline"):
        peer.write_owed(dirs["england"], KEYS["england"], None, 1 + 3600)
    what, claim = peer.write_owed(dirs["england"], KEYS["england"], None, 1 + 24 * 3600)
    assert what == "claim"
    peer.take(dirs["scotland"], claim.encode("ascii"), "england's claim")
    for s in SIDES:
        last = json.loads(sorted((dirs[s] / "ledger").iterdir())[-1].read_text())
        assert last["kind"] == "forfeit" and last["forfeit"] == ["scotland"] and last["claimant"] == "england"
