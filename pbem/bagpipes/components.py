"""The card faces, loaded from a component file (docs/bagpipes-notes.md §2): the book prints none of them.

Why data and not code: the published values are on the cards only, and editions differ, so a
group supplies its own file; the engine checks its counts and never ships real card data.
"""

from __future__ import annotations

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
TIMINGS: tuple[str, ...] = ("axe", "tokens", "purse")
TARGETS: tuple[str, ...] = ("self", "one_player", "all_players", "all_others", "none")
WHO: tuple[str, ...] = ("self", "target", "each_player", "each_other", "each_scots_supporter",
                        "each_england_supporter", "badge_holder")
# op -> required parameters (beyond "op"); optional ones are checked where they are used.
OPS: dict[str, tuple[str, ...]] = {
    "gain_gold": ("who", "n"), "lose_gold": ("n",), "take_gold": ("from", "n"),
    "gain_troops": ("who", "n"), "relocate": ("who", "n"), "fields_troops": ("n",), "raise_militia": (),
    "discard_camp": ("who",), "english_strength": ("delta",), "scottish_strength": ("delta",),
    "draw_bagpipe": ("who", "n"), "draw_dagger": ("who", "n"), "discard_dagger": ("who", "n"),
    "award_multiplier": ("side", "factor"), "extra_replenishment": ("who", "n"), "condition": ("if",),
}
CONDITIONS: tuple[str, ...] = ("scotland_won", "england_won", "self_supports_england", "self_supports_scotland",
                               "self_is_badge_holder")
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


def _line(text: str, needle: str, start: int = 0) -> int:
    """1-based number of the first line at or after line ``start`` matching the regex ``needle``."""
    lines = text.splitlines()
    for i in range(max(start - 1, 0), len(lines)):
        if re.search(needle, lines[i]):
            return i + 1
    return 0


def _fail(where: str, line: int, what: str) -> FormatError:
    at = f"{where}:{line}" if line else where
    return FormatError(f"{at}: {what} (component file format, docs/bagpipes-notes.md §2).")


def _card_line(text: str, card_id: str) -> int:
    return _line(text, rf'^\s*id\s*=\s*"{re.escape(card_id)}"')


def _effect(raw: Any, where: str, line: int) -> Effect:
    if raw == "manual":
        return "manual"
    if not isinstance(raw, list):
        raise _fail(where, line, 'effect must be a list of operations or "manual"')
    return tuple(_op(op, where, line) for op in raw)


def _op(op: Any, where: str, line: int) -> dict[str, Any]:
    if not isinstance(op, dict) or op.get("op") not in OPS:
        raise _fail(where, line, f"unknown operation {op!r}; known: {', '.join(sorted(OPS))} or effect = \"manual\"")
    missing = [p for p in OPS[op["op"]] if p not in op]
    if missing:
        raise _fail(where, line, f"operation {op['op']} needs {', '.join(missing)}")
    for key in ("who", "from"):
        if key in op and op[key] not in WHO:
            raise _fail(where, line, f"operation {op['op']}: {key} {op[key]!r} is not one of {', '.join(WHO)}")
    if op["op"] == "condition":
        if op["if"] not in CONDITIONS:
            raise _fail(where, line, f"condition {op['if']!r} is not one of {', '.join(CONDITIONS)}")
        return {**op, "then": list(_effect(op.get("then", []), where, line)),
                "else": list(_effect(op.get("else", []), where, line))}
    return dict(op)


def _int(doc: dict[str, Any], key: str, where: str, line: int) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(where, line, f"{key} must be a whole number >= 0, not {value!r}")
    return value


def parse_components(data: bytes, where: str = "components") -> Components:
    """Parse and check a component file; refuse one whose counts do not add up, naming the line."""
    text = data.decode("utf-8")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(where, 0, f"not valid TOML: {exc}") from None
    edition = doc.get("edition", {})
    counts = edition.get("counts", {})
    for key in ("king_edward", "english_arms", "bagpipe", "dagger"):
        _int(counts, key, where, _line(text, r"^\s*\[edition\.counts\]"))
    rounds: list[RoundCard] = []
    seen: set[str] = set()
    for raw in doc.get("round_cards", []):
        cid = str(raw.get("id", ""))
        line = _card_line(text, cid) if cid else _line(text, r"^\s*\[\[round_cards\]\]")
        if not cid or cid in seen:
            raise _fail(where, line, f"round card id {cid!r} is missing or repeated")
        seen.add(cid)
        if raw.get("back") not in ("grey", "red"):
            raise _fail(where, line, f'round card {cid}: back must be "grey" or "red"')
        rounds.append(RoundCard(cid, str(raw.get("title", "")), raw["back"],
                                _int(raw, "english_strength", where, line), _int(raw, "gold_scots_win", where, line),
                                _int(raw, "gold_scots_lose", where, line), _int(raw, "gold_crown", where, line),
                                bool(raw.get("crown_split", True)), bool(raw.get("refers_to_badge", False)),
                                tuple(int(p) for p in raw.get("excluded_players", [])), str(raw.get("text", "")),
                                _effect(raw.get("effect", []), where, line)))
    pipes: list[BagpipeCard] = []
    for raw in doc.get("bagpipe_cards", []):
        cid = str(raw.get("id", ""))
        line = _card_line(text, cid) if cid else _line(text, r"^\s*\[\[bagpipe_cards\]\]")
        if not cid or cid in seen or "#" in cid:
            raise _fail(where, line, f"bagpipe card id {cid!r} is missing, repeated or holds '#'")
        seen.add(cid)
        if raw.get("timing") not in TIMINGS:
            raise _fail(where, line, f"bagpipe card {cid}: timing must be one of {', '.join(TIMINGS)}")
        targets = raw.get("targets", "self")
        if targets not in TARGETS:
            raise _fail(where, line, f"bagpipe card {cid}: targets must be one of {', '.join(TARGETS)}")
        copies = _int(raw, "copies", where, line) if "copies" in raw else 1
        pipes.append(BagpipeCard(cid, str(raw.get("title", "")), copies, raw["timing"], bool(raw.get("x2", False)),
                                 bool(raw.get("refers_to_badge", False)), targets, str(raw.get("text", "")),
                                 _effect(raw.get("effect", []), where, line)))
    daggers_raw = doc.get("daggers", {})
    daggers = tuple(sorted((int(k), _int(daggers_raw, k, where, _line(text, rf"^\s*{k}\s*="))) for k in daggers_raw))
    if any(v not in (1, 2, 3) for v, _ in daggers):
        raise _fail(where, _line(text, r"^\s*\[daggers\]"), "dagger values are 1, 2 or 3 [SB-7]")
    checks = (("king_edward", sum(1 for c in rounds if c.back == "red"), "red round cards"),
              ("english_arms", sum(1 for c in rounds if c.back == "grey"), "grey round cards"),
              ("bagpipe", sum(c.copies for c in pipes), "bagpipe cards (copies included)"),
              ("dagger", sum(n for _, n in daggers), "dagger cards in [daggers]"))
    for key, found, what in checks:
        if counts[key] != found:
            line = _line(text, rf"^\s*{key}\s*=", _line(text, r"^\s*\[edition\.counts\]"))
            raise _fail(where, line, f"{key} = {counts[key]} but the file lists {found} {what}")
    players = edition.get("players", [2, 6])
    track = tuple(str(s) for s in doc.get("defeat_track", {}).get("spaces", ()))
    clans = tuple((str(c["id"]), str(c.get("name", c["id"]))) for c in doc.get("clans", []))
    return Components(str(edition.get("name", "")), hashlib.sha256(data).hexdigest(),
                      (int(players[0]), int(players[1])), track, clans, daggers, tuple(rounds), tuple(pipes))


def load_components(path: Path | None = None) -> Components:
    """The component file at ``path``, or the invented sample shipped with the package."""
    if path is None:
        data = resources.files("pbem.bagpipes").joinpath("data", SAMPLE).read_bytes()
        return parse_components(data, SAMPLE)
    data = inputs.read_input(path, inputs.MAX_FILE, "a component file")
    return parse_components(data, str(path))


def sample_components() -> Components:
    return load_components(None)
