"""``pbem components check FILE``: every card of a component file played once in a sandbox, and what it did.

Why: a group types its own card faces (docs/bagpipes-notes.md §2); the loader checks the types, but only
playing a card shows whether its operations do what the printed text says. The sandbox is a fixed
5-player table (with the Stay Home! badge, so a reader sees who a card spares): each card runs where the
game runs it, and the line says what changed, seat by seat.
"""

from __future__ import annotations

from pbem.bagpipes.changes import Snapshot, changes
from pbem.bagpipes.components import BagpipeCard, Components, RoundCard
from pbem.bagpipes.engine import Game, Illegal, reads_battle
from pbem.bagpipes.model import CardPlay, Options, Phase, Side, Table
from pbem.core.drbg import Drbg

PLAYER, TARGET, HOLDER, HOME = "clan2", "clan3", "clan1", "clan5"
SIDES = {"clan1": Side.SCOTLAND, "clan2": Side.SCOTLAND, "clan3": Side.ENGLAND, "clan4": Side.ENGLAND,
         "clan5": Side.NONE}
SANDBOX = (f"Sandbox: 5 players; {HOLDER} holds the Badge of Honour, {HOME} stays home, every camp holds 2 troops, "
           f"every castle 3, every purse 5 gold, every seat one dagger card; a bagpipe card is played by {PLAYER} "
           f"(on {TARGET} when it takes a target); after the battle clan1 and clan2 supported Scotland, "
           "clan3 and clan4 England.")


def sandbox(comps: Components) -> Table:
    options = Options(players=5, stay_home=True, start_seat=HOLDER, stay_home_first="clan4",
                      components_sha256=comps.sha256)
    t = Game.setup(options, comps, Drbg(b"pbem-bagpipes-components-check-sandbox"))
    t.round, t.log, t.rulings_due = 1, [], []
    t.at_home, t.stay_home = HOME, HOME
    for s in t.seats:
        s.gold, s.castle, s.camp, s.hand, s.loot = 5, 3, 0 if s.id == HOME else 2, [], []
        s.daggers = [t.dagger_deck.pop(0)] if t.dagger_deck else []
    return t


def after_battle(t: Table, scotland_won: bool) -> None:
    t.sides, t.sides_revealed, t.scotland_won = dict(SIDES), True, scotland_won


def round_card_lines(comps: Components, card: RoundCard) -> list[str]:
    head = (f"round card {card.id} ({card.title}, {card.back}): English strength {card.english_strength}, bonnet "
            f"{card.gold_scots_win}, pierced bonnet {card.gold_scots_lose}, crown {card.gold_crown}"
            f"{' split' if card.crown_split else ' each'}. Text: {card.text or '(none)'}")
    t = sandbox(comps)
    t.revealed = [card.id]
    g = Game(t, comps, Drbg(b"pbem-bagpipes-components-check-round"))
    before = Snapshot.of(t)
    g.round_card_effect(after_battle=False)
    lines = [head, f"    once phase 3 is over: {changes(before, Snapshot.of(t), cards=True)}"]
    if card.effect != "manual" and any(reads_battle(op) for op in card.effect):
        for won in (True, False):
            t2 = sandbox(comps)
            t2.revealed = [card.id]
            after_battle(t2, won)
            before = Snapshot.of(t2)
            Game(t2, comps, Drbg(b"pbem-bagpipes-components-check-round")).round_card_effect(after_battle=True)
            lines.append(f"    after the battle, {'Scotland' if won else 'England'} won: "
                         f"{changes(before, Snapshot.of(t2), cards=True)}")
    return lines


def bagpipe_lines(comps: Components, card: BagpipeCard) -> list[str]:
    head = (f"bagpipe card {card.id} ({card.title}) x{card.copies}, {card.timing}"
            f"{', x2' if card.x2 else ''}{', refers to the badge' if card.refers_to_badge else ''}, targets "
            f"{card.targets}. Text: {card.text or '(none)'}")
    results = (True, False) if card.timing == "purse" else (None,)
    lines = [head]
    for won in results:
        t = sandbox(comps)
        t.revealed = [c.id for c in comps.round_cards if c.back == "grey"][:1]
        t.phase = {"axe": Phase.ACTIONS, "tokens": Phase.TOKENS, "purse": Phase.PURSE}[card.timing]
        if won is not None:
            after_battle(t, won)
        elif card.timing == "tokens":
            t.sides = dict(SIDES)          # chosen, still face down
        copy_id = f"{card.id}#1"
        t.seat(PLAYER).hand = [copy_id]
        play = CardPlay(card=copy_id, targets=[TARGET] if card.targets == "one_player" else [])
        before = Snapshot.of(t)
        when = "" if won is None else "Scotland won: " if won else "England won: "
        try:
            Game(t, comps, Drbg(b"pbem-bagpipes-components-check-play")).play_card(PLAYER, play, card.timing)
        except Illegal as exc:
            lines.append(f"    {when}cannot be played: {exc}")
            continue
        lines.append(f"    {when}{changes(before, Snapshot.of(t), cards=True)}")
    return lines


def describe(comps: Components) -> list[str]:
    """One block per card face: its printed values and text, then what it did in the sandbox."""
    lines = [f"{comps.name or 'component file'}: {len(comps.round_cards)} round cards, "
             f"{len(comps.bagpipe_copies())} bagpipe cards ({len(comps.bagpipe_cards)} faces), "
             f"{len(comps.dagger_cards())} dagger cards; SHA-256 {comps.sha256}", SANDBOX]
    for rc in comps.round_cards:
        lines += round_card_lines(comps, rc)
    for bc in comps.bagpipe_cards:
        lines += bagpipe_lines(comps, bc)
    return lines
