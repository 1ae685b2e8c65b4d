"""Two folders playing Hammer with no referee for the tests (docs/hammer-peer.md): a rigged deal, scripted
Events and standing plans on top of the peer bot's orders, and what the tests read of the record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem.core import identity
from pbem.core.peer import dealing, resigning
from pbem.core.peer import folder as peer
from pbem.core.peer.demo import joined
from pbem.core.peer.rounds import Outcome
from pbem.core.peer.rules import Facts
from pbem.hammer.peer import HammerPeer
from pbem.hammer.play.peer_bot import bot_order, event_order
from pbem.hammer.rules.cards import card, deck
from pbem.hammer.rules.scenario import scenario
from support.hammer_peer_bot import own

SIDES = ("england", "scotland")
KEYS: dict[str, identity.PrivateIdentity] = {}
Plan = dict[str, list[tuple[int | tuple[int, int], str, Callable[[dict[str, Any]], bool]]]]
# side -> (Game Turn of the first year, or (year, Game Turn); Event; which use)


def rig_deal(monkeypatch: pytest.MonkeyPatch, hands: dict[str, list[str]],
             later: dict[str, list[str]] | None = None) -> None:
    """The first shuffle pass of the deal puts ``hands`` (each side's Events, then Move cards) at the positions
    dealt to each side (seat order from 0, protocol §13.11), and with ``later`` the first pass of the second
    year's deal puts those; every other pass keeps the order it receives."""
    first, second = _rigged(hands), _rigged(later or {})
    calls: list[int] = []

    class Rigged:
        def shuffle(self, pile: list[int]) -> None:
            if not calls:
                pile[:] = first
            elif len(calls) == len(SIDES) and later is not None:  # one pass a side a deal: the next deal's first
                pile[:] = second
            calls.append(1)

    monkeypatch.setattr(getattr(dealing, "system_random"), "SystemRandom", Rigged)  # what dealing.py shuffles with


def _rigged(hands: dict[str, list[str]]) -> list[int]:
    cards = sorted(deck())
    moves = [c for c in cards if not card(c).is_event]
    order: list[int] = []
    for side in SIDES:
        mine = [*hands.get(side, []), *[m for m in moves if m not in sum(hands.values(), [])]][:5]
        moves = [m for m in moves if m not in mine]
        order += [cards.index(c) for c in mine]
    return order + [i for i in range(len(cards)) if i not in order]


def first_year() -> int:
    """The year a plan's bare Game Turns are in: the scenario's first, read when the game is played (a test may
    play a variant that starts later)."""
    return scenario("braveheart").first_year


def last_year(plan: Plan) -> int:
    """The last year a plan names (the first year for a bare Game Turn)."""
    return max([turn[0] if isinstance(turn, tuple) else first_year()
                for turns in plan.values() for turn, _, _ in turns] or [first_year()])


def play(tmp_path: Path, plan: Plan, limit: int = 5000, stop: Callable[[Outcome], bool] = lambda out: False,
         battle_plans: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
         whole: bool = False, resign_at: Callable[[Outcome], bool] | None = None) -> dict[str, Path]:
    """Both folders play: a side plays the Event its plan names at that Game Turn (its first use ``wanted`` takes),
    else the peer bot's order; ``battle_plans`` (side -> its plans from the public state) ride in every order the
    side owes. Unless ``whole``, Scotland resigns at the head of the first step after the winter of the plan's
    last year (protocol §13.13): the record then ends with the same final audit as a whole game's end (every
    handle opened, every step replayed with every fact known), at a fraction of the cost; ``resign_at`` says at
    which such step instead."""
    KEYS.update({s: identity.generate(s) for s in SIDES})
    dirs, send = joined({s: tmp_path / s / "bh" for s in SIDES}, KEYS, "hammer", "braveheart", {}, length=256,
                        clock=1)

    def order(side: str) -> dict[str, Any]:
        out, mine = own(dirs[side], side)
        got = scripted(out, side, Facts(out.revealed, out.owners, mine))
        make = (battle_plans or {}).get(side)
        return {**got, "plans": make(out.state)} if make and HammerPeer().owes(out.state).get(side) else got

    def scripted(out: Outcome, side: str, facts: Facts) -> dict[str, Any]:
        if HammerPeer().owes(out.state).get(side) == "card":
            for turn, event, wanted in plan.get(side, []):
                year, at = turn if isinstance(turn, tuple) else (first_year(), turn)
                if out.state["game"]["turn"] + 1 == at and out.state["game"]["year"] == year:
                    played = event_order(out.state, side, facts, event, wanted)
                    assert played, f"{side} cannot play {event} at Game Turn {turn}"
                    return played
        return bot_order(HammerPeer(), out.state, side, facts)

    for _ in range(limit):
        out = peer.outcome(dirs["england"])
        if out.verdict or (out.entries and not out.owes) or stop(out):
            break
        if not whole and out.owes == {s: "commit" for s in SIDES} and (
                resign_at(out) if resign_at else out.state["game"]["year"] > last_year(plan)):
            send("scotland", resigning.write_resign(dirs["scotland"], KEYS["scotland"], clock=1))
            continue
        for s in sorted(out.owes):
            send(s, peer.write_owed(dirs[s], KEYS[s], order(s) if out.owes[s] in peer.ORDERED else None, 1)[1])
    return dirs


def entries(game_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((game_dir / "ledger").iterdir())]


def audited(dirs: dict[str, Path]) -> list[dict[str, Any]]:
    """Both records byte for byte the same, verify ok and audit ok in each folder; the entries."""
    names = sorted(p.name for p in (dirs["england"] / "ledger").iterdir())
    assert names == sorted(p.name for p in (dirs["scotland"] / "ledger").iterdir())
    assert all((dirs["england"] / "ledger" / n).read_bytes() == (dirs["scotland"] / "ledger" / n).read_bytes()
               for n in names)
    for s in SIDES:
        assert any("verify ok" in line for line in peer.verify(dirs[s]))
        assert any("audit ok" in line for line in peer.audit(dirs[s]))
    return entries(dirs["england"])


def lines(record: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [line for e in record if e["kind"] == "step" for line in e["log"]
            if line["what"] == "event" and line.get("event") == event]


def opened(game_dir: Path, side: str, upto: int = 1 << 30) -> set[str]:
    """Every label ``side`` opened before its final message (in the entries up to ``upto``)."""
    return {o["label"] for m in peer.messages(game_dir, peer.manifest(game_dir)) if m.side == side
            and m.phase in ("reveal", "open") and m.step <= upto for o in m.body.get("openings", [])}


