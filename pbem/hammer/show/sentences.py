"""Log entries as plain sentences from the reader's point of view (docs/reports.md "Sentences").

The wording lives in ``data/sentences.toml``, one table per kind of log line; this module only
looks the kind up, spells out lists and sides for the reader, and falls back to a readable
generic sentence for any kind (or variant) the table does not know, so a new kind of log line
never breaks a report. Deterministic: no floats, sorted keys.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.hammer.rules.board import load_toml_resource
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import PbemError

Entry = dict[str, Any]
SIDE_NAMES = {"england": "the English", "scotland": "the Scots"}
SIDE_WORDS = ("by", "owner", "winner", "attacker", "defender", "now", "player1")
# never spelt out by the generic sentence
_QUIET = ("what", "public", "redact", "side", "visible_to", "stream", "draw", "drawn_from")


@dataclass(frozen=True)
class Alternative:
    """One wording of a kind: used when ``when`` matches and every placeholder exists."""
    when: tuple[tuple[str, Any], ...]
    text: str


@dataclass(frozen=True)
class Kind:
    """A kind of log line: its wordings, its default rule and whether the summary shows it."""
    alternatives: tuple[Alternative, ...]
    rule: str
    summary: bool


@lru_cache(maxsize=1)
def kinds() -> dict[str, Kind]:
    """The sentence table (data/sentences.toml), parsed once."""
    out: dict[str, Kind] = {}
    for name, spec in sorted(load_toml_resource("sentences.toml")["kinds"].items()):
        alts = tuple(Alternative(tuple(sorted(a.get("when", {}).items())), str(a["text"])) for a in spec["alt"])
        out[name] = Kind(alts, str(spec.get("rule", "")), bool(spec.get("summary", True)))
    return out


def kind_of(e: Entry) -> str:
    """The table key of an entry: "what.event", "what.step" (a rule such as "7.62"), or "what"."""
    what = str(e.get("what", ""))
    for extra in (e.get("event"), e.get("step")):
        if isinstance(extra, str) and extra and f"{what}.{extra}" in kinds():
            return f"{what}.{extra}"
    return what


def _side(value: Any, reader: str) -> str:
    value = str(value or "")
    if reader and value == reader:
        return "you"
    return SIDE_NAMES.get(value, value or "nobody")


def _possessive(value: Any, reader: str) -> str:
    value = str(value or "")
    if reader and value == reader:
        return "your"
    return SIDE_NAMES.get(value, value or "the")


def _card(card_id: str) -> str:
    try:
        return f"{card_id} ({card(card_id).name})"
    except PbemError:
        return card_id


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in sorted(value.items()))
    return str(value)


_PLURAL = re.compile(r"\b(\d+) ((?:[a-z]+ )?)([a-z]+)\(s\)")


def plural(text: str) -> str:
    """"1 block(s)" -> "1 block", "2 round(s)" -> "2 rounds" (the table writes "(s)")."""
    return _PLURAL.sub(lambda m: f"{m[1]} {m[2]}{m[3]}{'' if m[1] == '1' else 's'}", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def fields(e: Entry, reader: str) -> dict[str, str]:
    """The placeholders of one entry for ``reader`` (see the head of data/sentences.toml)."""
    out = {k: _plain(v) for k, v in e.items()}
    out["who"] = _side(e.get("side"), reader)
    out["whose"] = _possessive(e.get("side"), reader)
    for word in SIDE_WORDS:
        if word in e:
            out[f"{word}_who"] = _side(e[word], reader)
    cards = e.get("cards")
    if isinstance(cards, dict):
        out["cards_text"] = "; ".join(f"{_side(s, reader)} played {_card(str(c))}" for s, c in sorted(cards.items()))
    elif isinstance(cards, list):
        out["cards_text"] = ", ".join(_card(str(c)) for c in cards) or "nothing"
    to = e.get("to")
    if isinstance(to, dict):
        out["to_text"] = ", ".join(f"{n} to {a}" for a, n in sorted(to.items()))
        out["count_blocks"] = f"{sum(int(n) for n in to.values())} block(s)"
    parts = e.get("parts")
    if isinstance(parts, list):
        out["parts_text"] = "; ".join(f"{', '.join(p.get('blocks', []))} via {'-'.join(p.get('path', []))}"
                                      for p in parts if isinstance(p, dict))
    blocks = e.get("blocks")
    if isinstance(blocks, list) and blocks and all(isinstance(b, dict) for b in blocks):
        out["blocks_text"] = ", ".join(f"{b.get('block')} ({b.get('strength')})" for b in blocks)
    dice = e.get("dice")
    if isinstance(dice, list):
        out["dice_text"] = " ".join(f"{d.get('value')}{'*' if d.get('hit') else ''}[#{d.get('index')}]"
                                    for d in dice if isinstance(d, dict))
    for key in [k for k in out if k.endswith("who") or k == "whose"]:
        out[_cap(key)] = _cap(out[key])
    return out


def _matches(e: Entry, when: tuple[tuple[str, Any], ...], reader: str) -> bool:
    for key, want in when:
        if want == "$reader":
            if not reader or e.get(key) != reader:
                return False
        elif want == "*":
            if key not in e:
                return False
        elif want == "-":
            if key in e:
                return False
        elif key not in e or e[key] != want:
            return False
    return True


def _placeholders(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def rule_of(e: Entry, kind: Kind | None) -> str:
    """The rule an entry cites: its ``rule``, its winter ``step`` (a string), or its kind's rule."""
    if e.get("rule"):
        return str(e["rule"])
    if isinstance(e.get("step"), str) and e["step"]:
        return str(e["step"])
    return kind.rule if kind else ""


def generic(e: Entry, reader: str = "") -> str:
    """A readable sentence for a kind the table does not know: its name and its fields."""
    what = str(e.get("what", "") or "entry").replace("_", " ")
    who = f" ({_side(e['side'], reader)})" if e.get("side") else ""
    skip = set(_QUIET) | {"rule", "redacted", "step"}
    parts = [f"{k.replace('_', ' ')} {_plain(e[k])}" for k in sorted(e) if k not in skip]
    hidden = f"; hidden from you: {_plain(e['redacted'])}" if e.get("redacted") else ""
    body = f"{_cap(what)}{who}" + (f": {', '.join(parts)}" if parts else "") + hidden
    rule = rule_of(e, None)
    return body + (f" ({rule})" if rule and rule not in body else "")


def sentence(e: Entry, reader: str = "") -> str:
    """One log entry as one sentence for ``reader``, with its rule number ("" when the table
    says the reader is told it by another line)."""
    kind = kinds().get(kind_of(e))
    if kind is None:
        return generic(e, reader)
    values = fields(e, reader)
    for alt in kind.alternatives:
        if _matches(e, alt.when, reader) and all(p in values for p in _placeholders(alt.text)):
            if not alt.text:
                return ""  # said elsewhere (the reader's own detailed line)
            rule, text = rule_of(e, kind), plural(_cap(alt.text.format_map(values)))
            return text + (f" ({rule})" if rule and f"({rule})" not in text else "")
    return generic(e, reader)


def in_summary(e: Entry) -> bool:
    """Whether "since your last report" tells this entry (battle details stay in the battle log)."""
    kind = kinds().get(kind_of(e))
    return kind.summary if kind else True


MOVED_OFF = {"retreat": "retreated", "regroup": "regrouped"}


def _moved_off(log: list[Entry], area: str, reader: str) -> list[str]:
    """The retreats and regroups (5.5, 5.6) out of ``area`` that ``log`` tells ``reader``, grouped
    by side, kind and destination: "Moray and Ross (the Scots) retreated to Lochaber"."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for e in log:
        if e.get("what") in MOVED_OFF and e.get("area") == area:
            to = "" if e.get("redacted") else str(e.get("to") or "")
            groups.setdefault((str(e.get("side") or ""), str(e["what"]), to), []).append(str(e.get("block", "?")))
    out = []
    for (side, what, to), names in sorted(groups.items()):
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        where = f"to {to}" if to else "(where to is hidden from you)"
        out.append(f"{listed} ({_side(side, reader)}) {MOVED_OFF[what]} {where}")
    return out


def summary(log: list[Entry], reader: str) -> list[str]:
    """What happened since the last report, in sentences, the battle details left out; a battle's
    end says who retreated and regrouped where (as far as the reader may see: 5.5, 5.6)."""
    out = []
    ended = {e.get("area") for e in log if e.get("what") == "battle_end"}
    for e in log:
        if not in_summary(e):
            continue
        line = sentence(e, reader)
        if line and e.get("what") == "battle_end":
            moved = _moved_off(log, str(e.get("area")), reader)
            if moved:
                line = f"{line}; " + "; ".join(moved)
        if line:
            out.append(line)
    for area in sorted({str(e.get("area")) for e in log if e.get("what") in MOVED_OFF} - {str(a) for a in ended}):
        out.append(f"In the battle in {area} so far: " + "; ".join(_moved_off(log, area, reader)))
    return out


__all__ = ["sentence", "summary", "default_note", "generic", "kinds", "kind_of", "in_summary", "fields", "rule_of",
           "question_where"]


def default_note(step: int, owed: str, question: dict[str, Any] | None = None) -> str:
    """What the reader is told when its order for ``step`` (of kind ``owed``) was given by
    default; for a question, which one (from the reader's own report of that step) and the
    answer given: its first option (docs/playing.md "Default orders")."""
    what = load_toml_resource("sentences.toml").get("defaults", {}).get(owed, "the default orders were used")
    if owed == "decide" and question and question.get("options"):
        ctx = question.get("context") or {}
        block = f" for {ctx['block']}" if ctx.get("block") else ""
        where = question_where(question, {})
        what = (f"your {str(question.get('kind', '')).replace('_', ' ')} question{block}{where} was answered "
                f"'{question['options'][0]}'")
    kind = f"{owed} " if owed else ""
    return (f"Your {kind}orders for step {step} did not arrive before the deadline, so the referee "
            f"gave the default ones: {what} (docs/playing.md).")


def question_where(q: dict[str, Any], v: dict[str, Any]) -> str:
    """Which battle and round a question belongs to (its context, else the battle in progress)."""
    ctx = q.get("context") or {}
    fight = v.get("fight") or {}
    area = ctx.get("area") or fight.get("area")
    if not area:
        return ""
    rnd = ctx.get("round") or (fight.get("round") if fight.get("area") == area else None)
    return f" in the battle in {area}, round {rnd}" if rnd else f" about {area}"
