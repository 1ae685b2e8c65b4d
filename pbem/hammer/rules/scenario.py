"""Scenario set-ups (8.1-8.3) and tournament bids (9.2)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.core.drbg import Drbg
from pbem.hammer.rules.blocks import blocks, spec
from pbem.hammer.rules.board import ENGLAND, board, load_toml_resource
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.draws import Draw, draw_stream
from pbem.hammer.rules.errors import DataError, InvalidOrder
from pbem.hammer.rules.log import PRIVATE, LogEntry, Plain
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, BlockState, GameState, Options

HAND_SIZE = 5  # 3.0
LEVY, DEAL = "levy", "deal"  # the labels of their draws' streams (docs/draws.md)
BIDS = ("E1", "E2", "E3", "S1", "S2", "S3")


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    first_year: int
    last_year: int          # 0: no fixed end (the Campaign, 8.3)
    count_from: int         # the first year whose winter ends with the count of nobles (9.0, 8.3)
    english_levy: int
    english: dict[str, tuple[str, ...]]
    scottish: dict[str, tuple[str, ...]]
    scottish_off_map: tuple[str, ...]
    scottish_dead: tuple[str, ...]
    king: str               # the King already crowned at the start ("" for none)


def parse_scenarios(data: dict[str, Any]) -> dict[str, Scenario]:
    """Build and validate the scenario table (the shape of ``data/scenarios.toml``)."""
    out: dict[str, Scenario] = {}
    names = blocks()
    for sid, raw in data.items():
        base = data.get(raw.get("starts_as", sid), raw)
        placed: set[str] = set()
        setup = {}
        for key in ("english", "scottish"):
            side = "england" if key == "english" else "scotland"
            areas = {a: tuple(bs) for a, bs in base.get(key, {}).items()}
            for area, listed in areas.items():
                if area not in board().areas:
                    raise DataError(f"scenarios: {sid} places blocks in unknown area {area!r} (1.1)")
                for name in listed:
                    if name not in names:
                        raise DataError(f"scenarios: {sid} places unknown block {name!r} (8.0)")
                    if side not in names[name].sides:
                        raise DataError(f"scenarios: {sid} gives {name} to {side}, which has no such block")
                    if name in placed:
                        raise DataError(f"scenarios: {sid} places {name} twice (8.0)")
                    placed.add(name)
            setup[key] = areas
        dead = set(base.get("scottish_dead", []))
        for name, s in names.items():
            if s.is_noble and name not in placed and name not in dead:
                raise DataError(f"scenarios: {sid} does not place noble {name} (8.0)")
        out[sid] = Scenario(
            id=sid, name=str(raw["name"]), first_year=int(raw["first_year"]),
            last_year=int(raw.get("last_year", 0)),
            count_from=int(raw.get("count_from", raw.get("last_year", 0))), english_levy=int(base["english_levy"]),
            english=setup["english"], scottish=setup["scottish"],
            scottish_off_map=tuple(base.get("scottish_off_map", [])),
            scottish_dead=tuple(base.get("scottish_dead", [])),
            king="Bruce" if "King" in placed else "",
        )
    return out


@cache
def scenarios() -> dict[str, Scenario]:
    return parse_scenarios(load_toml_resource("scenarios.toml"))


def scenario(sid: str) -> Scenario:
    try:
        return scenarios()[sid]
    except KeyError:
        raise InvalidOrder(f"unknown scenario {sid!r}; choose one of {', '.join(sorted(scenarios()))} (8.0)") from None


def edward_barred(state: GameState, levy_year: int) -> bool:
    """An E# bid keeps Edward face-up in the pool, undrawable, for # years (9.2)."""
    bid = state.options.bid
    if not bid.startswith("E"):
        return False
    return levy_year < scenario(state.scenario).first_year + int(bid[1])


def levy_draw(state: GameState, rng: Drbg, count: int, levy_year: int) -> tuple[list[str], Draw]:
    """Shuffle the English pool face-down and draw ``count`` blocks at full strength into England (7.7):
    the blocks drawn (sorted by name) and the draw: the pool sorted by name, a barred Edward left out (9.2),
    shuffled (docs/random-stream.md), its first ``count`` taken."""
    eligible = [n for n in state.pool("england") if not (n == "Edward" and edward_barred(state, levy_year))]
    drawn = draw_stream(rng, LEVY).shuffled(eligible)[:count]
    for name in drawn:
        state.blocks[name] = BlockState("england", ENGLAND, spec(name).steps)
    return sorted(drawn), Draw(tuple(eligible), LEVY)


def draw_levy(state: GameState, rng: Drbg, count: int, levy_year: int) -> list[str]:
    """``levy_draw``'s blocks alone."""
    return levy_draw(state, rng, count, levy_year)[0]


def deal(state: GameState, rng: Drbg) -> Draw:
    """Shuffle all 25 cards (sorted by id) and deal the first five to England, the next five to Scotland
    (3.0, 7.8); last year's cards are gone."""
    cards = sorted(deck())
    order = draw_stream(rng, DEAL).shuffled(cards)
    state.hands = {"england": sorted(order[:HAND_SIZE]), "scotland": sorted(order[HAND_SIZE:2 * HAND_SIZE])}
    state.deck = order[2 * HAND_SIZE:]
    state.played = {"england": [], "scotland": []}
    return Draw(tuple(cards), DEAL)


def dealt_lines(state: GameState, draw: Draw, what: str, rule: str) -> list[LogEntry]:
    """Each side's own line of a deal: its new hand, and where the shuffle came from (docs/draws.md)."""
    return [LogEntry(what, side, PRIVATE,
                     {rule_key(what): rule, "dealt": list[Plain](state.hands[side]), **draw.facts(False)})
            for side in ("england", "scotland")]


def rule_key(what: str) -> str:
    """Winter lines cite their rule as ``step``, every other line as ``rule``."""
    return "step" if what == "winter" else "rule"


def setup(sid: str, options: Options, rng: Drbg, log: list[LogEntry] | None = None) -> GameState:
    """The opening position: blocks placed, the English levy drawn, the first hands dealt.
    ``log``: where the set-up's own lines go (the levy, each side's hand), as the entry-0 reports show them."""
    sc = scenario(sid)
    if options.bid and options.bid not in BIDS:
        raise InvalidOrder(f"unknown tournament bid {options.bid!r}; use one of {', '.join(BIDS)} (9.2)")
    state = GameState(scenario=sid, year=sc.first_year, turn=0, phase="card", options=options, king=sc.king)
    for side, placement in (("england", sc.english), ("scotland", sc.scottish)):
        for area, names in placement.items():
            for name in names:
                state.blocks[name] = BlockState(side, area, spec(name).steps)
    for name, s in blocks().items():
        if name in state.blocks:
            continue
        if name in sc.scottish_dead:
            state.blocks[name] = BlockState("scotland", DEAD, 0)
        elif name in sc.scottish_off_map:
            state.blocks[name] = BlockState("scotland", OFF_MAP, 0)
        else:
            state.blocks[name] = BlockState(s.sides[0], POOL, 0)
    extra = int(options.bid[1]) if options.bid.startswith("S") else 0
    levy, draw = levy_draw(state, rng, sc.english_levy + extra, sc.first_year)
    dealt = deal(state, rng)
    if log is not None:
        log.append(LogEntry("setup", "england", PRIVATE, {"rule": "8.0", "drawn": list[Plain](levy), **draw.facts()}))
        log.extend(dealt_lines(state, dealt, "setup", "3.0"))
    return state
