"""Typed records of a Swords and Bagpipes game, with one canonical plain-data form.

Why mutable dataclasses: one step works on a private copy (``Table.from_data(state)``) and
hands back ``to_data()``; the plain form is what the protocol commits to and stores.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from pbem.core.errors import FormatError


class Side(str, Enum):
    """The per-round loyalty of a seat [SB-5.4]; NONE for the Stay Home! seat [SB-11]."""

    SCOTLAND = "scotland"
    ENGLAND = "england"
    NONE = "none"


class Replenish(str, Enum):
    """The four replenishment actions [SB-5.2]."""

    COLLECT_TAXES = "collect_taxes"
    RAISE_MILITIA = "raise_militia"
    ASSEMBLE_TROOPS = "assemble_troops"
    HIRE_MERCENARIES = "hire_mercenaries"


class Phase(str, Enum):
    INVASION = "invasion"
    ACTIONS = "actions"
    BADGE = "badge"
    STAY_HOME_PASS = "stay_home_pass"
    STAY_HOME_ACTIONS = "stay_home_actions"
    CHOICE = "choice"
    TOKENS = "tokens"
    GIVEAWAY = "giveaway"
    BATTLE = "battle"
    AWARDS = "awards"
    PURSE = "purse"
    END = "end"
    OVER = "over"


OrderKind = Literal["plan", "turn", "badge", "stay_home", "home_actions", "choice", "window", "giveaway", "ruling"]
ORDER_KINDS: tuple[str, ...] = get_args(OrderKind)
REFEREE = "referee"
Visibility = str  # "all" or a seat id

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """Plain data (dict/list/str/int/bool/None) of a record, enum, tuple or list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in sorted(value.items())}
    return value


_ATOMIC = frozenset({str, int, bool, float, type(None)})


def copy_record(value: T, keep: typing.Mapping[str, Any] | None = None) -> T:
    """A deep copy of a table (or any record), as ``copy.deepcopy`` makes it, without its generic dispatch.

    Why: each step and each trial of a plan's alternative copies the table, and ``deepcopy`` (a lookup
    of each object's copier, its reduce protocol) was most of a bot game's CPU. Here records, lists and
    tables are made anew in the same order, and text, numbers and enums shared, as ``deepcopy`` does; an
    object held twice is copied once and held twice in the copy (the memo, as ``deepcopy``'s: a ruling
    due is held both in the list of rulings due and by the pending call that asks for it). ``keep``
    hands over top-level fields of ``value``: each is replaced by the object given, wherever it is held
    (``deepcopy`` with a memo seeded so)."""
    memo: dict[int, Any] = {id(getattr(value, name)): given for name, given in (keep or {}).items()}
    return typing.cast(T, _copy(value, memo))


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _ATOMIC or isinstance(value, Enum):
        return value
    if kind is tuple:
        return tuple(_copy(v, memo) for v in value)
    done = memo.get(id(value))
    if done is not None:
        return done
    if kind is list:
        new_list: list[Any] = []
        memo[id(value)] = new_list
        new_list.extend(v if type(v) in _ATOMIC else _copy(v, memo) for v in value)
        return new_list
    if kind is dict:
        new_dict: dict[Any, Any] = {}
        memo[id(value)] = new_dict
        for k, v in value.items():
            new_dict[k] = v if type(v) in _ATOMIC else _copy(v, memo)
        return new_dict
    if dataclasses.is_dataclass(value) and not hasattr(kind, "__slots__"):
        new = object.__new__(kind)
        memo[id(value)] = new
        new.__dict__.update({k: _copy(v, memo) for k, v in value.__dict__.items()})
        return new
    return copy.deepcopy(value, memo)


@functools.lru_cache(maxsize=None)
def _hints(kind: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, type, required) of a record's fields, computed once per class."""
    hints = get_type_hints(kind)
    return tuple((f.name, hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                 for f in dataclasses.fields(kind))


def from_data(kind: Any, data: Any, where: str = "state") -> Any:
    """The record of type ``kind`` from its plain data (the inverse of ``to_data``).

    Why two readers: a step reads the whole table several times (a 6-clan game some 600 times), and
    walking the type hints for every value was most of a bot game's CPU. ``_reader(kind)`` is worked out
    once per type and takes the same decisions (same checks, same order of a union's options, fresh lists
    and tables); on any failure the data is read again by ``_explain``, which names where it went wrong,
    so a refusal's sentence is the one it always was."""
    try:
        return _reader(kind)(data)
    except Exception:   # any failure: read again, to raise the one clear error (or the very same exception)
        return _explain(kind, data, where)


class _Unreadable(Exception):
    """The fast reader's refusal: carries nothing, since ``_explain`` says what and where."""


_UNION_MISSES = (FormatError, TypeError, ValueError, KeyError, _Unreadable)
Reader = typing.Callable[[Any], Any]


@functools.lru_cache(maxsize=None)
def _reader(kind: Any) -> Reader:
    """The plain-data reader of one type, built once (the decisions of ``_explain`` without the ``where``)."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        optional = type(None) in get_args(kind)
        options = [_reader(a) for a in get_args(kind) if a is not type(None)]

        def read_union(data: Any) -> Any:
            if data is None and optional:
                return None
            for option in options:
                try:
                    return option(data)
                except _UNION_MISSES:
                    pass
            raise _Unreadable
        return read_union
    if origin is Literal:
        allowed = get_args(kind)

        def read_literal(data: Any) -> Any:
            if data not in allowed:
                raise _Unreadable
            return data
        return read_literal
    if origin in (list, tuple):
        item = _reader(get_args(kind)[0])   # records read their fields lazily, so this ends
        as_tuple = origin is tuple

        def read_list(data: Any) -> Any:
            if not isinstance(data, list):
                raise _Unreadable
            items = [item(v) for v in data]
            return tuple(items) if as_tuple else items
        return read_list
    if origin is dict:
        value = _reader(get_args(kind)[1])

        def read_dict(data: Any) -> Any:
            if not isinstance(data, dict):
                raise _Unreadable
            return {k: value(v) for k, v in data.items()}
        return read_dict
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record_reader(kind)
    return _plain_reader(kind)


def _record_reader(kind: type) -> Reader:
    """A dataclass's reader: unknown fields refused, required ones demanded, each field read by its type."""
    names = frozenset(name for name, _, _ in _hints(kind))
    fields: list[tuple[str, Reader, bool]] = []   # filled at the first read, so that records may nest

    def read_record(data: Any) -> Any:
        if not isinstance(data, dict) or not names.issuperset(data):
            raise _Unreadable
        if not fields:
            fields[:] = [(name, _reader(hint), required) for name, hint, required in _hints(kind)]
        values = {}
        for name, read, required in fields:
            if name in data:
                values[name] = read(data[name])
            elif required:
                raise _Unreadable
        return kind(**values)
    return read_record


_PLAIN_TESTS: dict[Any, typing.Callable[[Any], bool]] = {
    Any: lambda data: True,
    bool: lambda data: isinstance(data, bool),
    int: lambda data: isinstance(data, int) and not isinstance(data, bool),
    str: lambda data: isinstance(data, str),
}


def _plain_reader(kind: Any) -> Reader:
    """The reader of Any, bool, int and str (anything else has no codec)."""
    test = _PLAIN_TESTS.get(kind)

    def read_plain(data: Any) -> Any:
        if test is None:
            raise TypeError(f"no codec for {kind!r}")
        if not test(data):
            raise _Unreadable
        return data
    return read_plain


def _explain(kind: Any, data: Any, where: str = "state") -> Any:
    """The reference reader, which says where data fails (``from_data`` calls it when its fast reader fails)."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        if data is None and type(None) in get_args(kind):
            return None
        inner = [a for a in get_args(kind) if a is not type(None)]
        errors = []
        for option in inner:
            try:
                return _explain(option, data, where)
            except (FormatError, TypeError, ValueError, KeyError) as exc:
                errors.append(str(exc))
        raise FormatError(f"{where}: {data!r} fits none of the expected forms")
    if origin is Literal:
        if data not in get_args(kind):
            raise FormatError(f"{where}: {data!r} is not one of {', '.join(map(str, get_args(kind)))}")
        return data
    if origin in (list, tuple):
        args = get_args(kind)
        if not isinstance(data, list):
            raise FormatError(f"{where}: expected a list, not {type(data).__name__}")
        items = [_explain(args[0], v, f"{where}[{i}]") for i, v in enumerate(data)]
        return items if origin is list else tuple(items)
    if origin is dict:
        key_t, val_t = get_args(kind)
        if not isinstance(data, dict):
            raise FormatError(f"{where}: expected a table, not {type(data).__name__}")
        return {k: _explain(val_t, v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(data)
        except ValueError:
            raise FormatError(f"{where}: {data!r} is not one of {', '.join(m.value for m in kind)}") from None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise FormatError(f"{where}: expected a table, not {type(data).__name__}")
        fields = _hints(kind)
        extra = sorted(set(data) - {name for name, _, _ in fields})
        if extra:
            raise FormatError(f"{where}: unknown field {extra[0]!r}")
        values = {}
        for name, hint, required in fields:
            if name in data:
                values[name] = _explain(hint, data[name], f"{where}.{name}")
            elif required:
                raise FormatError(f"{where}: missing field {name!r}")
        return kind(**values)
    if kind is Any:
        return data
    if kind is bool:
        if not isinstance(data, bool):
            raise FormatError(f"{where}: expected true or false, not {data!r}")
        return data
    if kind is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise FormatError(f"{where}: expected a whole number, not {data!r}")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise FormatError(f"{where}: expected text, not {data!r}")
        return data
    raise TypeError(f"no codec for {kind!r}")


@dataclass
class Options:
    """Every choice made at game open (manifest options), with the book's defaults or ours for its gaps
    (docs/bagpipes-notes.md §3)."""

    players: int = 4
    rounds: int = 7                              # [SB-4]; 9 = [SB-12.3]
    stay_home: bool = False                      # [SB-11]: forced at 6, a variant at 5
    scottish_set: bool = False                   # [SB-12.2]
    precise_daggers: bool = False                # [SB-12.4]
    components_sha256: str = ""                  # the component file the game uses (manifest)
    start_seat: str = ""                         # book: the oldest player; "" = drawn
    stay_home_first: str = ""                    # book: the youngest player; "" = drawn
    deserters_take_dagger: bool = False
    deserters_count_in_split: bool = False
    awards_before_purse_window: bool = True
    window_order: Literal["orbit", "sealed"] = "orbit"
    gold_loss_is_cost: bool = True
    two_player_badge_forces_scotland: bool = False
    two_player_no_hand_back: bool = False
    three_player_fields_bonus_phase: Literal["invasion", "battle"] = "invasion"
    final_tie: Literal["shared", "none"] = "shared"
    hand_counts_public: bool = True
    actions_each_once: bool = True


@dataclass
class Talk:
    """A free-text message riding in an order; the engine stores and delivers it, never reads it."""

    to: str = "all"
    text: str = ""


@dataclass
class Mail:
    sender: str
    to: str
    text: str
    step: int


@dataclass
class LogEntry:
    """One thing that happened; ``visible`` is "all" or the one seat that may know it."""

    step: int
    visible: str
    event: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class CardPlay:
    """Playing one bagpipe card: face id (or copy id), targets, chosen amount for "(or fewer)", dagger pick."""

    card: str
    targets: list[str] = field(default_factory=list)
    n: int | None = None
    dagger: str | None = None
    when: str | None = None        # window guard: "scotland_won" / "england_won" / None
    replenish: list[Replenish] = field(default_factory=list)   # for extra_replenishment ops


@dataclass
class Turn:
    """One Actions-phase turn [SB-5.2]: one replenishment, a relocation, axe cards, in the order given."""

    replenish: Replenish = Replenish.COLLECT_TAXES
    relocate: int | Literal["all"] = 0
    cards: list[CardPlay] = field(default_factory=list)
    order: list[Literal["replenish", "relocate", "cards"]] = field(
        default_factory=lambda: ["cards", "replenish", "relocate"])


@dataclass
class Guard:
    """Conditions on public values (and the author's own) that select a program alternative."""

    strength_at_least: int | None = None
    strength_at_most: int | None = None
    gold_at_least: int | None = None
    gold_at_most: int | None = None
    fields_at_least: int | None = None
    round_at_least: int | None = None
    round_at_most: int | None = None


@dataclass
class Alternative:
    turn: Turn = field(default_factory=Turn)
    guard: Guard = field(default_factory=Guard)
    ask: bool = False              # reaching this alternative stops and asks the seat ("ask me")


@dataclass
class Policy:
    """A standing choice of recipient (Badge of Honour, Stay Home!): first legal preferred seat, else ask or default."""

    prefer: list[str] = field(default_factory=list)
    ask: bool = False


@dataclass
class WindowStanding:
    """Standing orders for the tokens or purse window [SB-6]: cards to play, and when to stop and ask."""

    play: list[CardPlay] = field(default_factory=list)
    ask: bool = False
    ask_if_played_before_me: bool = False


@dataclass
class Order:
    """Every order kind in one record; a kind uses its own fields and must leave the others at their defaults."""

    kind: OrderKind
    round: int
    program: list[Alternative] = field(default_factory=list)
    on_fail: Literal["ask", "default"] = "default"
    badge: Policy = field(default_factory=Policy)
    stay_home: Policy = field(default_factory=Policy)
    if_sent_home: list[Replenish] | None = None    # None = three Collect Taxes
    home_ask: bool = False                          # stop and ask if sent home instead
    turn: Turn | None = None
    to: str = ""
    replenish: list[Replenish] = field(default_factory=list)
    loyalty: Side | None = None     # the choice token; named so as not to clash with the envelope's "side"
    dagger: str | None = None
    tokens: WindowStanding = field(default_factory=WindowStanding)
    purse: WindowStanding = field(default_factory=WindowStanding)
    giveaway: Literal["keep", "give", "ask"] = "keep"
    giveaway_if_camp_at_least: int | None = None
    cards: list[CardPlay] = field(default_factory=list)
    ruling: str = ""
    ops: list[dict[str, Any]] = field(default_factory=list)
    talk: Talk | None = None
    game: str = ""                  # optional binding fields, checked against the envelope by the core (§7.3)
    side: str = ""
    step: int | None = None


@dataclass
class Seat:
    id: str
    gold: int = 3
    castle: int = 3
    camp: int = 0
    hand: list[str] = field(default_factory=list)            # bagpipe copies: secret (owner)
    x2_up: list[list[Any]] = field(default_factory=list)      # [copy, round first used]: public
    daggers: list[str] = field(default_factory=list)          # 3+p: secret values; 2p: received face up
    dagger_hand: list[str] = field(default_factory=list)      # 2p only: secret
    dagger_discard: list[str] = field(default_factory=list)   # 2p personal pile: public
    virtual_daggers: int = 0                                  # [SB-13]: public 2-dagger tokens
    loot: list[str] = field(default_factory=list)             # cards received in this Awards phase


@dataclass
class Pending:
    """What the game waits for: order kind per side, and where to resume."""

    owes: dict[str, str] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class Table:
    options: Options
    seats: list[Seat]
    phase: Phase = Phase.INVASION
    round: int = 0
    step: int = 0
    round_deck: list[str] = field(default_factory=list)       # secret (referee)
    round_out: list[str] = field(default_factory=list)        # secret until the final reveal
    revealed: list[str] = field(default_factory=list)
    bagpipe_deck: list[str] = field(default_factory=list)     # secret order
    bagpipe_discard: list[str] = field(default_factory=list)
    bagpipe_removed: list[str] = field(default_factory=list)  # 3p: badge cards discarded on draw go to discard
    dagger_deck: list[str] = field(default_factory=list)      # secret order
    dagger_discard: list[str] = field(default_factory=list)
    fields: int = 0
    defeats: int = 0
    badge: str = ""
    badge_prev_giver: str = ""
    badge_given_round: int = 0
    stay_home: str = ""
    stay_home_prev_giver: str = ""
    at_home: str = ""
    sides: dict[str, Side] = field(default_factory=dict)      # sealed until the battle
    sides_revealed: bool = False
    chosen_daggers: dict[str, str] = field(default_factory=dict)  # 2p, sealed until the battle
    deserters: list[str] = field(default_factory=list)
    english_mod: int = 0
    round_effect_done: bool = False                           # the round card's operations have run [SB-5.1]
    scottish_mod: int = 0
    award_factor: dict[str, int] = field(default_factory=dict)
    scotland_won: bool | None = None
    x2_used_round: list[str] = field(default_factory=list)
    plans: dict[str, Order] = field(default_factory=dict)     # secret standing orders
    choices: dict[str, Order] = field(default_factory=dict)   # secret until used
    turn_index: int = 0
    window_index: int = 0
    window_played: bool = False
    pending: Pending = field(default_factory=Pending)
    rulings_due: list[dict[str, Any]] = field(default_factory=list)
    mail: list[Mail] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)          # this step's log only
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""
    gold_minted: int = 0
    gold_returned: int = 0
    troops_minted: int = 0
    troops_returned: int = 0

    def seat(self, seat_id: str) -> Seat:
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(seat_id)

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.seats]

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = to_data(self)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Table:
        table: Table = from_data(cls, data)
        return table


COMMON_FIELDS = ("kind", "round", "talk", "game", "side", "step")
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "plan": ("program", "on_fail", "badge", "stay_home", "if_sent_home", "home_ask"),
    "turn": ("turn",), "badge": ("to",), "stay_home": ("to",), "home_actions": ("replenish",),
    "choice": ("loyalty", "dagger", "tokens", "purse", "giveaway", "giveaway_if_camp_at_least"),
    "window": ("cards",), "giveaway": ("giveaway",), "ruling": ("ruling", "ops"),
}


TURN_FIELDS = ("replenish", "relocate", "cards", "order")
# the flat form (a turn's fields at the top of the order) refused with the right form shown
FLAT_FORMS = {
    "turn": 'a turn order puts the turn in one table: turn = { replenish = "raise_militia", relocate = 4, '
            'cards = [], order = ["cards", "replenish", "relocate"] }',
    "plan": 'a plan lists its turns as alternatives: [[program]] then turn = { replenish = "raise_militia", '
            'relocate = 4 } (each [[program]] may add a guard and ask = true)',
}


def order_data(order: Order) -> dict[str, Any]:
    """An order's data form as a player would send it: its kind's fields and the common ones it sets,
    so ``parse_order`` reads it back (the record itself carries every kind's fields)."""
    data: dict[str, Any] = to_data(order)
    keep = set(KIND_FIELDS[data["kind"]]) | {"kind", "round"}
    return {k: v for k, v in data.items() if k in keep or (k in COMMON_FIELDS and v not in (None, ""))}


def parse_order(body: Any, where: str = "order") -> Order:
    """The typed order of a plain-data body: unknown fields, wrong types and another kind's fields refused."""
    if not isinstance(body, dict):
        raise FormatError(f"{where}: an order is a table with a kind and a round")
    kind = body.get("kind")
    if kind not in KIND_FIELDS:
        raise FormatError(f"{where}: kind {kind!r} is not one of {', '.join(ORDER_KINDS)}")
    stray = sorted(set(body) - set(COMMON_FIELDS) - set(KIND_FIELDS[kind]))
    flat = [name for name in stray if name in TURN_FIELDS or (kind == "plan" and name in ("turn", "guard", "ask"))]
    if flat and kind in FLAT_FORMS:
        raise FormatError(f"{where}: {flat[0]} is not a field of a {kind} order by itself: {FLAT_FORMS[kind]} "
                          "(docs/bagpipes-orders.md)")
    if stray and all(name in {f.name for f in dataclasses.fields(Order)} for name in stray):
        raise FormatError(f"{where}: a {kind} order has no field {stray[0]!r} "
                          f"(it takes {', '.join(KIND_FIELDS[kind])})")
    order: Order = from_data(Order, body, where)
    return order


__all__ = ["Side", "Replenish", "Phase", "Options", "Talk", "Mail", "LogEntry", "CardPlay", "Turn", "Guard",
           "Alternative", "Policy", "WindowStanding", "Order", "Seat", "Pending", "Table", "to_data", "from_data",
           "parse_order", "order_data", "copy_record", "REFEREE", "ORDER_KINDS", "typing"]
