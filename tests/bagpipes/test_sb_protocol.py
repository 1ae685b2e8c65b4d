"""The game on the protocol: hidden facts, non-interference, talk, rulings, round trips, bot games.

Clause ids: [SB-5.4] sealed simultaneous choices, [SB-6]/[SB-7] secret hands and daggers,
[SB-2] manual cards; docs/bagpipes-notes.md §5 and §7.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from bp_support import COMPS, go, new, order, stack_round_deck, until

from pbem.bagpipes.model import Phase, Side, Table
from pbem.bagpipes.play import play_engine_game, play_protocol_game
from pbem.bagpipes.ruleset import BagpipesRuleset
from pbem.bagpipes.views import report
from pbem.core import ruleset as core_ruleset
from pbem.core.canonical import canonical_bytes
from pbem.core.errors import InvalidOrder


def report_bytes(t: Table, seat: str) -> bytes:
    return canonical_bytes(report(t, COMPS, seat, "g", t.step))


def scramble_others(t: Table, seat: str) -> Table:
    """Another table that differs only in other seats' secrets: hands, dagger values, sealed loyalties."""
    u = copy.deepcopy(t)
    for s in u.seats:
        if s.id == seat:
            continue
        # swap each hand card with a deck card (same count), flip dagger values, flip sealed loyalty
        for i, card in enumerate(list(s.hand)):
            if u.bagpipe_deck:
                j = len(u.bagpipe_deck) - 1 - i
                s.hand[i], u.bagpipe_deck[j] = u.bagpipe_deck[j], card
        if u.options.players == 2:      # received daggers are face up with 2 players; the hand is secret
            s.dagger_hand = [c.replace("d1#", "d3#", 1) if c.startswith("d1#") else c for c in s.dagger_hand]
        else:
            s.daggers = [c.replace("d1#", "d3#", 1) if c.startswith("d1#") else c for c in s.daggers]
        if s.id in u.sides and not u.sides_revealed and u.sides[s.id] != Side.NONE:
            u.sides[s.id] = Side.ENGLAND if u.sides[s.id] == Side.SCOTLAND else Side.SCOTLAND
    return u


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SB_5_4_noninterference_report_bytes_ignore_other_seats_secrets(players: int) -> None:
    t = new(players, stay_home=players >= 5)
    t.seat("clan2").daggers = ["d1#1"]
    points = [t, until(t, "choice")]
    choosing = points[-1]
    bodies = {}
    for s in choosing.ids:
        try:
            order(choosing, s, loyalty="england")
            bodies[s] = {"loyalty": "england", "tokens": {"ask": True}}
        except Exception:
            bodies[s] = {} if s == choosing.at_home else {"tokens": {"ask": True}}   # home: no window [SB-11]
    points.append(go(choosing, bodies))          # sealed choices held, tokens window waiting on the first seat
    assert points[-1].phase == Phase.TOKENS and not points[-1].sides_revealed
    for point in points:
        for seat in point.ids:
            assert report_bytes(point, seat) == report_bytes(scramble_others(point, seat), seat), (seat, point.phase)


def test_SB_6_noninterference_over_a_whole_round_with_another_seats_hand_changed() -> None:
    """Same orders, clan3's opening card swapped with the bottom card of the deck: clan1 sees identical bytes."""
    a = new(4, seed="ni")
    b = copy.deepcopy(a)
    s3 = b.seat("clan3")
    s3.hand[0], b.bagpipe_deck[-1] = b.bagpipe_deck[-1], s3.hand[0]
    for _ in range(2):
        assert report_bytes(a, "clan1") == report_bytes(b, "clan1")
        a, b = go(a, seed="same"), go(b, seed="same")
    assert report_bytes(a, "clan1") == report_bytes(b, "clan1")
    assert report_bytes(a, "clan3") != report_bytes(b, "clan3")


def test_SB_5_4_choices_sealed_then_revealed_together() -> None:
    t = until(new(4), "choice")
    t2 = go(t, {"clan1": {"loyalty": "england", "tokens": {"ask": True}}, "clan3": {"loyalty": "scotland"},
                "clan4": {"loyalty": "england"}})
    assert t2.pending.owes == {"clan2": "window"} or t2.pending.owes == {"clan1": "window"}
    for seat in t2.ids:
        view = report(t2, COMPS, seat)["view"]
        assert view["sides"] == {}
    assert report(t2, COMPS, "clan1")["view"]["my_side"] == "england"
    assert (
        "my_side" not in report(t2, COMPS, "clan2")["view"]
        or report(t2, COMPS, "clan2")["view"]["my_side"] == "scotland"
    )
    t3 = go(t2)
    reveal = [e for e in t3.log if e.event == "reveal"][0]
    assert reveal.data["sides"] == {"clan1": "england", "clan2": "scotland", "clan3": "scotland", "clan4": "england"}


def test_SB_6_talk_to_one_or_all_delivered_next_report_never_read() -> None:
    t = new(4)
    t2 = go(t, {"clan1": {"talk": {"to": "all", "text": "Raise the militia, all of you."}},
                "clan2": {"talk": {"to": "clan3", "text": "loyalty = england; badge to clan4"}}})
    same = go(t, {"clan1": {}, "clan2": {}})
    assert [s.gold for s in t2.seats] == [s.gold for s in same.seats] and t2.pending == same.pending
    r3, r4 = report(t2, COMPS, "clan3")["talk"], report(t2, COMPS, "clan4")["talk"]
    assert {"from": "clan2", "to": "clan3", "text": "loyalty = england; badge to clan4"} in r3
    assert all(m["from"] != "clan2" for m in r4) and {"from": "clan1", "to": "all",
                                                      "text": "Raise the militia, all of you."} in r4
    assert report(go(t2), COMPS, "clan3")["talk"] == []      # delivered once
    with pytest.raises(InvalidOrder, match="talk.to"):
        order(t, "clan1", talk={"to": "clan9", "text": "hi"})


def test_SB_2_manual_card_is_resolved_by_a_signed_referee_ruling_in_the_log() -> None:
    t = new(4)
    stack_round_deck(t, "sample-arms-6")          # invented "the referee rules on this card by hand"
    t = until(go(t), "ruling")
    assert t.pending.owes == {"referee": "ruling"} and t.pending.context["ruling"]["title"].startswith("Hard Winter")
    fields = t.fields
    t2 = go(t, {"referee": {"ruling": "Snow: two troops join Scotland's Fields.",
                            "ops": [{"op": "fields_troops", "n": 2}]}})
    assert t2.fields == fields + 2
    assert any(e.event == "ruling" and "Snow" in e.text for e in t2.log)
    assert t2.pending.owes == {s: "choice" for s in t2.ids}   # the round card acts once phase 3 is over


def test_SB_2_ruleset_seats_by_player_count_and_registered_entry_point() -> None:
    assert "bagpipes" in core_ruleset.registered()
    assert BagpipesRuleset(6).sides == ("clan1", "clan2", "clan3", "clan4", "clan5", "clan6", "referee")
    r = BagpipesRuleset.for_options({"players": 3})
    assert r.sides[:-1] == ("clan1", "clan2", "clan3")
    opts = r.options()
    assert opts["components_sha256"] == COMPS.sha256 and opts["players"] == 3
    with pytest.raises(InvalidOrder, match="components_sha256"):
        from pbem.core.drbg import Drbg
        r.setup("standard", {**opts, "components_sha256": "00" * 32}, Drbg(b"k" * 32))
    with pytest.raises(InvalidOrder, match="unknown field"):
        r.setup("standard", {**opts, "colour": "blue"}, Drbg(b"k" * 32))


def test_SB_2_state_round_trips_through_plain_data_and_is_deterministic() -> None:
    a = play_engine_game(5, b"det", "random", {"stay_home": True})
    b = play_engine_game(5, b"det", "random", {"stay_home": True})
    assert a == b
    t = until(new(5, stay_home=True), "choice")
    data = t.to_data()
    assert Table.from_data(json.loads(json.dumps(data))).to_data() == data


@pytest.mark.parametrize("players", [3, 4, 6])
def test_SB_5_round_trips_two_exchanges_per_round_with_standing_orders(players: int) -> None:
    s = play_engine_game(players, b"rt", "simple", {"stay_home": players == 6})
    assert s.exchanges_per_round and set(s.exchanges_per_round) == {2}, s.exchanges_per_round


def _check_summary(s: object, players: int, rounds: int = 7) -> None:
    assert not s.problems, s.problems  # type: ignore[attr-defined]
    winners, reason = s.winners, s.reason  # type: ignore[attr-defined]
    assert len(winners) >= 1 or "tie" in reason, reason
    assert len(set(winners)) == len(winners)
    assert s.rounds <= rounds  # type: ignore[attr-defined]
    if s.rounds < rounds:  # type: ignore[attr-defined]
        assert s.defeats == (5 if rounds == 9 else 4) or "Five Daggers" in reason  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SB_8_fifty_random_bot_games_keep_the_invariants(players: int) -> None:
    for i in range(50):
        opts = {"stay_home": players == 6 or (players == 5 and i % 2 == 0)}
        if players >= 4 and i % 5 == 0:
            opts["rounds"] = 9
        if i % 7 == 3:
            opts.update(scottish_set=True)
        if i % 7 == 4 and players > 2:
            opts.update(precise_daggers=True)
        if i % 11 == 5:
            opts.update(window_order="sealed", gold_loss_is_cost=False, deserters_take_dagger=True)
        if i % 13 == 6:
            opts.update(awards_before_purse_window=False, hand_counts_public=False, final_tie="none",
                        two_player_badge_forces_scotland=True, two_player_no_hand_back=True,
                        three_player_fields_bonus_phase="battle", deserters_count_in_split=True)
        bots = "random" if i % 4 else {f"clan{k}": ("simple" if k % 2 else "random") for k in range(1, 7)}
        s = play_engine_game(players, f"g{players}-{i}".encode(), bots, opts)
        _check_summary(s, players, opts.get("rounds", 7))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_SB_8_full_protocol_bot_game_verifies_and_audits(players: int, tmp_path: Path) -> None:
    s = play_protocol_game(tmp_path / "g", players, b"proto", "simple", {"stay_home": players == 5})
    assert s.verified and s.audited and s.winners
    assert (tmp_path / "g" / "game.toml").exists()
    manifest = (tmp_path / "g" / "game.toml").read_text()
    assert COMPS.sha256 in manifest


def test_SB_5_4_bad_orders_are_refused_with_one_sentence() -> None:
    from pbem.core.errors import PbemError
    t = until(new(4), "choice")
    r = BagpipesRuleset(4)
    state = t.to_data()
    cases = [({"kind": "choice", "round": 1, "loyalty": "wales"}, "wales"),
             ({"kind": "choice", "round": 1, "to": "clan2"}, "a choice order has no field 'to'"),
             ({"kind": "plan", "round": 1}, "owes a 'choice' order"),
             ({"kind": "choice", "round": 2, "loyalty": "scotland"}, "round 2"),
             ({"kind": "choice", "round": 1, "loyalty": "scotland", "side": "clan3"}, "names side"),
             ({"kind": "choice", "round": 1, "loyalty": "scotland", "dagger": "d1#1"}, "2-player"),
             ({"kind": "duel", "round": 1}, "kind 'duel'"),
             ("england", "a table")]
    for body, words in cases:
        with pytest.raises(PbemError, match=words):
            r.validate(state, "clan1", body)
    with pytest.raises(PbemError, match="owes no order"):
        r.validate(state, "referee", {"kind": "ruling", "round": 1, "ruling": "x"})


@pytest.mark.parametrize("players", [2, 3, 6])
def test_SB_5_4_player_side_template_and_draft_check_agree_with_the_referee(players: int) -> None:
    from pbem.bagpipes.drafts import check_draft, render_text, template
    from pbem.bagpipes.engine import check
    from pbem.bagpipes.model import parse_order
    t = new(players, stay_home=players == 6)
    for _ in range(6):
        for seat in sorted(t.pending.owes):
            rep = report(t, COMPS, seat, "g", t.step)
            body = template(rep["view"], seat)
            check_draft(rep["view"], seat, body)
            check(t, COMPS, seat, parse_order(body))          # the referee accepts what the player checked
            assert "You owe" in render_text(rep)
        t = go(t)
    rep = report(t, COMPS, "clan1", "g", t.step)
    with pytest.raises(Exception, match="holds no card"):
        body = template(rep["view"], "clan1")
        if body["kind"] == "plan":
            body["program"] = [{"turn": {"cards": [{"card": "sample-not-held"}]}}]
        else:
            body["tokens"] = {"play": [{"card": "sample-not-held"}]}
        check_draft(rep["view"], "clan1", body)


def test_SB_2_manual_card_ruling_is_a_signed_referee_order_consumed_in_the_ledger(tmp_path: Path) -> None:
    """Through the protocol: the ruling on a ``manual`` card is the side ``referee``'s sealed, signed order,
    kept in ``orders/`` and named in the ledger entry that consumed it (the demo's 2-player game meets one)."""
    from pbem.core import ledger as led
    s = play_protocol_game(tmp_path / "g", 2, b"demo", "simple")
    assert s.verified and s.audited
    g = tmp_path / "g"
    man = led.read_manifest(g)
    ruled = [n for n in range(1, s.steps + 1) if "referee" in led.read_entry(g, n, man).orders]
    assert ruled, "no ruling in this game"
    for n in ruled:
        assert led.order_path(g, n - 1, "referee").is_file()


def test_SB_2_the_board_adjudicate_returns_is_the_public_view_of_its_state() -> None:
    """What core writes into the ledger entry (StepResult.public) is what ``public(state)`` gives."""
    from pbem.bagpipes.bots import safe_order
    from pbem.core.drbg import Drbg
    r = BagpipesRuleset.for_options({"players": 3})
    state = r.setup("standard", r.options(), Drbg(b"b" * 32))
    steps = 0
    for k in range(30):
        owes = r.owes(state)
        if not owes:
            break
        orders = {s: safe_order(r.view(state, s), s, kind) for s, kind in owes.items()}
        out = r.adjudicate(state, orders, Drbg(bytes([k + 1]) * 32))
        assert canonical_bytes(out.public) == canonical_bytes(r.public(out.state))
        state, steps = out.state, steps + 1
    assert steps >= 5


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SB_5_4_every_deadline_default_is_an_order_the_referee_accepts(players: int) -> None:
    """A seat that misses a deadline is given ``default_order`` (adjudication §0: the deadline
    default), which must pass the referee's own check: a whole game of nothing but defaults plays
    to its end, each default accepted as if the seat had sent it."""
    from pbem.bagpipes.model import parse_order
    from pbem.core.drbg import Drbg
    r = BagpipesRuleset.for_options({"players": players})
    state = r.setup("standard", r.options(), Drbg(b"d" * 32))
    kinds: set[str] = set()
    for k in range(500):
        owes = r.owes(state)
        if not owes:
            break
        orders = {s: r.default_order(state, s) for s in owes}
        for side, body in orders.items():
            r.validate(state, side, body)
            assert parse_order(body).kind == owes[side]
            kinds.add(owes[side])
        state = r.adjudicate(state, orders, Drbg(bytes([k % 256]) * 32)).state
    assert not r.owes(state), "a game of defaults did not end"
    assert r.result(state)["winners"]
    assert {"plan"} <= kinds


@pytest.mark.parametrize("players", [2, 3, pytest.param(6, marks=pytest.mark.slow)])  # six clans: 9-22 s
def test_SB_5_4_the_deadline_default_of_every_kind_asked_in_a_bot_game_is_accepted(players: int) -> None:
    """At every step of bot games (whose plans ask, so every kind of order is owed), each owing
    seat's deadline default passes the referee's check."""
    from pbem.bagpipes.bots import fit, safe_order
    from pbem.core.drbg import Drbg
    kinds: set[str] = set()
    for game in range(4):
        r = BagpipesRuleset.for_options({"players": players})
        state = r.setup("standard", r.options(), Drbg(bytes([game + 1]) * 32))
        for k in range(400):
            owes = r.owes(state)
            if not owes:
                break
            for side, kind in owes.items():
                r.validate(state, side, r.default_order(state, side))
                kinds.add(kind)
            orders = {s: fit(r.view(state, s), s, _asking(safe_order(r.view(state, s), s, kind)))
                      for s, kind in owes.items()}
            state = r.adjudicate(state, orders, Drbg(bytes([k % 256]) * 32)).state
    assert kinds >= {"plan", "choice", "turn", "window", "ruling"}, sorted(kinds)


def _asking(order: dict[str, Any]) -> dict[str, Any]:
    """A safe order whose standing parts all say "ask me", so the referee asks for every kind."""
    if order["kind"] == "plan":
        order.update(program=[], on_fail="ask", home_ask=True, badge={"prefer": [], "ask": True},
                     stay_home={"prefer": [], "ask": True})
    if order["kind"] == "choice":
        order.update(tokens={"play": [], "ask": True}, purse={"play": [], "ask": True}, giveaway="ask")
    return order


@pytest.mark.slow  # a whole game through the protocol: 5-6 s
def test_protocol_9_a_bundle_whose_lines_misplace_a_report_line_fails_the_audit(tmp_path: Path) -> None:
    """The reveal bundle's ``lines`` (docs/draws.md "Line numbers") is what the replay gives: a referee who
    publishes another order of a step's log (to make an outsider deal the decks wrongly), or places the
    lines of an entry the record does not hold, fails ``pbem audit``."""
    from pbem.core import audit as audit_mod
    from pbem.core.errors import AuditError
    s = play_protocol_game(tmp_path / "g", 2, b"lines", "simple")
    assert s.verified and s.audited
    game_dir = tmp_path / "g"
    bundle = audit_mod.make_reveal(game_dir, _referee(b"lines"))
    entries = sorted(p.stem for p in (game_dir / "ledger").glob("*.toml"))
    assert sorted(bundle["lines"]) == entries and all(set(sides) == {"clan1", "clan2", "referee"}
                                                      for sides in bundle["lines"].values())
    n, side, i = next((n, side, i) for n, sides in sorted(bundle["lines"].items()) for side, at in sorted(sides.items())
                      for i in range(1, len(at)) if at[i] > at[i - 1] + 1)  # a line after others' hidden lines
    stray = f"{len(entries):04d}"
    for edit, says in (("shift", f"lines of entry {int(n)} do not match its replay"), ("stray", f"keys for {stray}")):
        bad = json.loads(json.dumps(bundle))
        if edit == "shift":
            bad["lines"][n][side][i] -= 1
        else:
            bad["lines"][stray] = {"clan1": [0]}
        with pytest.raises(AuditError, match=says):
            audit_mod.audit(game_dir, bad)


def _referee(seed: bytes) -> Any:
    """The referee key play_protocol_game made from ``seed`` (pbem.bagpipes.play)."""
    import hashlib

    from pbem.core import identity
    digest = hashlib.sha256(seed + b"referee").digest()
    return identity.from_seeds("referee", digest, hashlib.sha256(digest + bytes([0])).digest())
