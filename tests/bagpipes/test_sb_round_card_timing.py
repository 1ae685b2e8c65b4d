"""[SB-5.1], [SB-11], [SB-5.3]: a round card's text acts where the book places it (issue 25 point 2).

The book: the card's text is in force "during the current round" [SB-5.1]; the Stay Home! player
"tampoco se verá afectado por el texto de la carta del escudo inglés para esta ronda" [SB-11];
a card naming the Badge of Honour holder means the one who must defend Scotland this round [SB-5.3].
So the card's operations run once phase 3 is over (docs/bagpipes-notes.md §4), and those that read
the battle run when it is decided. The cards below touch every player, to see who is spared.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bp_support import COMPS, rng

from pbem.bagpipes.components import Components, RoundCard
from pbem.bagpipes.engine import Game, default_order
from pbem.bagpipes.model import Options, Order, Table, parse_order
from pbem.bagpipes.rules import step


def comps_with(effect: list[dict[str, Any]]) -> Components:
    card = RoundCard("test-card", "Test Card (INVENTED)", "grey", 8, 2, 1, 4, True, False, (), "(test)",
                     tuple(effect))
    return dataclasses.replace(COMPS, round_cards=COMPS.round_cards + (card,))


def next_step(t: Table, comps: Components, bodies: dict[str, dict[str, Any]] | None = None) -> Table:
    orders: dict[str, Order] = {}
    for side, kind in sorted(t.pending.owes.items()):
        body = (bodies or {}).get(side)
        use = body is not None and body.get("_kind", kind) == kind
        orders[side] = parse_order({"kind": kind, "round": t.round, **{k: v for k, v in (body or {}).items()
                                                                       if k != "_kind"}}) \
            if use else default_order(t, side, kind)
    return step(t, comps, orders, rng(f"step{t.step}"))


def round_two_with(effect: list[dict[str, Any]], players: int,
                   plans: dict[str, dict[str, Any]] | None = None) -> tuple[Table, Table]:
    """(the table when round 2's plans are owed, the table when its choices are owed), the test card on top."""
    comps = comps_with(effect)
    opts = Options(players=players, stay_home=players >= 5, start_seat="clan1",
                   stay_home_first=f"clan{players}" if players >= 5 else "")
    t = Game.setup(opts, comps, rng("timing"))
    t.round_deck.insert(0, "test-card")
    while t.round < 2 or "plan" not in t.pending.owes.values():
        t = next_step(t, comps)
    before = t
    while "choice" not in t.pending.owes.values():
        t = next_step(t, comps, {s: {"_kind": "plan", **b} for s, b in (plans or {}).items()})
    return before, t


def gold_gained(before: Table, after: Table) -> dict[str, int]:
    return {s.id: s.gold - b.gold for s, b in zip(after.seats, before.seats)}


def test_SB_11_round_card_touching_every_player_spares_the_stay_home_player() -> None:
    before, t = round_two_with([{"op": "gain_gold", "who": "each_player", "n": 5}], 5)
    assert t.revealed[-1] == "test-card" and t.at_home
    gained = gold_gained(before, t)
    for sid, gain in gained.items():
        # everyone's default turn: Collect Taxes (+1); the home player's three default Collect Taxes (+3);
        # the card's +5 for everyone but the home player
        assert gain == (4 if sid == t.at_home else 6), (sid, gained, t.at_home)


def test_SB_11_round_card_raise_militia_and_discard_camp_spare_the_stay_home_player() -> None:
    relocate_all = {"program": [{"turn": {"replenish": "assemble_troops", "relocate": "all"}}]}
    plans = {f"clan{i}": relocate_all for i in range(1, 6)}
    _, t = round_two_with([{"op": "raise_militia"}, {"op": "discard_camp", "who": "each_player", "n": 1}], 5, plans)
    home = t.seat(t.at_home)
    assert home.camp == 0                       # discarded when sent home; the card's militia did not reach it
    for s in t.seats:
        if s.id != t.at_home:
            assert s.camp == 5, (s.id, s.camp)   # 3 + 2 relocated, +1 militia, -1 discarded by the card


def test_SB_5_3_round_card_badge_holder_is_the_holder_after_the_pass() -> None:
    plans = {"clan1": {}, "clan2": {}, "clan3": {}, "clan4": {}}
    before, t = round_two_with([{"op": "gain_gold", "who": "badge_holder", "n": 7}], 4, plans)
    giver = before.badge
    assert t.badge != giver
    gained = gold_gained(before, t)
    assert gained[t.badge] == 1 + 7 and gained[giver] == 1, gained   # the current holder, not last round's


def test_SB_5_1_round_card_reading_the_battle_pays_the_supporters_after_it() -> None:
    comps = comps_with([{"op": "gain_gold", "who": "each_england_supporter", "n": 3}])
    _, t = round_two_with([{"op": "gain_gold", "who": "each_england_supporter", "n": 3}], 4)
    traitor = [s for s in t.ids if s != t.badge][0]
    bodies = {s: {"loyalty": "england" if s == traitor else "scotland"} for s in t.ids if s != t.badge}
    orders = {s: parse_order({"kind": "choice", "round": t.round, **bodies.get(s, {})}) for s in t.ids}
    t.seat(traitor).camp = 2          # not a deserter
    gold = t.seat(traitor).gold
    after = step(t, comps, orders, rng("battle"))
    crown = 4   # the test card's crown gold, one England supporter
    assert after.seat(traitor).gold == gold + 3 + crown
    assert any(e.event == "round_effect" for e in after.log)
