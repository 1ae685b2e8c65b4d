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

import tomllib
from dataclasses import dataclass, field
from typing import Any

import tomli_w

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
HEADER = ("game", "side", "step", "kind")


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
        out: dict[str, Any] = {"game": self.game, "side": self.side, "step": self.step, "kind": self.kind}
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
    if kind == "decide" and not isinstance(sections.get("decide", {}).get("answer"), str):
        raise InvalidOrder(f"{source}: [decide] needs answer = \"<one of the listed options>\"")
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


def template(report: dict[str, Any]) -> str:
    """A draft to start from: the header filled in, the legal options listed as comments.

    ``report`` is the opened report (``HammerRuleset.report``): its ``asks`` says what is owed
    and ``options`` lists the legal choices.
    """
    side, step, asks = report["side"], report["step"], report.get("asks", "")
    if not asks:
        raise InvalidOrder(f"report for {side} at step {step}: {side} owes nothing at this step")
    options: dict[str, Any] = report.get("options", {})
    lines = [
        f"# Orders for {side}, step {step} ({asks}) of game {report.get('game', '')}.",
        "# Edit, then: pbem orders check THIS --report REPORT --key KEY; pbem orders seal ...",
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
    elif asks == "moves":
        lines += [f"# your card: {options.get('card', '')}; at most its value in group moves (4.2)",
                  "[moves]", "moves = []",
                  '# moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]',
                  "# pins: where you are attacked, name the blocks that stay pinned (4.6);",
                  "# without pins, the blocks that do not move are pinned.",
                  '# pins = { AREA = ["BLOCK"] }']
        lines += _reach_comments(options.get("moves", {})) + [""]
    elif asks == "decide":
        q = options.get("question", {})
        opts = list(q.get("options", []))
        ctx = " ".join(f"{k}={v}" for k, v in sorted(q.get("context", {}).items()))
        lines += [f"# question ({q.get('rule', '')}): {q.get('kind', '')} {ctx}".rstrip(),
                  f"# options: {', '.join(opts)}", "[decide]", f'answer = "{opts[0] if opts else ""}"', ""]
    elif asks == "event":
        lines += ["[event]", f"# event: {options.get('event', '')}; an empty table passes (docs/orders.md Events)"]
        for params in options.get("event_params", []):
            lines.append("# " + ", ".join(f"{k} = {v!r}" for k, v in sorted(params.items())))
        lines.append("")
    elif asks == "winter":
        lines += ["[winter]", "# winter plans (docs/orders.md Winter); an empty table takes every default:",
                  '# homes = { Bruce = "Carrick" }  moray = "home"  king = "stay"  edward = "winter"',
                  '# wallace = "selkirk"  disband = ["BLOCK"]  builds = { AREA = ["draw", "step:BLOCK"] }',
                  '# ask = ["winter_build"]   # be asked instead, in a decide step']
        lines += _winter_comments(options.get("winter_plan", {})) + [""]
    if "plans" in SECTIONS[asks]:
        lines += ["# Standing battle plans (docs/plans.md); they stay in force until you send new ones.",
                  "# Without them: fire, never retreat by choice, spare leaders from hits, regroup: stay.",
                  '# [plans]', '# hits = ["BLOCK"]', "# [plans.battle]",
                  "# retreat_from_round = 2", "# retreat_if_outnumbered = true", '# retreat_to = ["AREA"]', ""]
    return "\n".join(lines)


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
