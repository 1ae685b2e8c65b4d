"""The whole secret truth of a Hammer of the Scots game, as plain serialisable data.

One canonical serialization (``to_dict`` → canonical JSON) and its SHA-256 are what the ledger
commits to. No floats, no sets: every collection is a list in a stated order or a dict (whose
keys the canonical form sorts).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from pbem.core.canonical import canonical_bytes
from pbem.core.plain import plain_copy
from pbem.hammer.rules.battle_state import Fight, fight_data, fight_of
from pbem.hammer.rules.blocks import SIDES, blocks, other_side, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import counted_noble
from pbem.hammer.rules.vocab import DEAD, OFF_MAP, PLACES, POOL, Phase
from pbem.hammer.rules.winter_progress import WinterProgress, winter_data

__all__ = ["DEAD", "OFF_MAP", "PLACES", "POOL"]  # where a block stands off the map (vocab.py), read here by most



@dataclass
class BlockState:
    owner: str
    location: str
    strength: int


@dataclass
class Options:
    schiltroms: bool = False  # optional rule (5.4 sidebar)
    bid: str = ""             # net tournament bid, "E1".."E3" or "S1".."S3" (9.2); "" for none


@dataclass
class Battle:
    """A contested area as movement left it (5.32, 5.33, 4.6): who attacked, how, by which borders."""

    area: str
    attacker: str
    main: list[str] = field(default_factory=list)          # the Main Attack group (5.32)
    main_origin: str = ""
    main_border: str = ""
    attacker_reserves: list[str] = field(default_factory=list)
    defender_reserves: list[str] = field(default_factory=list)  # Player 2's reinforcements (5.33)
    entered: dict[str, list[str]] = field(default_factory=dict)  # side -> border keys used to enter

    def copy(self) -> Battle:
        return Battle(area=self.area, attacker=self.attacker, main=list(self.main), main_origin=self.main_origin,
                      main_border=self.main_border, attacker_reserves=list(self.attacker_reserves),
                      defender_reserves=list(self.defender_reserves),
                      entered={s: list(v) for s, v in self.entered.items()})


@dataclass
class Turn:
    """What the current Game Turn has done so far."""

    cards: dict[str, str] = field(default_factory=dict)   # side -> card id played this turn
    player1: str = ""
    moved: list[str] = field(default_factory=list)        # blocks that moved this turn (4.0)
    crossings: dict[str, int] = field(default_factory=dict)  # "side|border" -> blocks crossed (4.3)
    battles: dict[str, Battle] = field(default_factory=dict)  # area -> battle to fight
    moves_done: list[str] = field(default_factory=list)   # sides that have made their Move Phase
    truce: str = ""                                       # side that played Truce this turn
    events_done: list[str] = field(default_factory=list)  # sides whose Event is resolved (3.12)
    fighting: str = ""                                    # the battle begun and not finished (5.1)
    fight: Fight | None = None                            # the battle in progress (battle.py); None between battles

    def copy(self) -> Turn:
        """A deep copy (hand-written: see ``GameState.copy``)."""
        return Turn(cards=dict(self.cards), player1=self.player1, moved=list(self.moved),
                    crossings=dict(self.crossings), battles={a: b.copy() for a, b in self.battles.items()},
                    moves_done=list(self.moves_done), truce=self.truce, events_done=list(self.events_done),
                    fighting=self.fighting, fight=self.fight.copy() if self.fight is not None else None)




def _battle_dict(b: Battle) -> dict[str, Any]:
    return {"area": b.area, "attacker": b.attacker, "main": list(b.main), "main_origin": b.main_origin,
            "main_border": b.main_border, "attacker_reserves": list(b.attacker_reserves),
            "defender_reserves": list(b.defender_reserves),
            "entered": {s: list(v) for s, v in b.entered.items()}}


@dataclass
class GameState:
    scenario: str
    year: int
    turn: int = 0                 # Game Turn within the year, 1-5; 0 before the first card
    phase: Phase = "card"
    options: Options = field(default_factory=Options)
    blocks: dict[str, BlockState] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)          # undealt cards, top first
    hands: dict[str, list[str]] = field(default_factory=dict)
    played: dict[str, list[str]] = field(default_factory=dict)  # cards played this year, in order
    current: Turn = field(default_factory=Turn)
    edward: str = "I"             # "I" or "II" (6.1)
    edward_wintered: int = 0      # last year Edward I wintered in Scotland (7.4); 0 never
    king: str = ""                # "", "Bruce", "Comyn" or "Balliol" (6.2)
    winner: str = ""
    win_reason: str = ""
    winter: WinterProgress | None = None  # the Winter Turn in progress (winter.py); None outside winter

    # --- serialization -------------------------------------------------------------------
    # Hand-written rather than dataclasses.asdict / copy.deepcopy: a game copies and serializes
    # its state at every step, and the generic walk cost about 2 ms a time (issue 17). The plain
    # data is the same as ``asdict``'s, key for key and in the same order
    # (tests/hammer/test_state_serialization.py).
    def to_dict(self) -> dict[str, Any]:
        c = self.current
        return {
            "scenario": self.scenario, "year": self.year, "turn": self.turn, "phase": self.phase,
            "options": {"schiltroms": self.options.schiltroms, "bid": self.options.bid},
            "blocks": {n: {"owner": b.owner, "location": b.location, "strength": b.strength}
                       for n, b in self.blocks.items()},
            "deck": list(self.deck),
            "hands": {s: list(v) for s, v in self.hands.items()},
            "played": {s: list(v) for s, v in self.played.items()},
            "current": {
                "cards": dict(c.cards), "player1": c.player1, "moved": list(c.moved),
                "crossings": dict(c.crossings),
                "battles": {a: _battle_dict(b) for a, b in c.battles.items()},
                "moves_done": list(c.moves_done), "truce": c.truce, "events_done": list(c.events_done),
                "fighting": c.fighting, "fight": fight_data(c.fight),
            },
            "edward": self.edward, "edward_wintered": self.edward_wintered, "king": self.king,
            "winner": self.winner, "win_reason": self.win_reason, "winter": winter_data(self.winter),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        raw = dict(data)  # copied field by field below: nothing of ``data`` is shared
        turn = dict(raw.pop("current", {}) or {})
        battles = {a: Battle(**plain_copy(b)) for a, b in (turn.pop("battles", {}) or {}).items()}
        fight = fight_of(turn.pop("fight", None))
        return cls(
            winter=WinterProgress.from_data(raw.pop("winter", None)),
            options=Options(**raw.pop("options", {})),
            blocks={n: BlockState(**b) for n, b in raw.pop("blocks", {}).items()},
            current=Turn(battles=battles, fight=fight, **plain_copy(turn)),
            **plain_copy(raw),
        )

    def canonical_bytes(self) -> bytes:
        return canonical_bytes(self.to_dict())

    def hash(self) -> str:
        return hashlib.sha256(self.canonical_bytes()).hexdigest()

    def copy(self) -> GameState:
        """A deep copy: nothing mutable is shared with this state."""
        return GameState(
            scenario=self.scenario, year=self.year, turn=self.turn, phase=self.phase,
            options=Options(schiltroms=self.options.schiltroms, bid=self.options.bid),
            blocks={n: BlockState(b.owner, b.location, b.strength) for n, b in self.blocks.items()},
            deck=list(self.deck), hands={s: list(v) for s, v in self.hands.items()},
            played={s: list(v) for s, v in self.played.items()}, current=self.current.copy(),
            edward=self.edward, edward_wintered=self.edward_wintered, king=self.king,
            winner=self.winner, win_reason=self.win_reason,
            winter=None if self.winter is None else self.winter.copy())

    # --- queries -------------------------------------------------------------------------
    def block(self, name: str) -> BlockState:
        return self.blocks[name]

    def on_map(self, name: str) -> bool:
        b = self.blocks.get(name)
        return b is not None and b.location not in PLACES

    def blocks_in(self, area: str, side: str | None = None) -> list[str]:
        """Blocks standing in ``area`` (of ``side`` if given), in name order."""
        return sorted(n for n, b in self.blocks.items()
                      if b.location == area and (side is None or b.owner == side))

    def blocks_of(self, side: str, location: str | None = None) -> list[str]:
        return sorted(n for n, b in self.blocks.items()
                      if b.owner == side and (location is None or b.location == location))

    def pool(self, side: str) -> list[str]:
        return self.blocks_of(side, POOL)

    def control(self, area: str) -> str:
        """'england', 'scotland', 'contested' or 'neutral' (4.5)."""
        sides = {b.owner for b in self.blocks.values() if b.location == area}
        if len(sides) == 2:
            return "contested"
        return sides.pop() if sides else "neutral"

    def is_friendly(self, area: str, side: str) -> bool:
        return self.control(area) == side

    def is_enemy_occupied(self, area: str, side: str) -> bool:
        return any(b.owner == other_side(side) for b in self.blocks.values() if b.location == area)

    def nobles_of(self, side: str) -> list[str]:
        """Nobles on the map controlled by ``side`` (9.0)."""
        return sorted(n for n, b in self.blocks.items()
                      if b.owner == side and b.location not in PLACES and counted_noble(n))

    def max_strength(self, name: str) -> int:
        return spec(name).steps

    def check(self) -> list[str]:
        """Invariant violations, for tests and for loading untrusted positions."""
        problems: list[str] = []
        areas = board().areas
        for name, b in sorted(self.blocks.items()):
            s = blocks().get(name)
            if s is None:
                problems.append(f"unknown block {name!r}")
                continue
            if b.owner not in s.sides:
                problems.append(f"{name} cannot belong to {b.owner}")
            if b.location not in areas and b.location not in PLACES:
                problems.append(f"{name} is in unknown place {b.location!r}")
            if b.location not in PLACES and not 1 <= b.strength <= s.steps:
                problems.append(f"{name} has strength {b.strength}, not 1-{s.steps}")
        for side in SIDES:
            if len(self.hands.get(side, [])) > 5:
                problems.append(f"{side} holds more than 5 cards")
        return problems


def parse_options(options: dict[str, Any]) -> Options:
    """Scenario options from ``--option key=value`` pairs (``schiltroms``, ``bid``)."""
    known = {"schiltroms", "bid"}
    for key in sorted(options):
        if key not in known:
            raise InvalidOrder(f"unknown option {key!r}; known: {', '.join(sorted(known))}")
    schiltroms = options.get("schiltroms", False)
    if isinstance(schiltroms, str):
        word = schiltroms.lower()
        if word not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            raise InvalidOrder(f"option schiltroms={schiltroms!r}: say true or false (the optional Schiltroms rule)")
        schiltroms = word in ("1", "true", "yes", "on")
    return Options(schiltroms=bool(schiltroms), bid=str(options.get("bid", "")))
