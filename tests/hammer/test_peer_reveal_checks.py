"""A winter's seals checked when the rules reveal them, not only at the final audit (docs/hammer-peer.md §5, protocol
§13.10; pbem/hammer/peer_reveal.py).

A side's client lies at the first winter's builds (7.6), its own check before sealing switched off as a cheat's would
be: each handle still opens soundly (it commits the lie). In the next year the liar attacks with the handle it lied
about, so a battle reveals it (5.1), and the other side's client convicts the liar at that step, with a void entry and
a proof naming side, step and rule, long before the final audit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.hammer_peer_bot import own

from pbem.core import identity
from pbem.core.errors import PbemError
from pbem.core.peer import folder as peer
from pbem.core.peer.demo import joined
from pbem.core.peer.rules import Facts
from pbem.hammer import peer_winter
from pbem.hammer.peer import HammerPeer
from pbem.hammer.play.peer_bot import bot_order
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.state import PLACES
from pbem.hammer.rules.winter import ENGLISH_BUILDABLE

SIDES = ("england", "scotland")
Lie = Callable[[str, dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]], list[str]]
# (side, its builds order, public, label -> the value the honest order sealed, the builds' public record) -> the
# handles lied about (their values changed in ``sealed``), or [] when the side has none to lie about


def _enemy_near(public: dict[str, Any], side: str, area: str) -> bool:
    return any(b["owner"] != side and b["location"] in board().neighbours(area)
               for b in public["game"]["blocks"].values())


def _play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lie: Lie, scenario: str = "braveheart",
          liars: tuple[str, ...] = SIDES) -> tuple[dict[str, Path], str, list[str]]:
    """Two folders play with the peer bots; at each builds where one of ``liars`` (the first that does) has something
    to lie about (``lie``), it seals the lie; the year after, it attacks with the handles it lied about whenever it
    can. Stops at a verdict, at the end, or at the third winter after the first lie (a lie whose blocks did not fight
    is sealed away by the next builds, and told again). Returns the folders, the liar and its lied handles."""
    keys = {s: identity.generate(s) for s in SIDES}  # one known game: tests/conftest.py
    honest_prepare = peer_winter.prepare
    told: dict[str, list[str]] = {}  # the liar -> every handle it lied about
    years: list[int] = []  # the years the lies stand in
    truths: dict[str, Any] = {}  # what the lied handles hide in truth: the liar's client plays its winters by them

    def prepare(public: dict[str, Any], side: str, draft: Any, own_facts: Any, hide: Any) -> Any:
        own_facts = {**own_facts, **truths} if side in told else own_facts
        if side not in liars or (told and side not in told) or peer_winter.stage(public) != "builds":
            return honest_prepare(public, side, draft, own_facts, hide)
        values: dict[str, Any] = {}

        def noting(label: str, value: Any) -> str:
            values[label] = value
            return str(hide(label, value))

        order = honest_prepare(public, side, draft, own_facts, noting)
        made = peer_winter.sealed_map(public, {s: order for s in SIDES})[side]
        honest = dict(values)
        lied = lie(side, order, public, values, made)
        if lied:
            truths.update({label: honest[label] for label in lied})
            told[side] = [*told.get(side, []), *lied]
            years.append(public["game"]["year"] + 1)
            for label in lied:
                order["seal"][label] = hide(label, values[label])
        return order

    monkeypatch.setattr(peer_winter, "prepare", prepare)
    monkeypatch.setattr(peer, "_check_own", lambda *args: None)
    dirs, send = joined({s: tmp_path / s / "bh" for s in SIDES}, keys, "hammer", scenario, {}, length=256, clock=1)
    for _ in range(20000):
        out = peer.outcome(dirs["england"])
        g = out.state.get("game", {})
        if any(peer.outcome(d).verdict for d in dirs.values()) or (out.entries and not out.owes) \
                or (years and g["year"] >= years[0] + 2 and g["phase"] == "winter"):
            break
        for s in sorted(out.owes):
            if peer.outcome(dirs[s]).verdict:  # the other side's message just convicted it here
                break
            draft = _order(dirs[s], s, told.get(s, [])) if out.owes[s] in peer.ORDERED else None
            send(s, peer.write_owed(dirs[s], keys[s], draft, 1)[1])
    assert told, "no side had a block to lie about at any builds"
    (liar, lied), = told.items()
    return dirs, liar, lied


def _order(game_dir: Path, side: str, lied: list[str]) -> dict[str, Any]:
    """The bot's order, but an attack with the handles lied about (together when they stand together) whenever
    the rules let them make one."""
    out, mine = own(game_dir, side)
    rules, public, facts = HammerPeer(), out.state, Facts(out.revealed, out.owners, mine)
    owed = rules.owes(public).get(side)
    blocks = public["game"]["blocks"]
    here = [h for h in lied if h in blocks and blocks[h]["location"] not in PLACES and blocks[h]["owner"] == side]
    if owed in ("card", "moves") and here:
        moves = [c for c in public["game"]["hands"][side] if not card(str(facts.get(c, "own"))).is_event]
        base = {"card": moves[0]} if owed == "card" and moves else {}
        groups = [[h for h in here if blocks[h]["location"] == blocks[here[0]]["location"]], *[[h] for h in here]]
        for group in groups if base or owed == "moves" else []:
            area = blocks[group[0]]["location"]
            for path in _paths(public, side, area):
                attempt = {"moves": [{"from": area, "parts": [{"blocks": group, "path": path}]}]}
                draft = {**base, "if_player1": attempt} if base else attempt
                try:
                    rules.validate(public, side, draft, facts)
                except PbemError:
                    continue
                return draft
    return bot_order(rules, public, side, facts)


def _paths(public: dict[str, Any], side: str, area: str) -> list[list[str]]:
    """Paths of one to three areas from ``area`` to an enemy area, through friendly or empty ones, shortest first."""
    enemy = {b["location"] for b in public["game"]["blocks"].values() if b["owner"] != side}
    out: list[list[str]] = []
    paths = [[area]]
    for _ in range(3):
        paths = [[*p, n] for p in paths for n in sorted(board().neighbours(p[-1])) if n not in p]
        out += [p[1:] for p in paths if p[-1] in enemy]
        paths = [p for p in paths if p[-1] not in enemy]
    return out


def _convicted(dirs: dict[str, Path], liar: str, why: str) -> dict[str, Any]:
    """The other side's record ends in a void entry convicting the liar in the second year, before the end, with
    a proof file naming side and step; verify says so. The void entry."""
    honest = next(s for s in SIDES if s != liar)
    ledger = sorted((dirs[honest] / "ledger").iterdir())
    last = json.loads(ledger[-1].read_text())
    assert last["kind"] == "void", f"no conviction at once: the record ends in {last['kind']}"
    assert last["cheater"] == liar and why in last["reason"], (last["cheater"], last["reason"])
    years = [e["state"]["game"]["year"] for e in map(json.loads, (p.read_text() for p in ledger))
             if "game" in e.get("state", {})]
    assert years[-1] > years[0], "convicted before the next year"
    proofs = [json.loads(p.read_text()) for p in sorted((dirs[honest] / "proofs").iterdir())]
    assert any(p["cheater"] == liar and p["step"] == last["step"] and why in p["reason"] for p in proofs)
    assert any(f"{liar} cheated at step {last['step']}" in line for line in peer.verify(dirs[honest]))
    return last


def test_hammer_peer_7_6_a_strength_lie_at_the_builds_is_convicted_when_a_battle_reveals_it_the_next_year(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A side seals each block whose strength a battle had shown (public) at its full strength, where that is more
    than the RPs of its area could build (or an English block that takes no steps, 7.63): when one of them fights
    the next year its opening is checked against what the builds made public, and the liar is convicted at that
    step (7.6)."""
    def lie(side: str, order: dict[str, Any], public: dict[str, Any], sealed: dict[str, Any],
            made: dict[str, Any]) -> list[str]:
        lied = []
        for label, area in sorted(made["handles"].items()):
            name = sealed[label]["block"]
            if name not in made["before"]:
                continue
            old = made["before"][name][1]
            most = old if side == "england" and spec(name).type not in ENGLISH_BUILDABLE else \
                old + made["rps"].get(area, 0)
            if most < spec(name).steps:
                sealed[label] = {"block": name, "strength": spec(name).steps}
                lied.append(label)
        return lied

    dirs, liar, _ = _play(tmp_path, monkeypatch, lie)
    _convicted(dirs, liar, "at the winter of")


def test_hammer_peer_8_0_one_block_sealed_behind_two_handles_is_convicted_when_both_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A side seals one of its blocks behind two of its new handles in one area (in place of another block there, to
    field a strong block twice): when a battle opens the second the block stands under two keys, and the liar is
    convicted at that step (8.0, 7.6)."""
    def lie(side: str, order: dict[str, Any], public: dict[str, Any], sealed: dict[str, Any],
            made: dict[str, Any]) -> list[str]:
        for area, labels in sorted(order["rekey"]["areas"].items()):
            if len(labels) >= 2 and _enemy_near(public, side, area):
                first, second = labels[:2]
                sealed[second] = dict(sealed[first])
                return [first, second]
        return []

    dirs, liar, _ = _play(tmp_path, monkeypatch, lie)
    _convicted(dirs, liar, "behind two handles")


def test_hammer_peer_5_8_a_dead_block_sealed_behind_a_handle_is_convicted_when_a_battle_reveals_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In The Bruce Wallace is dead from the start (public, 8.2). Scotland seals him behind one of its new handles in
    place of a block it has: when the handle fights the next year the liar is convicted at that step (5.8, 7.6)."""
    def lie(side: str, order: dict[str, Any], public: dict[str, Any], sealed: dict[str, Any],
            made: dict[str, Any]) -> list[str]:
        for label, area in sorted(made["handles"].items()):
            if _enemy_near(public, side, area):
                sealed[label] = {"block": "Wallace", "strength": spec("Wallace").steps}
                return [label]
        return []

    dirs, liar, _ = _play(tmp_path, monkeypatch, lie, scenario="the_bruce", liars=("scotland",))
    _convicted(dirs, liar, "who is dead")


def _after_builds(nobles: int) -> dict[str, Any]:
    """A public state the year after England's builds sealed a handle in Angus and one in Argyll, claiming ``nobles``
    nobles."""
    return {"game": {"blocks": {h: {"owner": "england", "location": area, "strength": 0} for h, area in BUILT.items()}},
            "seen": {}, "builds": {"england": {"year": 1297, "nobles": nobles, "before": {}, "rps": {},
                                               "handles": dict(BUILT)}}}


BUILT = {"hidden.england.40": "Angus", "hidden.england.41": "Argyll"}


def test_hammer_peer_3_12_a_noble_index_a_herald_opens_names_a_handle_its_winters_builds_sealed() -> None:
    """A Herald opens the noble index the last builds sealed (hidden.SIDE.noble-YEAR-NAME): it must name one of the
    handles those builds sealed, a fact checked as it opens (3.12, 7.6), not a pool handle or an older one."""
    from pbem.core.peer.rules import FactLie
    from pbem.hammer.peer_reveal import check_opened

    index = "hidden.england.noble-1298-Angus"
    check_opened(_after_builds(1), "england", {index: "hidden.england.40"}, {index: "hidden.england.40"})
    with pytest.raises(FactLie, match=r"puts Angus behind 'hidden.england.30', which its builds of 1297 did not seal"):
        check_opened(_after_builds(1), "england", {index: "hidden.england.30"}, {index: "hidden.england.30"})


def test_hammer_peer_9_0_the_count_of_nobles_a_winters_builds_claimed_is_checked_as_its_handles_open() -> None:
    """The builds claim, in public, how many nobles their handles hide (9.1 counts them); handles opened later that
    show more nobles, or more other blocks, than that count leaves convict the side at once (9.0, 7.6)."""
    from pbem.core.peer.rules import FactLie
    from pbem.hammer.peer_reveal import check_opened

    two = {"hidden.england.40": {"block": "Angus", "strength": 2},
           "hidden.england.41": {"block": "Argyll", "strength": 2}}
    check_opened(_after_builds(2), "england", two, two)
    with pytest.raises(FactLie, match="counted 1 nobles among 2 blocks"):
        check_opened(_after_builds(1), "england", two, two)
    archers = {"hidden.england.40": {"block": "Wales Archers", "strength": 2}}
    with pytest.raises(FactLie, match="counted 2 nobles among 2 blocks"):
        check_opened(_after_builds(2), "england", archers, archers)


def test_hammer_peer_7_1_a_noble_a_winters_builds_sealed_away_from_his_home_is_convicted_as_he_opens() -> None:
    """7.1 sends every noble but Moray home before the builds seal the blocks where they stand: a handle sealed in
    Angus that opens as Argyll (whose home is Argyll) convicts its side at once, whatever the claims said; Moray
    may have stayed where he was (7.1), and a block that is no noble is not asked."""
    from pbem.core.peer.rules import FactLie
    from pbem.hammer.peer_reveal import check_opened

    home = {"hidden.england.40": {"block": "Angus", "strength": 2}}
    check_opened(_after_builds(1), "england", home, home)
    away = {"hidden.england.40": {"block": "Argyll", "strength": 2}}
    with pytest.raises(FactLie, match=r"sealed in Angus at the winter of 1297, hides Argyll, whose home is Argyll: "
                                      r"every noble but Moray winters at home \(7.1\)"):
        check_opened(_after_builds(1), "england", away, away)
    for block in ("Moray", "Wales Archers"):
        other = {"hidden.england.40": {"block": block, "strength": 2}}
        check_opened(_after_builds(1 if block == "Moray" else 0), "england", other, other)


def test_hammer_peer_7_1_two_nobles_sealed_in_each_others_homes_are_convicted_when_a_battle_reveals_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A side swaps two of its nobles at the builds (each sealed in the other's home: the count of nobles and one key
    per block still hold): when one of them fights the next year, the liar is convicted at that step (7.1)."""
    def lie(side: str, order: dict[str, Any], public: dict[str, Any], sealed: dict[str, Any],
            made: dict[str, Any]) -> list[str]:
        nobles = [label for label, area in sorted(made["handles"].items())
                  if spec(sealed[label]["block"]).is_noble and sealed[label]["block"] != "Moray"
                  and made["handles"][label] in spec(sealed[label]["block"]).homes]
        for first in nobles:
            for second in nobles:
                if first != second and made["handles"][first] != made["handles"][second] \
                        and _enemy_near(public, side, made["handles"][first]):
                    sealed[first], sealed[second] = sealed[second], sealed[first]
                    return [first, second]
        return []

    dirs, liar, _ = _play(tmp_path, monkeypatch, lie)
    _convicted(dirs, liar, "winters at home (7.1)")
