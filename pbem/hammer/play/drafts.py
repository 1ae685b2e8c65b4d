"""Order drafts: the TOML a player writes (or starts from a template), checked before sealing.

A draft is what a player owes at one step (docs/playing.md):

- a header: ``game``, ``side``, ``step`` (the step number the report asked about) and ``kind``
  (``card``, ``event``, ``moves``, ``decide`` or ``winter``);
- the sections that kind allows (``order_kinds``: each kind's object lists them, parses its own
  and writes its part of the template): ``[card]``, ``[moves]`` and ``[if_player1]`` (moves,
  pins, battle order: ``orders.py``), ``[plans]`` (battle plans: ``plans.py``), ``[winter]``
  (winter plans: ``winter.py``), ``[event]`` (event parameters: ``events.py``) and ``[decide]``
  (the answer to an open question).

Parsing checks the shape only (``InvalidOrder``); the rules are checked by the ruleset's
``validate``: against the secret state (referee), or against the game as the side's own report
shows it (player, ``pbem orders check``, ``known.py``): one code path, one verdict.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from pbem.core.errors import PbemError
from pbem.core.order_hints import next_commands
from pbem.core.ruleset import DRAFT_HEADER, draft_header
from pbem.hammer.play import known
from pbem.hammer.play.order_kinds import ORDER_KINDS, rules_for
from pbem.hammer.play.order_kinds import check as order_check
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.errors import InvalidOrder

KINDS = tuple(ORDER_KINDS)  # card, event, moves, decide, winter
HEADER = DRAFT_HEADER
HEADER_DOC = "protocol §7.3"  # an order's own game, side, step and kind, as its envelope's header has them

# Standing battle plans may ride with every order a side sends before battles, so that battles run
# from plans without another round trip (brief 7): the hint closes the draft of every such kind.
PLANS_HINT = ["# Standing battle plans (docs/plans.md); they stay in force until you send new ones.",
              "# Without them: fire, never retreat by choice, spare leaders from hits, regroup: stay.",
              '# [plans]', '# hits = ["BLOCK"]', "# [plans.battle]",
              "# retreat_from_round = 2", "# retreat_if_outnumbered = true", '# retreat_to = ["AREA"]', ""]


@dataclass
class Draft:
    """One side's orders for one step, as plain data."""

    side: str
    step: int
    kind: str
    game: str = ""
    sections: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        """The plain dict that is signed and sealed (header included, so it cannot be misfiled)."""
        out = draft_header(self)
        out.update({k: self.sections[k] for k in sorted(self.sections)})
        return out


def from_body(data: Any, source: str = "draft") -> Draft:
    """A ``Draft`` from a parsed dict; refuses unknown keys, wrong types and misplaced sections."""
    if not isinstance(data, dict):
        raise InvalidOrder(f"{source}: an order is a table of keys, not {type(data).__name__}")
    for key in HEADER[1:]:
        if key not in data:
            raise InvalidOrder(f"{source}: the header lacks {key!r} (expected game, side, step, kind; {HEADER_DOC})")
    side, step, kind, game = data["side"], data["step"], data["kind"], data.get("game", "")
    if side not in SIDES:
        raise InvalidOrder(f"{source}: side {side!r} is not one of {', '.join(SIDES)} ({HEADER_DOC})")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise InvalidOrder(f"{source}: step {step!r} is not a step number, the whole number of the step your "
                           f"report asks about ({HEADER_DOC})")
    if kind not in KINDS:
        raise InvalidOrder(f"{source}: kind {kind!r} is not one of {', '.join(KINDS)} ({HEADER_DOC})")
    if not isinstance(game, str):
        raise InvalidOrder(f"{source}: game {game!r} is not a game id ({HEADER_DOC})")
    sections = {k: v for k, v in data.items() if k not in HEADER}
    rules = rules_for(kind)
    for key, value in sorted(sections.items()):
        if key not in rules.sections:
            allowed = ", ".join(f"[{s}]" for s in rules.sections)
            raise InvalidOrder(f"{source}: a {kind} order cannot carry [{key}]; it may carry {allowed}")
        if not isinstance(value, dict):
            raise InvalidOrder(f"{source}: [{key}] must be a table, not {type(value).__name__}")
    sections = rules.parse(sections, source)
    return Draft(side=side, step=step, kind=kind, game=game, sections=sections)


def parse_draft(text: str, source: str = "draft") -> Draft:
    """Parse a TOML draft; every failure names the file and what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOrder(f"{source}: not valid TOML ({exc})") from None
    return from_body(data, source)


def dump_draft(draft: Draft) -> str:
    """The draft as TOML text (header first, then sections in name order)."""
    return tomli_w.dumps(_strip_empty(draft.body()))


def _strip_empty(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not (k == "game" and v == "")}


def template(report: dict[str, Any], draft_path: str = "", report_path: str = "", key: str = "",
             game_dir: str = "") -> str:
    """A draft to start from: the header filled in, the legal options listed as comments.

    ``report`` is the opened report (``HammerRuleset.report``): its ``asks`` says what is owed
    and ``options`` lists the legal choices. The paths name the real files in the "next" hint.
    """
    side, step, asks = report["side"], report["step"], report.get("asks", "")
    if not asks:
        raise InvalidOrder(f"report for {side} at step {step}: {side} owes nothing at this step")
    lines = [
        f"# Orders for {side}, step {step} ({asks}) of game {report.get('game', '')}.",
        f"# Edit, then: {next_commands(report, draft_path, report_path, key, game_dir)}",
        f'game = "{report.get("game", "")}"',
        f'side = "{side}"',
        f"step = {step}",
        f'kind = "{asks}"',
        "",
    ]
    rules = rules_for(asks)
    lines += rules.template(report)
    if "plans" in rules.sections:
        lines += PLANS_HINT
    return "\n".join(lines)


def check_draft(draft: Draft, report: dict[str, Any]) -> list[str]:
    """Check a draft as the referee will, on what the side's own report shows (no referee needed).

    Refuses a draft for another game, side or step, or of the wrong kind; then runs the
    referee's own validation (``order_kinds.check``, as ``HammerRuleset.validate``) on the game as the report shows it
    (``known.py``): cards, moves, pins, Main Attacks, event parameters, answers, battle and
    winter plans, each refusal with the rule the referee cites. The few refusals that depend on
    what the side cannot see are listed in docs/orders.md ("Checking a draft"). Returns the
    notes on a draft accepted that may not do what its player means (the order kinds' ``notes``).
    """
    src = f"draft for {draft.side}, step {draft.step}"
    if report.get("game") and draft.game and draft.game != report["game"]:
        raise InvalidOrder(f"{src}: it names game {draft.game}, but the report is for game {report['game']}")
    if draft.side != report.get("side"):
        raise InvalidOrder(f"{src}: the report is {report.get('side')}'s, not {draft.side}'s")
    if draft.step != report.get("step"):
        raise InvalidOrder(f"{src}: the report asks about step {report.get('step')}")
    asks = report.get("asks", "")
    if draft.kind != asks:
        raise InvalidOrder(f"{src}: it is a {draft.kind} order, but the report asks for {asks or 'nothing'}")
    side = str(report["side"])
    return order_check.notes(known.state_from_report(report), side, from_body(draft.body(), f"order from {side}"))


MAX_ERRORS = 20   # enough for any draft a player writes by hand; bounds the re-checks


def _without_one(body: dict[str, Any], primary: str) -> list[dict[str, Any]]:
    """Each body with one item left out, finest first: an element of a list in a section (a group
    move, a part) or an entry of a table in it (a Main Attack, a pin, a plan), then a whole
    optional section; never the header nor the kind's own section."""
    out: list[dict[str, Any]] = []
    sections = [k for k in body if k not in HEADER and isinstance(body[k], dict)]
    for name in sections:
        for key, value in body[name].items():
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) \
                if isinstance(value, list) else []
            for i, _ in enumerate(items):
                if isinstance(value, list):
                    smaller: Any = value[:i] + value[i + 1:]
                else:
                    smaller = {k: v for j, (k, v) in enumerate(items) if j != i}
                out.append({**body, name: {**body[name], key: smaller}})
    out += [{k: v for k, v in body.items() if k != name} for name in sections if name != primary]
    return out


def _same(message: str) -> str:
    """A refusal without its numbers: "move 3" and "move 2" are one error once a move is left out."""
    return re.sub(r"\d+", "#", message)


def every_error(draft: Draft, report: dict[str, Any], first: PbemError) -> list[str]:
    """The errors of a refused draft after the first (``first``): each found by leaving out the
    smallest part of the draft that takes the previous error away (``_without_one``), then
    checking again, so a player fixes all of them in one go. Stops when no part left out takes
    an error away (it is about the whole draft: the header, the kind's own section)."""
    found: list[str] = []
    body, seen = draft.body(), {_same(str(first))}
    while len(found) < MAX_ERRORS:
        for smaller in _without_one(body, draft.kind):
            try:
                check_draft(from_body(smaller), report)
                return found
            except PbemError as exc:
                if _same(str(exc)) in seen:
                    continue
                body = smaller
                seen.add(_same(str(exc)))
                found.append(str(exc))
                break
        else:
            return found
    return found
