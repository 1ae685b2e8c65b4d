"""Hammer of the Scots with no referee: Game Turns on handles (docs/hammer-peer.md, protocol §13.10).

Two folders, one per side, play the Braveheart set-up, the deal and Game Turns through the peer record's
functions the CLI verbs call (join, start, seal what is owed, receive): the cards are opened with their
orders (3.1), the moves name handles, a battle asks its blocks of their owners (5.1) and the record pauses
until they open; both records are byte-identical, and the final audit (every handle opened, the game
replayed with every fact) passes. The Winter Turn is played in three rounds of claims and seals (docs/hammer-peer.md
§5, pbem/hammer/peer_winter.py) and the next year is dealt again; the fast tests stop once the second year's first
card is played and replay the record with every fact both folders hold (the final audit's check); a whole game is
one slow test. The bots play an Event they hold in some Game Turns of every year (peer_bot.EVENT_TURNS;
tests/hammer/test_peer_events.py plays each one)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_bot import order

from pbem.core import identity
from pbem.core.peer import folder as peer
from pbem.core.peer.demo import joined
from pbem.hammer.peer import HammerPeer

SIDES = ("england", "scotland")


KEYS: dict[str, identity.PrivateIdentity] = {}


def second_year(out: peer.Outcome) -> bool:
    """The first winter is over and the second year's first card is played."""
    g = out.state.get("game", {})
    return bool(g) and g["year"] > 1297 and g["turn"] >= 1


def play(tmp_path: Path, limit: int = 3000, stop: Callable[[peer.Outcome], bool] = second_year) -> dict[str, Path]:
    keys = KEYS
    keys.update({s: identity.generate(s) for s in SIDES})
    dirs, send = joined({s: tmp_path / s / "bh" for s in SIDES}, keys, "hammer", "braveheart", {}, length=2048,
                        clock=1)
    for _ in range(limit):
        out = peer.outcome(dirs["england"])
        if out.verdict or (out.entries and not out.owes) or stop(out):
            break
        for s in sorted(out.owes):
            owed = out.owes[s]
            send(s, peer.write_owed(dirs[s], keys[s], order(dirs[s], s) if owed in peer.ORDERED else None, 1)[1])
    return dirs


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One honest first year, its winter and the second year's first card, played once for the tests that read it."""
    return play(tmp_path_factory.mktemp("year"))


def full_replay(game_dir: Path, dirs: dict[str, Path]) -> None:
    """The final audit's check of the record so far (protocol §13.10): every step replayed with every fact both
    folders hold (each side's openings and cards), each order validated again with them."""
    from pbem.core.peer import hidden_record
    from pbem.core.peer.record import compute

    man = peer.manifest(game_dir)
    held = {m.slot: m for m in peer.messages(game_dir, man)}
    out = compute(man, list(held.values()))
    facts: dict[str, object] = {}
    for s in SIDES:
        peer.own_of(dirs[s], s)  # every card delivered so far read into the side's private area
        secrets = json.loads(peer.private(dirs[s], s).read_text())
        facts.update({k: o["value"] for k, o in secrets["openings"].items() if not k.startswith("order.")})
    hidden_record.replay(man, HammerPeer(), out.entries, facts, out.owners, held)


def test_hammer_peer_7_0_a_winter_and_the_next_deal_on_handles_verify_and_replay(year: dict[str, Path]) -> None:
    """Year one is played, its Winter Turn (7.1-7.7: claims, the pools and the map sealed again, the levy by the
    joint stream) and the next year's mental deal (7.8, protocol §13.11); both records are byte-identical,
    verify, and the replay with every fact passes."""
    dirs = year
    names = sorted(p.name for p in (dirs["england"] / "ledger").iterdir())
    assert names == sorted(p.name for p in (dirs["scotland"] / "ledger").iterdir())
    assert all((dirs["england"] / "ledger" / n).read_bytes() == (dirs["scotland"] / "ledger" / n).read_bytes()
               for n in names)
    entries = [json.loads((dirs["england"] / "ledger" / n).read_text()) for n in names]
    assert not any(e["kind"] in ("void", "forfeit") for e in entries)
    winter = [e for e in entries if e["kind"] == "step" and set(o for order in e["orders"].values()
                                                              if isinstance(order, dict) for o in order) >=
              {"rekey", "seal"}]
    assert len(winter) == 3  # England (7.1, 7.3), Scotland (7.1, 7.2, 7.5, 7.62 draws), both (7.6), then 7.7
    assert [e["kind"] for e in entries].count("deal") == 1
    lines = [line for e in winter for line in e["log"]]
    assert any(line.get("step") == "7.7" and line["levy"] > 0 for line in lines)
    g = entries[-1]["state"]["game"]
    assert g["year"] == 1298 and g["turn"] == 1 and all(len(h) >= 4 for h in g["hands"].values())
    sealed = {k for e in winter for o in e["orders"].values() for k in o["seal"]}
    on_map = {k for k, b in winter[-1]["state"]["game"]["blocks"].items() if b["location"] not in ("pool", "dead")}
    assert sealed and not (set(winter[-1]["state"]["seen"]) & sealed)  # the sealed blocks are unseen again
    assert on_map & sealed
    pauses = [e for e in entries if e["kind"] == "pause"]
    assert all(q["question"]["rule"].startswith(("5.", "3.12")) for q in pauses)  # a battle asks, or an Event
    battles = [line for e in entries if e["kind"] == "step" for line in e["log"] if line["what"] == "battle"]
    assert battles
    for s in SIDES:
        assert any("verify ok" in line for line in peer.verify(dirs[s]))
    full_replay(dirs["england"], dirs)


@pytest.mark.slow
def test_hammer_peer_9_0_a_whole_game_verify_and_audit(tmp_path: Path) -> None:
    """A whole Braveheart game with no referee: every year, its winter and the next deal, until the scenario's
    count (9.0) or sudden death (9.1); both records byte-identical, verify and audit ok in both folders."""
    dirs = play(tmp_path, limit=20000, stop=lambda out: False)
    out = peer.outcome(dirs["england"])
    assert not out.verdict and not out.owes
    assert HammerPeer().result(out.state)["winner"] in SIDES
    for s in SIDES:
        assert any("audit ok" in line for line in peer.audit(dirs[s]))
    names = sorted(p.name for p in (dirs["england"] / "ledger").iterdir())
    assert all((dirs["england"] / "ledger" / n).read_bytes() == (dirs["scotland"] / "ledger" / n).read_bytes()
               for n in names)


def _entries(game_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((game_dir / "ledger").iterdir())]


def _block(label: str) -> bool:
    """A hidden block's handle (``hidden.SIDE.n``), not another fact an order seals."""
    parts = label.split(".")
    return len(parts) == 3 and parts[0] == "hidden" and parts[2].isdigit()


def test_hammer_peer_13_10_noninterference_a_side_opens_only_blocks_the_rules_reveal(year: dict[str, Path]) -> None:
    """At every pause point, in both directions: every hidden block a side opens before the end (ahead in its
    reveal, or in an open the rules asked for) is one the very entry that takes the message reveals in a
    battle or an Event (5.1, 5.32, 3.12): no order, no Player 1 plan that did not come to pass (``if_player1``
    while the other side became Player 1), no move, shows the other side anything more, nor anything sooner."""
    man = peer.manifest(year["scotland"])
    by_hash = {m.hash: m for m in peer.messages(year["scotland"], man)}
    checked = {s: 0 for s in SIDES}
    for e in _entries(year["scotland"]):
        if e["kind"] == "end":
            continue
        revealed = {b["block"] for line in e.get("log", []) if line["what"] == "reveal" for b in line["blocks"]}
        for h in e["messages"]:
            m = by_hash[h]
            opened = {o["label"] for o in m.body.get("openings", []) if _block(o["label"])}
            assert opened <= revealed, (e["entry"], m.side, m.phase, sorted(opened - revealed))
            checked[m.side] += len(opened)
    assert all(checked.values()), checked  # both directions were put to the test


def test_hammer_peer_13_10_noninterference_no_entry_names_a_hidden_block_before_the_rules_reveal_it(
        year: dict[str, Path]) -> None:
    """At every pause point, in both directions: an entry before the end (its state, its orders, its log,
    its question, the facts it says were opened) names no hidden block of either side but those a battle
    revealed up to it (5.1, 5.32; an area named like a noble is no proof of a leak and is left out)."""
    from pbem.hammer.rules.board import board

    entries = _entries(year["scotland"])
    hidden: dict[str, str] = {}  # each block handle of both sides -> its block (the private areas: a test sees all)
    for s in SIDES:
        secrets = json.loads(peer.private(year[s], s).read_text())
        hidden.update({k: o["value"] for k, o in secrets["openings"].items()
                       if _block(k) and isinstance(o["value"], str)})
    names = set(hidden.values()) - set(board().area_names())
    assert {label.split(".")[1] for label in hidden} == set(SIDES) and names

    def strings(value: Any) -> set[str]:
        if isinstance(value, dict):
            return {s for k, v in value.items() for s in {k} | strings(v)}
        if isinstance(value, list):
            return {s for v in value for s in strings(v)}
        return {value} if isinstance(value, str) else set()

    known: set[str] = set()  # the names of the blocks the rules revealed so far (the battles' reveal lines)
    for e in entries:
        if e["kind"] == "end":  # every handle opens at the end
            break
        known |= {hidden[b["block"]] for line in e.get("log", []) if line["what"] == "reveal" for b in line["blocks"]
                  if b["block"] in hidden}
        leaked = (strings({k: v for k, v in e.items() if k not in ("messages", "prev", "seed")}) & names) - known
        assert not leaked, (e["entry"], e["kind"], sorted(leaked))


@pytest.mark.chance("pause-1")  # a game with a battle question (most are; some ask nothing, every reveal riding ahead)
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
    dirs = play(tmp_path, stop=lambda out: second_year(out) or bool(out.verdict))
    assert cheated
    last = json.loads(sorted((dirs["england"] / "ledger").iterdir())[-1].read_text())
    if last["kind"] != "void":  # the block never fought: the final audit's replay with every fact catches it
        from pbem.core.peer.record import Cheat
        with pytest.raises(Cheat) as caught:
            full_replay(dirs["england"], dirs)
        assert caught.value.side == "scotland" and "Move Rating" in str(caught.value)
        return
    assert last["cheater"] == "scotland", last
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


def _lying(monkeypatch: pytest.MonkeyPatch, liar: str, stage: str, lie: Callable[..., Any]) -> list[str]:
    """``liar``'s client commits, at the winter's ``stage``, the order ``lie(order, hide, public, sealed)`` makes
    of its honest one (``sealed``: label -> the value the honest order sealed), its own check before sealing
    switched off, as a cheat's client would: the lies told (once)."""
    from pbem.hammer import peer_winter

    honest = peer_winter.prepare
    told: list[str] = []

    def prepare(public: dict[str, Any], side: str, draft: Any, own: Any, hide: Any) -> Any:
        if side != liar or peer_winter.stage(public) != stage or told:
            return honest(public, side, draft, own, hide)
        values: dict[str, Any] = {}

        def noting(label: str, value: Any) -> str:
            values[label] = value
            return str(hide(label, value))

        order = honest(public, side, draft, own, noting)
        lied = lie(order, hide, public, values)
        if lied:
            told.append(lied)
        return order

    monkeypatch.setattr(peer_winter, "prepare", prepare)
    monkeypatch.setattr(peer, "_check_own", lambda *args: None)
    return told


def _caught(tmp_path: Path, told: list[str], liar: str, why: str) -> None:
    """The lie is told, the record goes on (the other side cannot see it yet), and the final audit's replay
    with every fact convicts the liar, naming it and the rule."""
    from pbem.core.peer.record import Cheat

    dirs = play(tmp_path)
    assert told
    assert not peer.outcome(dirs["england"]).verdict
    with pytest.raises(Cheat) as caught:
        full_replay(dirs["england"], dirs)
    assert caught.value.side == liar and why in str(caught.value), str(caught.value)


def test_hammer_peer_7_1_a_lie_about_a_nobles_home_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """England claims one of its blocks on the map goes somewhere the winter does not send it (a noble kept
    from home, or a block sent home that is no noble there): the other side cannot tell, the final audit's
    replay of the winter on England's true blocks convicts England (7.1)."""
    from pbem.hammer.rules.board import board

    def lie(order: dict[str, Any], hide: Any, public: dict[str, Any], sealed: Any) -> str:
        moves = order["claims"]["moves"]
        for key, b in sorted(public["game"]["blocks"].items()):
            if b["owner"] == "england" and key.startswith("hidden.") and b["location"] in board().areas \
                    and key not in moves:
                where = next(n for n in board().neighbours(b["location"]) if n != "England")
                moves[key] = where
                return f"{key} to {where}"
        return ""

    _caught(tmp_path, _lying(monkeypatch, "england", "england", lie), "england",
            "are not what the winter makes of its blocks")


def test_hammer_peer_7_6_a_lie_about_a_strength_after_builds_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland seals one of its blocks on the map a step stronger than its Replacement Points built it (7.6):
    the handle hides the lie soundly (its opening opens it), and the final audit's replay of the builds with
    every fact convicts Scotland."""
    from pbem.hammer.rules.blocks import spec

    def lie(order: dict[str, Any], hide: Any, public: dict[str, Any], sealed: Any) -> str:
        for label, value in sorted(sealed.items()):
            if value["strength"] < spec(value["block"]).steps:
                order["seal"][label] = hide(label, {**value, "strength": value["strength"] + 1})
                return f"{label} one step stronger"
        return ""

    _caught(tmp_path, _lying(monkeypatch, "scotland", "builds", lie), "scotland", "RPs")


def test_hammer_peer_3_12_a_false_noble_index_sealed_at_a_winter_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """England's builds seal its noble index again with its new handles (a Herald asks by it next year, 3.12); its
    client puts one noble behind another new handle of its, one that does not hide him: nobody can tell yet, and
    the final audit's replay of the builds with every fact convicts England (3.12, 7.6)."""
    def lie(order: dict[str, Any], hide: Any, public: dict[str, Any], sealed: Any) -> str:
        new = sorted(label for labels in order["rekey"]["areas"].values() for label in labels)
        for label in sorted(order["index"]):
            other = next((h for h in new if h != sealed[label]), None)
            if other is not None:
                order["index"][label] = hide(label, other)
                return f"{label} behind {other}"
        return ""

    _caught(tmp_path, _lying(monkeypatch, "england", "builds", lie), "england", "its noble index puts")


def test_hammer_peer_7_62_a_pool_sealed_with_a_block_it_does_not_hold_is_caught_with_the_side_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scotland seals its pool again with a block it does not hold (Edward) behind one handle in place of one it
    does, as a side would that wants the joint stream's draw (7.62) to give it a block its pool lacks: the
    handle opens soundly, and the final audit's replay convicts Scotland, its sealed pool not being its pool."""
    def lie(order: dict[str, Any], hide: Any, public: dict[str, Any], sealed: Any) -> str:
        labels = order["rekey"]["pool"]
        if not labels:
            return ""
        order["seal"][labels[0]] = hide(labels[0], "Edward")
        return f"Edward behind {labels[0]} in place of {sealed[labels[0]]}"

    _caught(tmp_path, _lying(monkeypatch, "scotland", "scotland", lie), "scotland", "its sealed pool is not its pool")


def test_hammer_peer_7_0_a_malformed_winter_order_is_refused_in_one_sentence(year: dict[str, Path]) -> None:
    """Winter orders that name the other side's blocks, places off the board, wrong types, too few pool handles
    or another side's choices are refused before they bind (each a ``PbemError`` the record turns into a
    conviction of the sender), never a traceback."""
    from pbem.core.errors import PbemError
    from pbem.core.peer.rules import Facts

    entries = [json.loads(p.read_text()) for p in sorted((year["england"] / "ledger").iterdir())]
    public = next(e["state"] for e in entries if e.get("state", {}).get("game", {}).get("phase") == "winter"
                  and "winter" not in e["state"])
    mine = sorted(k for k, b in public["game"]["blocks"].items() if b["owner"] == "england")
    theirs = sorted(k for k, b in public["game"]["blocks"].items() if b["owner"] == "scotland")
    good = {"choices": {}, "defect": [], "edward": "", "moves": {}}
    bad = [
        {"claims": {**good, "moves": {theirs[0]: "pool"}}, "rekey": {"pool": [], "coastal": []}, "seal": {}},
        {"claims": {**good, "moves": {mine[0]: "Atlantis"}}, "rekey": {"pool": [], "coastal": []}, "seal": {}},
        {"claims": {**good, "moves": {mine[0]: ["pool"]}}, "rekey": {"pool": [], "coastal": []}, "seal": {}},
        {"claims": {**good, "draws": {"Fife": 1}}, "rekey": {"pool": [], "coastal": []}, "seal": {}},
        {"claims": {**good, "choices": {"moray": "stay"}, "moves": {}}, "rekey": {"pool": [], "coastal": []},
         "seal": {}},
        {"claims": good, "rekey": {"pool": [], "coastal": []}, "seal": {}},  # its pool not sealed again
        {"claims": good, "rekey": {"pool": "hidden.england.99"}, "seal": {}},
        {"card": "card.england.0"},
        [],
    ]
    for wrong in bad:
        with pytest.raises(PbemError) as refused:
            HammerPeer().validate(public, "england", wrong, Facts({}, {}))
        assert "\n" not in str(refused.value) and ("winter order of england" in str(refused.value)
                                                   or "owes" in str(refused.value)), str(refused.value)


def test_hammer_peer_7_62_a_players_winter_plan_names_blocks_by_name_and_binds_its_builds(
        year: dict[str, Path]) -> None:
    """A player's winter draft is the refereed ``[winter]`` plan under ``[plan]`` with blocks by name (docs/
    hammer-peer.md §8): at the builds its client puts the step where the plan says, seals each block with its
    strength, and the order passes the audit's check with every fact known (7.62)."""
    from pbem.core.peer import handles
    from pbem.core.peer.rules import Facts
    from pbem.hammer import peer_winter
    from pbem.hammer.rules.blocks import spec
    from pbem.hammer.rules.winter import replacement_points

    entries = [json.loads(p.read_text()) for p in sorted((year["scotland"] / "ledger").iterdir())]
    public = next(e["state"] for e in entries if e.get("state", {}).get("winter", {}).get("stage") == "builds")
    secrets = json.loads(peer.private(year["scotland"], "scotland").read_text())
    own = {k: o["value"] for k, o in secrets["openings"].items() if k.startswith("hidden.scotland.")}
    g, _ = peer_winter.truth(public, "scotland", Facts({}, {}, own))
    area, name = next((a, n) for a, rps in sorted(replacement_points(g, "scotland").items())
                      for n in g.blocks_in(a, "scotland") if g.blocks[n].strength < spec(n).steps)
    draft = HammerPeer().parse_order(f'[plan]\nbuilds = {{ "{area}" = ["step:{name}", "pass"] }}\n', "the draft")
    values: dict[str, Any] = {}

    def hide(label: str, value: Any) -> str:
        values[label] = value
        return handles.make(label, value)[0]

    order = HammerPeer().prepare(public, "scotland", draft, own, hide)
    built = {v["block"]: v["strength"] for v in values.values() if isinstance(v, dict)}  # not the noble index
    assert built[name] == g.blocks[name].strength + 1
    others = [n for n in g.blocks_in(area, "scotland") if n != name and n in built]
    assert all(built[n] == g.blocks[n].strength for n in others)  # one RP spent there, the rest passed
    everything = Facts({**own, **values}, {}, everything=True)
    HammerPeer().validate(public, "scotland", order, everything)
