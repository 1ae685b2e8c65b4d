"""Victory (9.0-9.2): the end-of-scenario count, sudden death, the one place a result lives,
and the net tournament bid.

``state.winner`` / ``state.win_reason`` hold the result; ``declare_winner`` is the only writer,
and the first result stands (a later check never overwrites it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import unseen_nobles
from pbem.hammer.rules.log import PUBLIC, LogEntry, entry
from pbem.hammer.rules.scenario import scenario
from pbem.hammer.rules.state import DEAD, POOL, BlockState, GameState

if TYPE_CHECKING:
    from pbem.hammer.rules.scenario import Scenario

WALLACE = "Wallace"
EDWARD = "Edward"


def declare_winner(state: GameState, side: str, reason: str) -> str:
    """Record ``side`` as the winner unless a result already stands; returns the winner."""
    if not state.winner:
        state.winner = side
        state.win_reason = reason
    return state.winner


def edward_dies(state: GameState) -> list[LogEntry]:
    """The Edward block is eliminated in battle: Edward I is succeeded by Edward II, whose block goes
    to the English Draw Pool; Edward II's death is a Scottish sudden-death victory (6.1, 9.1)."""
    if state.edward == "II":
        declare_winner(state, "scotland", "Edward II was eliminated in battle (6.1, 9.1)")
        return [entry("edward_killed", None, PUBLIC, edward="II")]
    state.edward = "II"
    state.blocks[EDWARD] = BlockState("england", POOL, 0)
    return [entry("edward_killed", None, PUBLIC, edward="I", now="II")]


def king_dies(state: GameState) -> list[LogEntry]:
    """The Scottish King is eliminated in battle: the English win at once (6.2, 9.1)."""
    declare_winner(state, "england", "the Scottish King was eliminated in battle (6.2, 9.1)")
    return [entry("king_killed", None, PUBLIC, king=state.king)]


def noble_counts(state: GameState) -> dict[str, int]:
    """Nobles on the map controlled by each side (9.0)."""
    return {side: len(state.nobles_of(side)) + unseen_nobles(side) for side in SIDES}


def check_sudden_death(state: GameState) -> str:
    """At the end of a Game Turn: a side controlling every noble in play wins (9.1).

    Moray never defects, so while he is on the map the English cannot control all nobles: the
    rule's "Moray must be dead or in the Draw Pool" follows from counting nobles on the map.
    """
    if state.winner:
        return state.winner
    counts = noble_counts(state)
    in_play = sum(counts.values())
    for side in SIDES:
        if in_play and counts[side] == in_play:
            return declare_winner(state, side, f"controls all {in_play} nobles in play (9.1)")
    return ""


def _scenario(state: GameState) -> "Scenario":
    return scenario(state.scenario)


def check_end_of_scenario(state: GameState) -> str:
    """The count of nobles on the map (9.0), called by the winter of a year that ends the scenario
    once 7.1-7.5 are played: the side with more wins. A tie goes by Wallace (on the map: the Scots;
    dead or in the pool: the English). In the Campaign a tie is no victory: it plays on (8.3)."""
    if state.winner:
        return state.winner
    counts = noble_counts(state)
    e, s = counts["england"], counts["scotland"]
    if e != s:
        side = "england" if e > s else "scotland"
        return declare_winner(state, side, f"controls {max(e, s)} of {e + s} nobles at the end of {state.year} (9.0)")
    if not _scenario(state).last_year:
        return ""
    wallace = state.blocks.get(WALLACE)
    on_map = wallace is not None and state.on_map(WALLACE) and wallace.owner == "scotland"
    side = "scotland" if on_map else "england"
    how = "on the map" if on_map else ("dead" if wallace is None or wallace.location == DEAD else "in the Draw Pool")
    return declare_winner(state, side, f"nobles tied {e}-{s} at the end of {state.year} and Wallace is {how} (9.0)")


def net_bid(english: str, scottish: str) -> str:
    """The net tournament bid for a game between an English bid and a Scottish bid (9.2).

    Opposite bids cancel (E3 against S3: no effect); otherwise the difference applies to the
    higher bidder (E2 against S1 nets E1). ``""`` stands for no bid. The result is the
    ``Options.bid`` the game is set up with.
    """
    def amount(bid: str, letter: str) -> int:
        if bid == "":
            return 0
        if len(bid) != 2 or bid[0] != letter or bid[1] not in "123":
            raise InvalidOrder(f"tournament bid {bid!r}: the {'English' if letter == 'E' else 'Scottish'} "
                               f"player's bid must be {letter}1, {letter}2 or {letter}3 (9.2)")
        return int(bid[1])

    net = amount(english, "E") - amount(scottish, "S")
    return f"E{net}" if net > 0 else f"S{-net}" if net < 0 else ""
