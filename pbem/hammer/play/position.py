"""Position files: any game situation written by hand as TOML, for the sandbox, tests and examples.

The format is documented in docs/positions.md. Loading is strict: an unknown block, area, card or
key, a strength above the block's maximum, a block or card in two places, all stop with one
sentence naming the file and the field. ``dump_position`` writes the same format back, and
``load_position(dump_position(state))`` gives the same state (same canonical hash).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import tomli_w

from pbem.core import inputs
from pbem.hammer.rules.battle_state import STAGE_NAMES, Fight, Hits, fight_of
from pbem.hammer.rules.blocks import SIDES, blocks
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.engine import PHASES
from pbem.hammer.rules.errors import DataError
from pbem.hammer.rules.scenario import HAND_SIZE, scenarios
from pbem.hammer.rules.state import OFF_MAP, PLACES, Battle, BlockState, GameState, Options, Turn
from pbem.hammer.rules.vocab import Name, named
from pbem.hammer.rules.winter import STEPS as WINTER_STEP_CALLS
from pbem.hammer.rules.winter_progress import WinterProgress

FIRST_YEAR, LAST_YEAR = 1297, 9999  # a position's year: from Braveheart's first to far past 1314
_KNOWN = ("scenario", "year", "turn", "phase", "edward", "edward_wintered", "king", "winner",
          "win_reason", "options", "hands", "played", "deck", "current", "battles", *SIDES)
# State fields added later by other modules ride along as plain data under their own names.
EXTRA_KEYS = tuple(f.name for f in fields(GameState) if f.name not in (*_KNOWN, "blocks"))
TOP_KEYS = (*_KNOWN, *EXTRA_KEYS)
KINGS = ("", "Bruce", "Comyn", "Balliol")
TURN_KEYS = tuple(f.name for f in fields(Turn) if f.name != "battles")
_TURN_PLAIN = ("cards", "player1", "truce", "fighting", "moved", "moves_done", "events_done", "crossings")
BATTLE_KEYS = tuple(f.name for f in fields(Battle) if f.name != "area")
FIGHT_KEYS = tuple(f.name for f in fields(Fight))
HITS_KEYS = tuple(f.name for f in fields(Hits))
WINTER_KEYS = tuple(f.name for f in fields(WinterProgress))
WINTER_STEPS = (*(name for name, _ in WINTER_STEP_CALLS), "9.0")  # the sub-steps, and the count (9.0)
CASE_KEY = "case"  # a rules case's own table (docs/cases.md); a position reader skips it


class _Reader:
    """Field access that turns every problem into one sentence naming the file and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, fld: str, why: str) -> DataError:
        return DataError(f"position {self.source}: {fld}: {why}")

    def typed(self, value: Any, kind: type | tuple[type, ...], fld: str, what: str) -> Any:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(fld, f"expected {what}, found {value!r}")
        return value

    def named(self, value: str, names: tuple[Name, ...], what: str, fld: str) -> Name:
        """``value`` as one of ``names`` (a Literal's values, vocab.named), refused naming the field."""
        try:
            return named(value, names, what)
        except DataError as exc:
            raise self.fail(fld, str(exc)) from None

    def plain(self, value: Any, fld: str) -> None:
        """Refuse anything but the plain data a state carries: text, whole numbers, true or false,
        and lists and tables of them (no floats, no dates)."""
        if isinstance(value, dict):
            for k, v in value.items():
                self.plain(v, f"{fld}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self.plain(v, f"{fld}[{i}]")
        elif not isinstance(value, (str, int)):  # bool is an int
            raise self.fail(fld, f"expected text, a whole number, true or false, found {value!r}")

    def strings(self, value: Any, fld: str) -> list[str]:
        self.typed(value, list, fld, "a list of strings")
        for v in value:
            self.typed(v, str, fld, "a list of strings")
        return list(value)

    def only(self, table: dict[str, Any], allowed: tuple[str, ...], fld: str) -> None:
        for key in table:
            if key not in allowed:
                where = f"{fld}.{key}" if fld else key
                raise self.fail(where, f"unknown key; expected one of {', '.join(allowed)}")


def load_position(path: str | Path) -> GameState:
    """Read a position file; ``DataError`` with one sentence on any problem."""
    p = Path(path)
    text = inputs.read_text_input(p, inputs.MAX_FILE, "a position file")
    return parse_position(text, str(p))


def parse_position(text: str, source: str = "<text>") -> GameState:
    """Build a state from position TOML (``source`` names it in error messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"position {source}: not valid TOML ({exc})") from None
    if isinstance(data.get(CASE_KEY), dict):  # a rules case (docs/cases.md): the position part
        data = {k: v for k, v in data.items() if k != CASE_KEY}
    return parse_position_data(data, source)


def parse_position_data(data: dict[str, Any], source: str = "<text>") -> GameState:
    """Build a state from position TOML already parsed into plain data."""
    r = _Reader(source)
    r.only(data, TOP_KEYS, "")
    sid = r.typed(data.get("scenario", ""), str, "scenario", "a scenario name")
    if sid not in scenarios():
        raise r.fail("scenario", f"unknown scenario {sid!r}; choose one of {', '.join(sorted(scenarios()))}")
    year = r.typed(data.get("year", scenarios()[sid].first_year), int, "year", "a year")
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise r.fail("year", f"year {year} is not {FIRST_YEAR}-{LAST_YEAR} (8.0: the war starts in 1297; "
                     "the Campaign plays on, 8.3)")
    turn = r.typed(data.get("turn", 0), int, "turn", "a Game Turn 0-5")
    if not 0 <= turn <= HAND_SIZE:
        raise r.fail("turn", f"Game Turn {turn} is not 0-{HAND_SIZE} (3.0)")
    phase = r.named(r.typed(data.get("phase", "card"), str, "phase", "a phase"), PHASES, "phase", "phase")
    edward = r.typed(data.get("edward", "I"), str, "edward", '"I" or "II"')
    if edward not in ("I", "II"):
        raise r.fail("edward", f'expected "I" or "II", found {edward!r} (6.1)')
    king = r.typed(data.get("king", ""), str, "king", "a king")
    if king not in KINGS:
        raise r.fail("king", f"unknown king {king!r}; expected one of Bruce, Comyn, Balliol or \"\" (6.2)")
    winner = r.typed(data.get("winner", ""), str, "winner", "a side")
    if winner not in ("", *SIDES):
        raise r.fail("winner", f"unknown side {winner!r}")
    state = GameState(
        scenario=sid, year=year, turn=turn, phase=phase, options=_options(r, data.get("options", {})),
        edward=edward, king=king, winner=winner,
        edward_wintered=r.typed(data.get("edward_wintered", 0), int, "edward_wintered", "a year"),
        win_reason=r.typed(data.get("win_reason", ""), str, "win_reason", "a sentence"),
    )
    for key in EXTRA_KEYS:
        if key in data:
            setattr(state, key, _read_winter(r, data[key]) if key == "winter" else data[key])
    _read_blocks(r, data, state)
    _read_cards(r, data, state)
    state.current = _read_turn(r, data, state)
    problems = state.check()
    if problems:
        raise DataError(f"position {source}: {problems[0]}")
    return state


def _options(r: _Reader, raw: Any) -> Options:
    r.typed(raw, dict, "options", "a table")
    r.only(raw, ("schiltroms", "bid"), "options")
    bid = r.typed(raw.get("bid", ""), str, "options.bid", "a bid such as E1 or S2")
    if bid not in ("", "E1", "E2", "E3", "S1", "S2", "S3"):
        raise r.fail("options.bid", f"unknown tournament bid {bid!r} (9.2)")
    return Options(schiltroms=r.typed(raw.get("schiltroms", False), bool, "options.schiltroms", "true or false"),
                   bid=bid)


def _read_blocks(r: _Reader, data: dict[str, Any], state: GameState) -> None:
    """``[england]``/``[scotland]``: area or place -> ["Name", "Name:strength", ...]."""
    where: dict[str, str] = {}
    specs = blocks()
    areas = board().areas
    for side in SIDES:
        table = r.typed(data.get(side, {}), dict, side, "a table of areas")
        for loc in sorted(table):
            fld = f"{side}.{loc}"
            if loc not in areas and loc not in PLACES:
                raise r.fail(fld, f"unknown area {loc!r} (1.1)")
            for entry in r.strings(table[loc], fld):
                name, _, raw_strength = entry.partition(":")
                name = name.strip()
                if name not in specs:
                    raise r.fail(fld, f"unknown block {name!r} (2.0)")
                if side not in specs[name].sides:
                    raise r.fail(fld, f"{name} is not a {side} block (2.0)")
                if name in where:
                    raise r.fail(fld, f"{name} is already in {where[name]}; a block is in one place only")
                top = specs[name].steps
                on_map = loc not in PLACES
                if raw_strength.strip():
                    try:
                        strength = int(raw_strength)
                    except ValueError:
                        raise r.fail(fld, f"{entry!r}: strength {raw_strength.strip()!r} is not a number") from None
                else:
                    strength = top if on_map else 0
                low = 1 if on_map else 0
                if not low <= strength <= top:
                    raise r.fail(fld, f"{name} has strength {strength}, not {low}-{top} (2.11)")
                where[name] = fld
                state.blocks[name] = BlockState(side, loc, strength)
    for name, s in specs.items():  # a block nobody listed is not in the game
        if name not in state.blocks:
            state.blocks[name] = BlockState(s.sides[0], OFF_MAP, 0)


def _read_cards(r: _Reader, data: dict[str, Any], state: GameState) -> None:
    seen: dict[str, str] = {}

    def claim(cid: str, fld: str) -> None:
        if cid not in deck():
            raise r.fail(fld, f"unknown card {cid!r} (3.0)")
        if cid in seen:
            raise r.fail(fld, f"card {cid} is already in {seen[cid]}; each card is in one place only")
        seen[cid] = fld

    for key in ("hands", "played"):
        table = r.typed(data.get(key, {}), dict, key, "a table of sides")
        r.only(table, SIDES, key)
        out: dict[str, list[str]] = {}
        for side in SIDES:
            fld = f"{key}.{side}"
            out[side] = r.strings(table.get(side, []), fld)
            for cid in out[side]:
                claim(cid, fld)
            if key == "hands" and len(out[side]) > HAND_SIZE:
                raise r.fail(fld, f"{len(out[side])} cards, but a hand holds at most {HAND_SIZE} (3.0)")
        setattr(state, key, out)
    if "deck" in data:
        state.deck = r.strings(data["deck"], "deck")
        for cid in state.deck:
            claim(cid, "deck")
    else:
        state.deck = sorted(c for c in deck() if c not in seen)


def _read_turn(r: _Reader, data: dict[str, Any], state: GameState) -> Turn:
    raw = r.typed(data.get("current", {}), dict, "current", "a table")
    r.only(raw, TURN_KEYS, "current")
    turn = Turn()
    cards = r.typed(raw.get("cards", {}), dict, "current.cards", "a table side = card")
    r.only(cards, SIDES, "current.cards")
    for side, cid in sorted(cards.items()):
        r.typed(cid, str, f"current.cards.{side}", "a card id")
        if cid not in deck():
            raise r.fail(f"current.cards.{side}", f"unknown card {cid!r} (3.0)")
        other = "england" if side == "scotland" else "scotland"
        if cid in state.hands.get(side, []) or cid in state.hands.get(other, []):
            raise r.fail(f"current.cards.{side}", f"{cid} is also in a hand; a played card has left it (3.1)")
        if not state.played.get(side) or state.played[side][-1] != cid:
            raise r.fail(f"current.cards.{side}", f"{cid} must also be the last card in played.{side} (3.1)")
    turn.cards = dict(sorted(cards.items()))
    for key in ("player1", "truce", "fighting"):
        value = r.typed(raw.get(key, ""), str, f"current.{key}", "a string")
        if key in ("player1", "truce") and value not in ("", *SIDES):
            raise r.fail(f"current.{key}", f"unknown side {value!r}")
        setattr(turn, key, value)
    for key in ("moved", "moves_done", "events_done"):
        setattr(turn, key, r.strings(raw.get(key, []), f"current.{key}"))
    for name in turn.moved:
        if name not in state.blocks:
            raise r.fail("current.moved", f"unknown block {name!r} (2.0)")
    crossings = r.typed(raw.get("crossings", {}), dict, "current.crossings", "a table")
    turn.crossings = {str(k): r.typed(v, int, f"current.crossings.{k}", "a count") for k, v in crossings.items()}
    for key in TURN_KEYS:
        if key not in _TURN_PLAIN and key in raw:
            setattr(turn, key, _read_fight(r, raw[key], state) if key == "fight" else raw[key])
    battles = r.typed(data.get("battles", {}), dict, "battles", "a table of areas")
    for area, b in sorted(battles.items()):
        fld = f"battles.{area}"
        if area not in board().areas:
            raise r.fail(fld, f"unknown area {area!r} (1.1)")
        r.typed(b, dict, fld, "a table")
        r.only(b, BATTLE_KEYS, fld)
        attacker = r.typed(b.get("attacker", ""), str, f"{fld}.attacker", "a side")
        if attacker not in SIDES:
            raise r.fail(f"{fld}.attacker", f"unknown side {attacker!r}")
        battle = Battle(area=area, attacker=attacker,
                        main=r.strings(b.get("main", []), f"{fld}.main"),
                        main_origin=r.typed(b.get("main_origin", ""), str, f"{fld}.main_origin", "an area"),
                        main_border=r.typed(b.get("main_border", ""), str, f"{fld}.main_border", "a border"),
                        attacker_reserves=r.strings(b.get("attacker_reserves", []), f"{fld}.attacker_reserves"),
                        defender_reserves=r.strings(b.get("defender_reserves", []), f"{fld}.defender_reserves"),
                        entered={s: r.strings(v, f"{fld}.entered.{s}")
                                 for s, v in r.typed(b.get("entered", {}), dict, f"{fld}.entered", "a table").items()})
        for key in ("main", "attacker_reserves", "defender_reserves"):
            for name in getattr(battle, key):
                if name not in state.blocks:
                    raise r.fail(f"{fld}.{key}", f"unknown block {name!r} (2.0)")
        turn.battles[area] = battle
    return turn


def _read_fight(r: _Reader, raw: Any, state: GameState) -> Fight | None:
    """``[current.fight]``, a battle begun and not finished: every field of its data form
    (docs/battles.md "Pausing and resuming"); an empty table is no battle in progress."""
    fld = "current.fight"
    r.typed(raw, dict, fld, "a table")
    if not raw:
        return None
    r.only(raw, FIGHT_KEYS, fld)
    for key in FIGHT_KEYS:
        if key not in raw and key not in ("pending", "chosen"):  # no hits waiting, no order chosen: may be left out
            raise r.fail(f"{fld}.{key}", "missing; a battle in progress records every field (docs/battles.md)")
    area = r.typed(raw["area"], str, f"{fld}.area", "an area")
    if area not in board().areas:
        raise r.fail(f"{fld}.area", f"unknown area {area!r} (1.1)")
    for key in ("attacker", "defender", "original_attacker", "winner"):
        side = r.typed(raw[key], str, f"{fld}.{key}", "a side")
        if side not in SIDES and not (key == "winner" and side == ""):
            raise r.fail(f"{fld}.{key}", f"unknown side {side!r}")
    for key in ("round", "index"):
        r.typed(raw[key], int, f"{fld}.{key}", "a whole number")
    r.typed(raw.get("chosen", -1), int, f"{fld}.chosen", "a whole number")
    r.named(r.typed(raw["stage"], str, f"{fld}.stage", "a battle stage"), STAGE_NAMES, "battle stage",
            f"{fld}.stage")
    for key in ("line", "reserves", "captured", "order", "queue", "revealed"):
        for name in r.strings(raw[key], f"{fld}.{key}"):
            if name not in state.blocks:
                raise r.fail(f"{fld}.{key}", f"unknown block {name!r} (2.0)")
    for key in ("used", "lost"):
        for k, v in r.typed(raw[key], dict, f"{fld}.{key}", "a table of counts").items():
            r.typed(v, int, f"{fld}.{key}.{k}", "a count")
    pending = r.typed(raw.get("pending", {}), dict, f"{fld}.pending", "a table")
    if pending:
        r.only(pending, HITS_KEYS, f"{fld}.pending")
        if "left" not in pending:
            raise r.fail(f"{fld}.pending.left", "missing; hits still to apply say how many are left")
        r.typed(pending["left"], int, f"{fld}.pending.left", "a count of hits")
        r.typed(pending.get("by", ""), str, f"{fld}.pending.by", "a block")
        r.strings(pending.get("targets", []), f"{fld}.pending.targets")
        if "side" in pending and r.typed(pending["side"], str, f"{fld}.pending.side", "a side") not in SIDES:
            raise r.fail(f"{fld}.pending.side", f"unknown side {pending['side']!r}")  # absent: no hit applied yet
    for i, line in enumerate(r.typed(raw["log"], list, f"{fld}.log", "a list of log lines")):
        r.plain(r.typed(line, dict, f"{fld}.log[{i}]", "a table"), f"{fld}.log[{i}]")
    return fight_of(raw)


def _read_winter(r: _Reader, raw: Any) -> WinterProgress | None:
    """``[winter]``, the Winter Turn in progress (winter_progress.py): the sub-steps done, where
    Edward I winters, whether the count ended the game; an empty table is no Winter Turn."""
    r.typed(raw, dict, "winter", "a table")
    r.only(raw, WINTER_KEYS, "winter")
    for step in r.strings(raw.get("done", []), "winter.done"):
        if step not in WINTER_STEPS:
            raise r.fail("winter.done", f"unknown Winter Turn step {step!r}; the steps are {', '.join(WINTER_STEPS)}")
    edward = r.typed(raw.get("edward", ""), str, "winter.edward", 'an area or ""')
    if edward and edward not in board().areas:
        raise r.fail("winter.edward", f"unknown area {edward!r} (1.1)")
    r.typed(raw.get("final", False), bool, "winter.final", "true or false")
    return WinterProgress.from_data(raw)


def dump_position(state: GameState) -> str:
    """The position file of ``state``; loading it gives the same state back."""
    out: dict[str, Any] = {"scenario": state.scenario, "year": state.year, "turn": state.turn,
                           "phase": state.phase, "edward": state.edward,
                           "edward_wintered": state.edward_wintered, "king": state.king}
    if state.winner or state.win_reason:
        out["winner"], out["win_reason"] = state.winner, state.win_reason
    plain = state.to_dict()
    extras = {k: plain[k] for k in EXTRA_KEYS if plain[k] not in (None, {}, [], "")}
    out["options"] = {"schiltroms": state.options.schiltroms, "bid": state.options.bid}
    out["hands"] = {s: list(state.hands.get(s, [])) for s in SIDES}
    out["played"] = {s: list(state.played.get(s, [])) for s in SIDES}
    out["deck"] = list(state.deck)
    cur = state.current
    current: dict[str, Any] = {"cards": dict(sorted(cur.cards.items())), "player1": cur.player1}
    for key in TURN_KEYS:
        if key in ("cards", "player1"):
            continue
        value = plain["current"][key]
        if value:
            current[key] = dict(sorted(value.items())) if isinstance(value, dict) else value
    out["current"] = current
    if cur.battles:
        out["battles"] = {a: {k: v for k, v in _battle_dict(b).items() if v}
                          for a, b in sorted(cur.battles.items())}
    for side in SIDES:
        table: dict[str, list[str]] = {}
        for name in state.blocks_of(side):
            b = state.blocks[name]
            full = blocks()[name].steps if b.location not in PLACES else 0
            table.setdefault(b.location, []).append(name if b.strength == full else f"{name}:{b.strength}")
        out[side] = {loc: table[loc] for loc in sorted(table)}
    out.update(extras)  # state other modules added: plain data under its own name
    try:
        body = _emit(out)
    except TypeError:  # a shape the short writer does not know (e.g. a list of tables)
        body = tomli_w.dumps(out)
    return "# pbem position (docs/positions.md)\n" + body


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _key(k: str) -> str:
    return k if k and set(k) <= _BARE else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)  # an ASCII-escaped JSON string is a valid TOML basic string
    if isinstance(v, list):
        inline = "[" + ", ".join(_value(x) for x in v) + "]"
        if len(inline) <= 90:
            return inline
        return "[\n" + "".join(f"    {_value(x)},\n" for x in v) + "]"
    raise TypeError(f"cannot write {v!r} in a position")


def _emit(table: dict[str, Any], path: str = "") -> str:
    """Short, readable TOML: scalars and inline lists first, then one [section] per sub-table."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    text = "\n".join(lines) + ("\n" if lines else "")
    for k, v in table.items():
        if isinstance(v, dict):
            sub = f"{path}.{_key(k)}" if path else _key(k)
            body = _emit(v, sub)
            if any(not isinstance(x, dict) for x in v.values()) or not v:
                text += f"\n[{sub}]\n"
            text += body
    return text


def _battle_dict(b: Battle) -> dict[str, Any]:
    return {"attacker": b.attacker, "main": b.main, "main_origin": b.main_origin, "main_border": b.main_border,
            "attacker_reserves": b.attacker_reserves, "defender_reserves": b.defender_reserves,
            "entered": dict(sorted(b.entered.items()))}


__all__ = ["load_position", "parse_position", "dump_position"]
