"""Swords and Bagpipes with no referee (docs/bagpipes-peer.md, protocol §13): whole games between bot clients in
process, the final audit's full replay, and the attacks a cheating seat could try, each caught with the seat named."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from pbem.bagpipes.bots import BOTS
from pbem.bagpipes.engine import seat_ids
from pbem.bagpipes.model import to_data
from pbem.bagpipes.peer import Cheat, Message, PeerGame, verify
from pbem.bagpipes.peergame import is_token
from pbem.bagpipes.play import bot_rng
from pbem.core import envelope, identity
from pbem.core.errors import PbemError
from pbem.core.peer import handles


def fixed_entropy(label: str) -> Callable[[str], Callable[[int], bytes]]:
    """Each seat's randomness from a fixed seed: two games that differ in one seat's choice deal alike."""
    def for_seat(seat: str) -> Callable[[int], bytes]:
        counter = [0]

        def draw(n: int) -> bytes:
            counter[0] += 1
            return hashlib.shake_256(f"{label}/{seat}/{counter[0]}".encode()).digest(n)
        return draw
    return for_seat


def new_game(players: int, bot: str = "simple", bots: dict[str, Any] | None = None, label: str = "",
             game_id: str = "peer-bp") -> PeerGame:
    chosen = {s: BOTS[bot] for s in seat_ids(players)}
    chosen.update(bots or {})
    return PeerGame(game_id, players, chosen, entropy=fixed_entropy(label) if label else None)


def play(g: PeerGame, seed: bytes = b"peer") -> None:
    g.play(lambda s, k: bot_rng(seed, s, k))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_sb_peer_whole_game_ends_with_the_audit_replaying_every_hidden_fact(players: int) -> None:
    """[SB-3], [SB-5], protocol §13: a whole game between bot clients, no referee, ends; the audit opens every
    deal key, replays every pass and the game with the full engine, and every entry's public state agrees."""
    g = new_game(players)
    play(g)
    last = g.rec.entries[-1]["public"]
    assert last["phase"] == "over" and last["end_reason"]
    assert g.audit()[0].startswith("audit ok")
    assert verify(g.rec)[0].startswith("verify ok")
    opened = [o for e in g.rec.entries for o in e["opened"]]
    assert any(o.startswith("loyalty ") for o in opened) and any(o.startswith("card grey@") for o in opened)


@pytest.mark.slow
def test_sb_peer_verify_replays_the_record_from_its_messages_alone_and_refuses_a_changed_one() -> None:
    """Protocol §13.4: an observer holding no secret recomputes every entry from the messages; a message whose
    revealed order was changed after the fact does not open its commitment and names its seat."""
    g = new_game(2, label="verify")
    play(g)
    assert verify(g.rec)[0].startswith("verify ok")
    reveal = next(m for m in g.rec.messages if m.phase == "reveal" and m.body["opening"].value["order"])
    o = reveal.body["opening"]
    reveal.body["opening"] = handles.Opening(o.label, o.salt, {**o.value, "order": {**o.value["order"], "round": 9}})
    with pytest.raises(Cheat, match=rf"{reveal.seat} cheated at step {reveal.step}: its reveal does not open"):
        verify(g.rec)


@pytest.mark.slow
def test_sb_peer_a_shuffle_that_substitutes_a_card_is_caught_at_the_final_audit() -> None:
    """Protocol §13.7, [SB-6]: a seat whose shuffle pass of the bagpipe deck puts one card twice (and drops
    another) plays on unnoticed, but the final audit replays its pass from its opened keys and names it."""
    g = new_game(4, label="substitute")

    def substitute(m: Message) -> None:
        m.body["deck"] = [m.body["deck"][1], *m.body["deck"][1:]]
    g.cheat_hooks["0.shuffle.bagpipe.clan2"] = substitute
    play(g)
    with pytest.raises(PbemError, match=r"clan2 cheated in the deal: its shuffle pass"):
        g.audit()


@pytest.mark.slow
def test_sb_peer_two_signed_messages_for_one_step_prove_equivocation() -> None:
    """Protocol §13.2: every message is a sign-only envelope of its seat; a second, different message signed by
    the same seat for the same step and phase (sent to another player) convicts that seat by name."""
    keys = {s: identity.generate(s) for s in seat_ids(2)}
    g = PeerGame("equivocate", 2, {s: BOTS["simple"] for s in keys}, keys=keys)
    play(g)
    assert verify(g.rec)[0].startswith("verify ok")
    first = next(m for m in g.rec.messages if m.phase == "deliver" and m.body["keys"])
    fork = Message(first.seat, first.step, first.phase, {"keys": {t: 1 for t in first.body["keys"]}})
    fork.signed = envelope.sign_only(keys[first.seat], fork.payload(), game=g.rec.game, kind="peer",
                                     side=fork.seat, step=fork.step)
    g.rec.messages.append(fork)
    with pytest.raises(Cheat, match=rf"{first.seat} cheated at step {first.step}: it signed two different deliver"):
        verify(g.rec)
    g.rec.messages.pop()
    forged = Message(first.seat, first.step, first.phase, fork.body, first.signed)
    g.rec.messages[g.rec.messages.index(first)] = forged
    with pytest.raises(PbemError, match=rf"is not what {first.seat} signed"):
        verify(g.rec)


def test_sb_peer_three_players_refused_with_one_sentence() -> None:
    """[SB-12.1]: a drawn card naming the Badge is shown and redrawn, which a game with no referee cannot do
    without showing every draw; refused at once."""
    with pytest.raises(PbemError, match=r"3-player.*\[SB-12.1\]"):
        new_game(3)


def test_sb_peer_each_seat_reads_only_its_own_dealt_cards() -> None:
    """Protocol §13.7 (a deal inside the game's flow): after the set-up each seat has read its own opening
    bagpipe card, and holds every other seat's card only as a deal token it cannot open."""
    g = new_game(4)
    g.set_up()
    assert g.rec.table is not None
    for seat, client in g.clients.items():
        mine = g.rec.table.seat(seat).hand
        assert mine and all(is_token(c) for c in mine)
        assert sorted(client.secrets.known) == sorted(mine)
        others = [c for s in g.rec.table.seats if s.id != seat for c in s.hand]
        table = client.private_table(g.rec)
        assert [c for s in table.seats if s.id != seat for c in s.hand] == others
        assert all(is_token(c) for c in others)


def _swap_claim(m: Message) -> None:
    """A seat that claims, for a card it opens, another card of the deck than the one it was dealt."""
    if m.body["cards"]:
        tok, (card, key) = sorted(m.body["cards"].items())[0]
        other = "sample-spoils#1" if not card.startswith("sample-spoils") else "sample-levy#1"
        m.body["cards"] = {tok: [other, key]}


@pytest.mark.slow
def test_sb_peer_claims_a_card_it_was_not_dealt_is_caught_at_once() -> None:
    """Protocol §13.7, [SB-6]: a card an order names is opened with the order and checked against the deal at
    once: a seat claiming another card than its position holds is named at that step."""
    g = new_game(4, label="claim")
    for seat in g.clients:
        g.cheat_hooks[f"*.reveal.{seat}"] = _swap_claim
    with pytest.raises(Cheat, match=r"cheated at step \d+: it claims a card it was not dealt.*§13.7") as caught:
        play(g)
    assert caught.value.seat in g.clients


@pytest.mark.slow
def test_sb_peer_claims_a_card_dealt_to_another_seat_is_caught_at_once() -> None:
    """Protocol §13.7: opening another seat's position (a card it was not dealt) names the seat."""
    g = new_game(4, label="steal")

    def steal(m: Message) -> None:
        assert g.rec.table is not None
        theirs = [c for s in g.rec.table.seats if s.id != m.seat for c in s.hand if is_token(c)]
        if m.body["cards"] and theirs:
            card, key = sorted(m.body["cards"].values())[0]
            m.body["cards"] = {theirs[0]: [card, key]}
    g.cheat_hooks["*.reveal.clan1"] = steal
    with pytest.raises(Cheat, match=r"clan1 cheated at step \d+: it claims .* a card it was not dealt"):
        play(g)


@pytest.mark.slow
def test_sb_peer_choice_token_that_does_not_open_its_handle_is_caught() -> None:
    """[SB-5.4], [SB-5.5], protocol §13.4: a seat that opens at the Battle another choice than the one it sealed
    is named at that step."""
    g = new_game(4, label="turncoat")

    def turncoat(m: Message) -> None:
        o = m.body.get("choice")
        if isinstance(o, handles.Opening):
            flipped = "england" if o.value["loyalty"] == "scotland" else "scotland"
            m.body["choice"] = handles.Opening(o.label, o.salt, {**o.value, "loyalty": flipped})
    for seat in g.clients:
        g.cheat_hooks[f"*.open.choice.{seat}.{seat}"] = turncoat
    with pytest.raises(Cheat, match=r"cheated at step \d+: its choice token does not open its sealed choice"):
        play(g)


def _loyal(side: str) -> Any:
    def bot(view: dict[str, Any], seat: str, kind: str, rng: Any) -> dict[str, Any]:
        body = BOTS["simple"](view, seat, kind, rng)
        if kind == "choice" and body.get("loyalty"):
            body["loyalty"] = side
        return body
    return bot


class _Battle(Exception):
    """Stops a game at its first Battle."""


def _folder_until_battle(side: str) -> tuple[list[Any], list[Any], PeerGame]:
    """clan1's folder (the record's entries and its own private table) at every entry before the first Battle,
    in a 4-player game where clan2 backs ``side`` in round 1."""
    g = new_game(4, bots={"clan2": _loyal(side)}, label="same-deal")
    entries: list[Any] = []
    tables: list[Any] = []
    run = g.run

    def watch(step: int, act: Any, orders: Any) -> None:
        run(step, act, orders)
        entry = g.rec.entries[-1]
        if any(o.startswith("loyalty ") for o in entry["opened"]):
            raise _Battle
        entries.append(copy.deepcopy(entry))
        tables.append(to_data(g.clients["clan1"].private_table(g.rec)))
    g.run = watch  # type: ignore[method-assign]
    with pytest.raises(_Battle):
        play(g)
    cut = next(i for i, m in enumerate(g.rec.messages) if m.phase.startswith("open.choice"))
    return entries + [_readable(m) for m in g.rec.messages[:cut]], tables, g


def _readable(m: Message) -> Any:
    """What a message shows its reader: a salted commitment hides its value, so it is left out (it differs
    between two games even for equal values); everything else is compared as sent."""
    body = dict(m.body)
    body.pop("commitment", None)
    if isinstance(body.get("opening"), handles.Opening):
        body["opening"] = body["opening"].value["order"]
    return [m.seat, m.step, m.phase, body]


@pytest.mark.slow
def test_sb_peer_non_interference_nothing_in_a_seats_folder_depends_on_anothers_sealed_choice() -> None:
    """[SB-5.4] (choices are sealed until the Battle), protocol §13: two games dealt alike where clan2 backs
    Scotland in one and England in the other leave clan1's folder (every entry and its own table) identical at
    every pause before the Battle, and the deal gives clan1 only tokens for the others' cards."""
    scots_entries, scots_tables, g = _folder_until_battle("scotland")
    english_entries, english_tables, other = _folder_until_battle("england")
    assert other.rec.loyalty["1.clan2"]["loyalty"] == "england"
    assert "1.clan2" in g.rec.handles and g.rec.loyalty["1.clan2"]["loyalty"] == "scotland"
    assert len(scots_entries) >= 2
    assert scots_entries == english_entries
    assert scots_tables == english_tables
    for table in scots_tables:
        for s in table["seats"]:
            if s["id"] != "clan1":
                assert all(is_token(c) for c in s["hand"] + s["daggers"])
