"""Order drafts: the TOML a player writes (or starts from a template), checked before sealing.

A draft is what a player owes at one step (docs/playing.md):

- a header: ``game``, ``side``, ``step`` (the step number the report asked about) and ``kind``
  (``card``, ``event``, ``moves``, ``decide`` or ``winter``);
- the sections that kind allows, each owned by the module that knows its rules: ``[card]``
  (here), ``[moves]`` and ``[if_player1]`` (moves, pins, battle order: ``orders.py``),
  ``[plans]`` (battle plans: ``plans.py``), ``[winter]`` (winter plans: ``plans.py``),
  ``[event]`` (event parameters: ``events.py``) and ``[decide]`` (the answer to an open question).

Parsing checks the shape only (``InvalidOrder``); the rules are checked by the ruleset's
``validate``: against the secret state (referee), or against the game as the side's own report
shows it (player, ``pbem orders check``, ``known.py``): one code path, one verdict.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from pbem.core.ruleset import DRAFT_HEADER, draft_header
from pbem.hammer.blocks import SIDES
from pbem.hammer.errors import InvalidOrder

KINDS = ("card", "event", "moves", "decide", "winter")

# Which sections each kind of draft may carry. Plans may ride with every order a side sends
# before battles, so that battles run from plans without another round trip (brief 7).
SECTIONS: dict[str, tuple[str, ...]] = {
    "card": ("card", "event", "if_player1", "plans"),
    "event": ("event", "if_player1", "plans"),
    "moves": ("moves", "plans"),
    "decide": ("decide", "plans"),
    "winter": ("winter",),
}
HEADER = DRAFT_HEADER


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
            raise InvalidOrder(f"{source}: the header lacks {key!r} (expected game, side, step, kind)")
    side, step, kind, game = data["side"], data["step"], data["kind"], data.get("game", "")
    if side not in SIDES:
        raise InvalidOrder(f"{source}: side {side!r} is not one of {', '.join(SIDES)}")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise InvalidOrder(f"{source}: step {step!r} is not a step number")
    if kind not in KINDS:
        raise InvalidOrder(f"{source}: kind {kind!r} is not one of {', '.join(KINDS)}")
    if not isinstance(game, str):
        raise InvalidOrder(f"{source}: game {game!r} is not a game id")
    sections = {k: v for k, v in data.items() if k not in HEADER}
    for key, value in sorted(sections.items()):
        if key not in SECTIONS[kind]:
            allowed = ", ".join(f"[{s}]" for s in SECTIONS[kind])
            raise InvalidOrder(f"{source}: a {kind} order cannot carry [{key}]; it may carry {allowed}")
        if not isinstance(value, dict):
            raise InvalidOrder(f"{source}: [{key}] must be a table, not {type(value).__name__}")
    if kind == "card":
        play = sections.get("card", {}).get("play")
        if not isinstance(play, str) or not play:
            raise InvalidOrder(f"{source}: [card] needs play = \"<card id>\" (3.1)")
    if kind == "decide":
        decide = sections.get("decide", {})
        many = decide.get("answers")
        many_ok = isinstance(many, list) and many and all(isinstance(a, str) for a in many)
        if set(decide) - {"answer", "answers"} or ("answer" in decide) == ("answers" in decide) or (
                "answer" in decide and not isinstance(decide["answer"], str)) or (
                "answers" in decide and not many_ok):
            raise InvalidOrder(f"{source}: [decide] needs answer = \"<one of the listed options>\", or for several "
                               "questions answers = [\"<option>\", ...], one per question in order")
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
    options: dict[str, Any] = report.get("options", {})
    lines = [
        f"# Orders for {side}, step {step} ({asks}) of game {report.get('game', '')}.",
        f"# Edit, then: {next_commands(report, draft_path, report_path, key, game_dir)}",
        f'game = "{report.get("game", "")}"',
        f'side = "{side}"',
        f"step = {step}",
        f'kind = "{asks}"',
        "",
    ]
    if asks == "card":
        hand = options.get("hand", [])
        lines += ["[card]", f"# your hand: {', '.join(hand)}", f'play = "{hand[0] if hand else ""}"', ""]
        lines += ["# If you become Player 1 (3.1, 4.1), these moves are made without asking you again;",
                  "# without [if_player1], Player 1 gets a moves step of its own (one more exchange).",
                  "[if_player1]", "moves = []",
                  '# moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]',
                  '# battle_order = ["AREA"]   # Player 1 chooses the order of battles (5.1)']
        lines += _reach_comments(options.get("moves", {})) + [""]
        lines += _card_event_comments(report, hand)
    elif asks == "moves":
        lines += [f"# your card: {options.get('card', '')}; at most its value in group moves (4.2)",
                  "[moves]", "moves = []",
                  '# moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]',
                  "# pins: where you are attacked, name the blocks that stay pinned (4.6);",
                  "# without pins, the blocks that do not move are pinned.",
                  '# pins = { AREA = ["BLOCK"] }']
        lines += _reach_comments(options.get("moves", {})) + [""]
    elif asks == "decide":
        asked = options.get("questions") or [options.get("question", {})]
        for n, q in enumerate(asked, 1):
            ctx = " ".join(f"{k}={v}" for k, v in sorted(q.get("context", {}).items()))
            number = f" {n} of {len(asked)}" if len(asked) > 1 else ""
            lines += [f"# question{number} ({q.get('rule', '')}): {q.get('kind', '')} {ctx}".rstrip(),
                      f"#   options: {', '.join(q.get('options', []))}"]
        firsts = [(list(q.get("options", [])) or [""])[0] for q in asked]
        if len(asked) > 1:
            lines += ["# These questions of one battle are asked together: one answer each, in order. An answer",
                      "# an earlier one has made impossible is replaced by what your plans say (docs/plans.md).",
                      "[decide]", toml_line("answers", firsts), ""]
        else:
            lines += ["[decide]", toml_line("answer", firsts[0]), ""]
    elif asks == "event":
        card_id = str(options.get("event", ""))
        lines += ["[event]", f"# event: {card_id}; {empty_event_note(card_id)} (docs/orders.md Events)",
                  "# the legal choices; uncomment the lines of one:"]
        lines += _event_choice_lines(options.get("event_params", []))
        lines.append("")
    elif asks == "winter":
        lines += ["[winter]", "# winter plans (docs/orders.md Winter); an empty table takes every default:",
                  '# homes = { Bruce = "Carrick" }', '# moray = "home"', '# king = "stay"', '# edward = "winter"',
                  '# wallace = "selkirk"', '# disband = ["BLOCK"]', '# builds = { AREA = ["draw", "step:BLOCK"] }',
                  '# ask = ["winter_build"]   # be asked instead, in a decide step']
        lines += _winter_comments(options.get("winter_plan", {})) + [""]
    if "plans" in SECTIONS[asks]:
        lines += ["# Standing battle plans (docs/plans.md); they stay in force until you send new ones.",
                  "# Without them: fire, never retreat by choice, spare leaders from hits, regroup: stay.",
                  '# [plans]', '# hits = ["BLOCK"]', "# [plans.battle]",
                  "# retreat_from_round = 2", "# retreat_if_outnumbered = true", '# retreat_to = ["AREA"]', ""]
    return "\n".join(lines)


def next_commands(report: dict[str, Any], draft_path: str = "", report_path: str = "", key: str = "",
                  game_dir: str = "") -> str:
    """The check and seal commands for this draft, with the real file names (placeholders only
    for what is not known: the draft printed to the screen has no file yet)."""
    side, step = report.get("side", ""), int(report.get("step") or 0)
    draft = draft_path or f"orders-{step:04d}-{side}.toml"
    rep = report_path or f"reports/{step:04d}-{side}.pbem"
    with_key = f" --key {key}" if key else ""
    return (f"pbem orders check {draft} --report {rep}{with_key}; "
            f"pbem orders seal {draft}{with_key} --game {game_dir or 'GAME'} --out {step:04d}-{side}-orders.asc")


def toml_line(key: str, value: Any) -> str:
    """``key = value`` as TOML writes it (``pass = true``, ``steps = ["Wallace"]``), for hints that
    stay valid TOML when uncommented."""
    return f"{_bare_or_quoted(key)} = {_inline(value)}"


def _bare_or_quoted(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key, ensure_ascii=False)


def _inline(value: Any) -> str:
    """A TOML value on one line (JSON's strings, numbers and booleans are TOML's too)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_bare_or_quoted(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def empty_event_note(card_id: str) -> str:
    """What an empty ``[event]`` table does with this card (3.12)."""
    from pbem.hammer.cards import card
    try:
        c = card(card_id)
    except Exception:  # noqa: BLE001 - an unknown card: the generic sentence
        return "an empty table passes, except a Truce, which takes effect"
    if c.event == "truce":
        return "Truce takes no parameters: an empty table (or none at all) plays it"
    return f"an empty table passes: the {c.name} is not used"


def _event_choice_lines(choices: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for params in choices:
        if not params:
            out.append("#   (no parameters)")
            continue
        out.append("#   or:" if out else "#   either:")
        out += [f"# {toml_line(k, v)}" for k, v in sorted(params.items())]
    return out


def _card_event_comments(report: dict[str, Any], hand: list[str]) -> list[str]:
    """For each Event in hand: its parameters may ride with the card (3.12), one legal set per
    choice, computed on the game as the report shows it (known.py), and what an empty table does."""
    from pbem.hammer import known
    from pbem.hammer.cards import card
    from pbem.hammer.events import legal_events

    events = [c for c in hand if card(c).is_event]
    if not events:
        return []
    out = ["# If you play an Event, its parameters may ride with the card in [event] (3.12);",
           "# without [event], you are asked in an event step (one more exchange), except for a Truce.",
           "# [event]"]
    try:
        g = known.game_from_view(report["view"])
    except (KeyError, TypeError, ValueError):
        g = None
    for c in events:
        out.append(f"#   {c} ({card(c).name}): {empty_event_note(c)}")
        if g is not None:
            out += _event_choice_lines([p for p in legal_events(g, report["side"], c) if p])
    return out + [""]


def _winter_comments(legal: dict[str, Any]) -> list[str]:
    """The winter plan's legal choices from the report, one comment line per key."""
    if not legal:
        return []
    out = ["# your choices now (nobles go home first, so a later choice may no longer apply):"]
    for key, choices in sorted(legal.items()):
        if isinstance(choices, dict):
            out += [f"#   {key}.{name}: {', '.join(map(str, opts)) or '-'}" for name, opts in sorted(choices.items())]
        else:
            out.append(f"#   {key}: {', '.join(map(str, choices)) or '-'}")
    return out


def _reach_comments(legal: dict[str, dict[str, list[str]]]) -> list[str]:
    """The legal moves from the report, one comment line per block that can move."""
    out = []
    for origin, reach in sorted(legal.items()):
        for block, areas in sorted(reach.items()):
            if areas:
                out.append(f"#   {block} in {origin} can reach: {', '.join(areas)}")
    return ["# what can move (4.0-4.3):"] + out if out else []


def check_draft(draft: Draft, report: dict[str, Any]) -> None:
    """Check a draft as the referee will, on what the side's own report shows (no referee needed).

    Refuses a draft for another game, side or step, or of the wrong kind; then runs the
    referee's own validation (``HammerRuleset.validate``) on the game as the report shows it
    (``known.py``): cards, moves, pins, Main Attacks, event parameters, answers, battle and
    winter plans, each refusal with the rule the referee cites. The few refusals that depend on
    what the side cannot see are listed in docs/orders.md ("Checking a draft").
    """
    from pbem.hammer import known

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
    known.check(draft.body(), report)
