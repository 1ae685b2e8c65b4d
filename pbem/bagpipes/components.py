"""The card faces, loaded from a component file (docs/bagpipes-notes.md §2): the book prints none of them.

Why data and not code: the published values are on the cards only, and editions differ, so a
group supplies its own file; the engine checks its counts and never ships real card data.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pbem.core import inputs
from pbem.core.errors import FormatError

Timing = Literal["axe", "tokens", "purse"]
Back = Literal["grey", "red"]
FORMAT = tomllib.loads(resources.files("pbem.bagpipes").joinpath("data", "component-format.toml").read_text())
VALUES: dict[str, list[str]] = FORMAT["values"]
TIMINGS: tuple[str, ...] = tuple(VALUES["timing"])
TARGETS: tuple[str, ...] = tuple(VALUES["targets"])
WHO: tuple[str, ...] = tuple(VALUES["who"])
CONDITIONS: tuple[str, ...] = tuple(VALUES["condition"])
# op -> {parameter: spec}: the operation vocabulary, typed in data/component-format.toml
OPS: dict[str, dict[str, dict[str, Any]]] = FORMAT["ops"]
SAMPLE = "sample-components.toml"

Effect = tuple[dict[str, Any], ...] | Literal["manual"]


@dataclass(frozen=True)
class RoundCard:
    """An English Arms (grey) or King Edward (red) card [SB-5.1], [SB-5.6]."""

    id: str
    title: str
    back: Back
    english_strength: int
    gold_scots_win: int
    gold_scots_lose: int
    gold_crown: int
    crown_split: bool
    refers_to_badge: bool
    excluded_players: tuple[int, ...]
    text: str
    effect: Effect


@dataclass(frozen=True)
class BagpipeCard:
    """One bagpipe card face (copies share it) [SB-6]."""

    id: str
    title: str
    copies: int
    timing: Timing
    x2: bool
    refers_to_badge: bool
    targets: str
    text: str
    effect: Effect

    def gold_cost(self) -> int:
        """Gold the player pays by the card's own top-level lose_gold ops (the gold-loss icon) [SB-6]."""
        if self.effect == "manual":
            return 0
        return sum(int(op["n"]) for op in self.effect if op["op"] == "lose_gold" and op.get("who", "self") == "self")


@dataclass(frozen=True)
class Components:
    name: str
    sha256: str
    players: tuple[int, int]
    defeat_track: tuple[str, ...]
    clans: tuple[tuple[str, str], ...]          # (id, name), clockwise seat order uses the first N
    daggers: tuple[tuple[int, int], ...]         # (value, number of cards)
    round_cards: tuple[RoundCard, ...]
    bagpipe_cards: tuple[BagpipeCard, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def bagpipe(self, face: str) -> BagpipeCard:
        for card in self.bagpipe_cards:
            if card.id == face:
                return card
        raise KeyError(face)

    def round_card(self, card_id: str) -> RoundCard:
        for card in self.round_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def bagpipe_copies(self) -> tuple[str, ...]:
        """Physical card ids ``face#k``, in file order (the deck before its shuffle)."""
        return tuple(f"{c.id}#{k}" for c in self.bagpipe_cards for k in range(1, c.copies + 1))

    def dagger_cards(self) -> tuple[str, ...]:
        """Physical dagger ids ``d<value>#k`` (value is the number before ``#``)."""
        return tuple(f"d{v}#{k}" for v, n in self.daggers for k in range(1, n + 1))


def dagger_value(card: str) -> int:
    return int(card[1:card.index("#")])


def face_of(card: str) -> str:
    return card.split("#", 1)[0]


def _line(text: str, needle: str, start: int = 0, end: int = 0) -> int:
    """1-based number of the first line in ``start``..``end`` matching the regex ``needle`` (0: none)."""
    lines = text.splitlines()
    for i in range(max(start - 1, 0), end or len(lines)):
        if re.search(needle, lines[i]):
            return i + 1
    return 0


def _fail(where: str, line: int, what: str) -> FormatError:
    at = f"{where}:{line}" if line else where
    return FormatError(f"{at}: {what} (component file format, docs/bagpipes-notes.md §2).")


@dataclass(frozen=True)
class _Block:
    """Where one table of the file stands (its lines), to name the line of a field at fault."""

    where: str
    text: str
    start: int
    end: int
    what: str

    def line(self, key: str, op: str = "") -> int:
        """The line of ``key = ...`` (inside the inline table of operation ``op`` when given) in the block."""
        name, field = rf'\bop\s*=\s*"{re.escape(op)}"', rf"\b{re.escape(key)}\s*="
        needle = rf"{name}.*{field}|{field}.*{name}" if op else rf"^\s*{re.escape(key)}\s*="
        return _line(self.text, needle, self.start, self.end) or (
            _line(self.text, rf'\bop\s*=\s*"{re.escape(op)}"', self.start, self.end) if op else 0) or self.start

    def fail(self, what: str, key: str = "", op: str = "") -> FormatError:
        return _fail(self.where, self.line(key, op) if key else self.start, f"{self.what}: {what}")


def _blocks(text: str, header: str, where: str, what: str, n: int) -> list[_Block]:
    """The blocks of the ``n`` tables ``[[header]]``, in file order (the whole file for each when the
    list is written another way, e.g. as an inline array)."""
    lines = text.splitlines()
    starts = [i + 1 for i, ln in enumerate(lines) if re.match(rf"^\s*\[\[\s*{re.escape(header)}\s*\]\]", ln)]
    out = []
    for start in starts:
        end = next((i for i in range(start, len(lines)) if re.match(r"^\s*\[", lines[i])), len(lines))
        out.append(_Block(where, text, start, end, what))
    return out if len(out) == n else [_Block(where, text, 1, len(lines), what)] * n


def _problem(spec: dict[str, Any], value: Any, name: str) -> str:
    """What is wrong with ``value`` for a field of this spec (component-format.toml), or ""."""
    kind = spec["type"]
    lo, hi = spec.get("min"), spec.get("max")
    span = f"{lo} to {hi}" if lo is not None and hi is not None else f">= {lo}" if lo is not None else ""

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def in_range(v: int) -> bool:
        return (lo is None or v >= lo) and (hi is None or v <= hi)

    if kind == "int":
        if not whole(value) or not in_range(value):
            return f"{name} must be a whole number {span}, not {value!r}"
    elif kind == "bool":
        if not isinstance(value, bool):
            return f"{name} must be true or false (a TOML boolean, no quotes), not {value!r}"
    elif kind == "text":
        if not isinstance(value, str):
            return f"{name} must be text in quotes, not {value!r}"
    elif kind == "enum":
        allowed = VALUES[spec["values"]]
        if value not in allowed:
            return f"{name} = {value!r} is not one of {', '.join(allowed)}"
    elif kind == "ints":
        if not isinstance(value, list) or not all(whole(v) and in_range(v) for v in value):
            return f"{name} must be a list of whole numbers {span}, not {value!r}"
    elif kind == "table":
        if not isinstance(value, dict):
            return f"{name} must be a table, not {value!r}"
    elif kind == "effect":
        if value != "manual" and not isinstance(value, list):
            return f'{name} must be a list of operations or "manual", not {value!r}'
    return ""


def _fields(raw: Any, specs: dict[str, dict[str, Any]], block: _Block) -> dict[str, Any]:
    """Check a card's fields against their specs: unknown, missing or mistyped ones refused at their line."""
    if not isinstance(raw, dict):
        raise block.fail("a card is a table")
    for key in raw:
        if key not in specs:
            raise block.fail(f"unknown field {key!r}; a card takes {', '.join(specs)}", key)
    for key, spec in specs.items():
        if key not in raw:
            if spec.get("required"):
                raise block.fail(f"missing field {key!r}")
            continue
        problem = _problem(spec, raw[key], key)
        if problem:
            raise block.fail(problem, key)
    return raw


def _effect(raw: Any, block: _Block) -> Effect:
    if raw == "manual":
        return "manual"
    if not isinstance(raw, list):
        raise block.fail('effect must be a list of operations or "manual"', "effect")
    return tuple(_op(op, block) for op in raw)


def _op(op: Any, block: _Block) -> dict[str, Any]:
    """One operation, every parameter checked against its type in component-format.toml."""
    if not isinstance(op, dict) or op.get("op") not in OPS:
        name = op.get("op") if isinstance(op, dict) else op
        raise block.fail(f"unknown operation {name!r}; known: {', '.join(sorted(OPS))} or effect = \"manual\"",
                         "effect")
    name = op["op"]
    specs = {**OPS[name], **FORMAT["common"]}
    for key in op:
        if key != "op" and key not in specs:
            raise block.fail(f"operation {name} takes no parameter {key!r} (it takes {', '.join(specs)})", key, name)
    for key, spec in specs.items():
        if key not in op:
            if spec.get("required"):
                raise block.fail(f"operation {name} needs {key}", "op", name)
            continue
        problem = _problem(spec, op[key], key)
        if problem:
            raise block.fail(f"operation {name}: {problem}", key, name)
    if name == "condition":
        then, other = _effect(op.get("then", []), block), _effect(op.get("else", []), block)
        return {**op, "then": list(then), "else": list(other)}
    return dict(op)


def _uses(effect: Effect) -> list[tuple[str, str, str]]:
    """(operation, parameter, value) of every ``who``/``from``/``if`` in an effect, nested ones included."""
    if effect == "manual":
        return []
    out: list[tuple[str, str, str]] = []
    for op in effect:
        out += [(str(op["op"]), str(key), str(op[key])) for key in ("who", "from", "if") if key in op]
        if op["op"] == "condition":
            out += _uses(tuple(op["then"])) + _uses(tuple(op["else"]))
    return out


NOBODY_PLAYS_IT = ("self", "target", "each_other", "self_supports_england", "self_supports_scotland",
                   "self_is_badge_holder")


def _finds_somebody(effect: Effect, block: _Block, round_card: bool, targets: str) -> None:
    """Refuse an operation that could never find its player: a round card has nobody who plays it, and
    only a card that targets one player has a target (docs/bagpipes-notes.md §2)."""
    for name, key, value in _uses(effect):
        if round_card and value in NOBODY_PLAYS_IT:
            raise block.fail(f"operation {name}: {key} = {value!r} finds nobody on a round card (nobody plays it); "
                             "use each_player, badge_holder or a supporter group", key, name)
        if not round_card and value == "target" and targets != "one_player":
            raise block.fail(f"operation {name}: {key} = \"target\" needs targets = \"one_player\" on the card "
                             f"(it has targets = {targets!r})", key, name)


def check_ops(ops: list[dict[str, Any]], where: str) -> None:
    """A referee's ruling operations, checked like a card's (the same vocabulary and types)."""
    _effect(ops, _Block(where, "", 0, 0, "ruling"))


def _named(block: _Block, raw: Any, what: str) -> _Block:
    """The block, its messages naming the card by id when it has one."""
    cid = raw.get("id") if isinstance(raw, dict) else None
    return dataclasses.replace(block, what=f"{what} {cid}" if isinstance(cid, str) and cid else what)


def _list(doc: dict[str, Any], key: str, text: str, where: str) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise _fail(where, _line(text, re.escape(key)), f"{key} is a list of [[{key}]] tables")
    return value


TOP = ("edition", "defeat_track", "clans", "daggers", "round_cards", "bagpipe_cards")


def _top(doc: dict[str, Any], text: str, where: str) -> tuple[tuple[int, int], tuple[str, ...],
                                                               tuple[tuple[str, str], ...]]:
    """The edition's player range, the defeat track and the clans, their types checked."""
    for key in doc:
        if key not in TOP:
            raise _fail(where, _line(text, rf"^\s*\[*\s*{re.escape(key)}\b"),
                        f"unknown table {key!r}; a component file has {', '.join(TOP)}")
    edition = doc.get("edition", {})
    players = edition.get("players", [2, 6])
    at = _line(text, r"^\s*players\s*=")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, int) and not isinstance(p, bool)
                                                                    and 2 <= p <= 6 for p in players)
            and players[0] <= players[1]):
        raise _fail(where, at, f"players must be [min, max] with 2 <= min <= max <= 6, not {players!r}")
    for key in ("name", "language"):
        if key in edition and not isinstance(edition[key], str):
            raise _fail(where, _line(text, rf"^\s*{key}\s*="), f"edition {key} must be text in quotes")
    spaces = doc.get("defeat_track", {}).get("spaces", [])
    if not isinstance(spaces, list) or not all(isinstance(s, str) for s in spaces):
        raise _fail(where, _line(text, r"^\s*spaces\s*="), "defeat_track spaces must be a list of texts")
    clans = doc.get("clans", [])
    if not isinstance(clans, list):
        raise _fail(where, _line(text, r"clans"), "clans is a list of [[clans]] tables")
    for clan, block in zip(clans, _blocks(text, "clans", where, "clan", len(clans)), strict=True):
        if not isinstance(clan, dict) or not isinstance(clan.get("id"), str) \
                or not all(isinstance(clan.get(k, ""), str) for k in ("name", "colour")):
            raise block.fail("a clan has an id, a name and a colour, all texts in quotes")
    return ((players[0], players[1]), tuple(spaces), tuple((str(c["id"]), str(c.get("name", c["id"]))) for c in clans))


def parse_components(data: bytes, where: str = "components") -> Components:
    """Parse and check a component file: every field typed, every operation's parameters, counts that add
    up; the first fault refused in one sentence naming the line (docs/bagpipes-notes.md §2)."""
    try:
        text = data.decode("utf-8")
        doc = tomllib.loads(text)
    except UnicodeDecodeError:
        raise _fail(where, 0, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise _fail(where, 0, f"not valid TOML: {exc}") from None
    players, track, clans = _top(doc, text, where)
    counts = doc.get("edition", {}).get("counts", {})
    count_line = _line(text, r"^\s*\[edition\.counts\]")
    for key in ("king_edward", "english_arms", "bagpipe", "dagger"):
        problem = _problem({"type": "int", "min": 0, "max": 999}, counts.get(key), key)
        if problem:
            raise _fail(where, _line(text, rf"^\s*{key}\s*=", count_line) or count_line, f"[edition.counts] {problem}")
    rounds: list[RoundCard] = []
    seen: set[str] = set()
    raw_rounds = _list(doc, "round_cards", text, where)
    for raw, block in zip(raw_rounds, _blocks(text, "round_cards", where, "round card", len(raw_rounds)), strict=True):
        block = _named(block, raw, "round card")
        raw = _fields(raw, FORMAT["round_card"], block)
        cid = raw["id"]
        if not cid or cid in seen:
            raise block.fail(f"id {cid!r} is empty or repeated", "id")
        seen.add(cid)
        rounds.append(RoundCard(cid, raw["title"], raw["back"], raw["english_strength"], raw["gold_scots_win"],
                                raw["gold_scots_lose"], raw["gold_crown"], raw.get("crown_split", True),
                                raw.get("refers_to_badge", False), tuple(raw.get("excluded_players", [])),
                                raw.get("text", ""), _effect(raw.get("effect", []), block)))
        _finds_somebody(rounds[-1].effect, block, True, "none")
    pipes: list[BagpipeCard] = []
    raw_pipes = _list(doc, "bagpipe_cards", text, where)
    for raw, block in zip(raw_pipes, _blocks(text, "bagpipe_cards", where, "bagpipe card", len(raw_pipes)),
                          strict=True):
        block = _named(block, raw, "bagpipe card")
        raw = _fields(raw, FORMAT["bagpipe_card"], block)
        cid = raw["id"]
        if not cid or cid in seen or "#" in cid:
            raise block.fail(f"id {cid!r} is empty, repeated or holds '#'", "id")
        seen.add(cid)
        pipes.append(BagpipeCard(cid, raw["title"], raw.get("copies", 1), raw["timing"], raw.get("x2", False),
                                 raw.get("refers_to_badge", False), raw.get("targets", "self"), raw.get("text", ""),
                                 _effect(raw.get("effect", []), block)))
        _finds_somebody(pipes[-1].effect, block, False, pipes[-1].targets)
    daggers_raw = doc.get("daggers", {})
    if not isinstance(daggers_raw, dict):
        raise _fail(where, _line(text, r"daggers"), "[daggers] is a table: value = number of cards")
    dagger_line = _line(text, r"^\s*\[daggers\]")
    for k, v in daggers_raw.items():
        if k not in ("1", "2", "3"):
            raise _fail(where, _line(text, rf"^\s*{re.escape(k)}\s*=", dagger_line) or dagger_line,
                        f"[daggers] {k!r}: dagger values are 1, 2 or 3 [SB-7]")
        problem = _problem({"type": "int", "min": 0, "max": 99}, v, f"[daggers] {k}")
        if problem:
            raise _fail(where, _line(text, rf"^\s*{k}\s*=", dagger_line), problem)
    daggers = tuple(sorted((int(k), v) for k, v in daggers_raw.items()))
    checks = (("king_edward", sum(1 for c in rounds if c.back == "red"), "red round cards"),
              ("english_arms", sum(1 for c in rounds if c.back == "grey"), "grey round cards"),
              ("bagpipe", sum(c.copies for c in pipes), "bagpipe cards (copies included)"),
              ("dagger", sum(n for _, n in daggers), "dagger cards in [daggers]"))
    for key, found, what in checks:
        if counts[key] != found:
            line = _line(text, rf"^\s*{key}\s*=", count_line)
            raise _fail(where, line, f"{key} = {counts[key]} but the file lists {found} {what}")
    return Components(str(doc.get("edition", {}).get("name", "")), hashlib.sha256(data).hexdigest(),
                      players, track, clans, daggers, tuple(rounds), tuple(pipes))


def load_components(path: Path | None = None) -> Components:
    """The component file at ``path``, or the invented sample shipped with the package."""
    if path is None:
        return _sample()
    data = inputs.read_input(path, inputs.MAX_FILE, "a component file")
    return parse_components(data, str(path))


@functools.lru_cache(maxsize=1)
def _sample() -> Components:
    """The shipped sample, parsed once per process (a record: nobody changes it)."""
    data = resources.files("pbem.bagpipes").joinpath("data", SAMPLE).read_bytes()
    return parse_components(data, SAMPLE)


def sample_components() -> Components:
    return load_components(None)
