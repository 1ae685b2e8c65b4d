"""Rules cases (docs/cases.md): a position, what happens to it, and what must come of it.

A case file is a position file (docs/positions.md) with a ``[case]`` table: the rule it is
about, one line saying what it shows, the steps to run (moves, a battle, an Event, a winter
plan, an engine step), the answers, plans and dice, and the expected result. The corpus under
``tests/hammer/cases/`` is run by one parametrised test; ``pbem sandbox CASE.toml`` runs a case
and says whether it still comes out as expected. Pure: the dice are listed or come from a
seeded stream, never from the clock.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.core import inputs
from pbem.core.drbg import Drbg, RandomStream
from pbem.hammer.play.position import parse_position_data
from pbem.hammer.rules import engine, plans
from pbem.hammer.rules.blocks import SIDES, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.decisions import BySide, Decider, Question, Scripted
from pbem.hammer.rules.errors import DataError, InvalidOrder, PbemError
from pbem.hammer.rules.events import resolve_event
from pbem.hammer.rules.log import PRIVATE_UNMARKED, LogEntry, entry
from pbem.hammer.rules.state import PLACES, Battle, GameState
from pbem.hammer.rules.winter import check_winter_plan
from pbem.hammer.show.battle_log import format_entry
from pbem.hammer.show.odds import plan_deciders

T = TypeVar("T")
DEFAULT_KEY = hashlib.sha256(b"pbem-sandbox").digest()
CASE_KEYS = ("rule", "shows", "do", "answers", "plans", "dice", "seed", "expect")
STEP_ACTIONS = ("cards", "moves", "battle", "event", "winter_plan", "step")
# A case's ``step = ...`` -> the engine step it runs (engine.STEPS) and the orders it gives it.
ENGINE_STEPS: dict[str, engine.StepCall] = {
    "end_turn": engine.StepCall("end_turn"),
    "winter": engine.StepCall("run_winter"),
    "battles": engine.StepCall("run_battles", [[]]),  # Player 1 asked for each next battle (5.1)
    "advance": engine.StepCall("advance"),
}
EXPECT_KEYS = ("error", "rule", "winner", "reason", "phase", "year", "log", "not_log", "control", *SIDES)


class DiceRunOut(PbemError):
    """The listed dice are used up."""


class ListedDice:
    """Dice from a list, in order; any other chance (shuffles, draws) from a seeded stream.
    A ``RandomStream`` (pbem.core.drbg) with no ``position``: a step paused mid-way is not rewound."""

    def __init__(self, dice: list[int], stream: Drbg) -> None:
        self.dice = list(dice)
        self.given = len(dice)
        self.stream = stream
        self.used = 0

    def d6(self) -> int:
        if not self.dice:
            raise DiceRunOut(f"--dice: more dice are needed than the {self.given} given")
        self.used += 1
        return self.dice.pop(0)

    def d6_at(self) -> tuple[int, int]:
        value = self.d6()
        return value, self.used - 1

    def randbelow(self, n: int) -> int:
        return self.stream.randbelow(n)

    def word(self) -> int:
        return self.stream.word()

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self.stream.shuffled(items)

    def for_draw(self, label: str) -> Drbg:
        return self.stream.for_draw(label)


def stream_of(seed: str | None) -> Drbg:
    """The seeded stream (a fixed default one without a seed), so a run always repeats."""
    if seed is None:
        return Drbg(DEFAULT_KEY)
    try:
        key = bytes.fromhex(seed)
    except ValueError:
        raise InvalidOrder(f"--seed {seed}: not hexadecimal") from None
    if len(key) < 16:
        raise InvalidOrder(f"--seed {seed}: give at least 16 bytes (32 hex digits)")
    return Drbg(key)


class Recording:
    """Answers from ``answers`` (per side, in order), then from the standing plans, whose silence
    is the referee's documented default (``plans.decider``); remembers every question."""

    def __init__(self, answers: dict[str, list[str]], standing: dict[str, dict[str, Any]] | None = None,
                 state: GameState | None = None) -> None:
        standing = standing or {}
        fallback = BySide(**{s: plans.decider(s, standing.get(s, {}), state) for s in SIDES})
        self.inner = Scripted(answers, fallback=fallback)
        self.log: list[str] = []

    def decide(self, question: Question) -> str:
        answer = self.inner.decide(question)
        self.log.append(f"{question.side} asked {question.kind} ({question.rule}): "
                        f"{', '.join(question.options)} -> {answer}")
        return answer


@dataclass(frozen=True)
class Case:
    """What a case file's ``[case]`` table says."""

    rule: str
    shows: str
    steps: tuple[dict[str, Any], ...]
    answers: dict[str, list[str]] = field(default_factory=dict)
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    dice: tuple[int, ...] | None = None
    seed: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What running a case did: the state after it, the log lines, the refusal if any."""

    state: GameState
    lines: list[str]
    error: PbemError | None = None
    dice_left: int = 0


def _fail(source: str, fld: str, why: str) -> DataError:
    return DataError(f"case {source}: case.{fld}: {why}")


def split_case(data: dict[str, Any], source: str) -> tuple[GameState, Case | None]:
    """The position and, when the file has a ``[case]`` table, the case."""
    raw = data.get("case")
    state = parse_position_data({k: v for k, v in data.items() if k != "case"}, source)
    if raw is None:
        return state, None
    return state, parse_case(raw, source)


def load_case(path: str | Path) -> tuple[GameState, Case]:
    p = Path(path)
    try:
        data = tomllib.loads(inputs.read_text_input(p, inputs.MAX_FILE, "a rules case file"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"case {p}: cannot be read as TOML ({exc})") from None
    state, case = split_case(data, str(p))
    if case is None:
        raise DataError(f"case {p}: no [case] table (docs/cases.md)")
    return state, case


def parse_case(raw: Any, source: str) -> Case:
    if not isinstance(raw, dict):
        raise _fail(source, "", "a table")
    for key in raw:
        if key not in CASE_KEYS:
            raise _fail(source, key, f"unknown key; expected one of {', '.join(CASE_KEYS)}")
    for key in ("rule", "shows"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise _fail(source, key, "a non-empty string")
    steps = raw.get("do", [])
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise _fail(source, "do", "an array of tables ([[case.do]])")
    for i, step in enumerate(steps):
        actions = [k for k in step if k in STEP_ACTIONS]
        extra = [k for k in step if k not in (*STEP_ACTIONS, "side")]
        if len(actions) != 1 or extra:
            raise _fail(source, f"do[{i}]", f"exactly one of {', '.join(STEP_ACTIONS)} (and side), not "
                        f"{', '.join(sorted(step))}")
        if "step" in step and step["step"] not in ENGINE_STEPS:
            raise _fail(source, f"do[{i}].step", f"one of {', '.join(ENGINE_STEPS)}")
        if "side" in step and step["side"] not in SIDES:
            raise _fail(source, f"do[{i}].side", "england or scotland")
    answers = raw.get("answers", {})
    if not isinstance(answers, dict) or any(s not in SIDES or not isinstance(a, list) for s, a in answers.items()):
        raise _fail(source, "answers", "a table side = [answers, in order]")
    standing = raw.get("plans", {})
    if not isinstance(standing, dict) or any(s not in SIDES or not isinstance(p, dict) for s, p in standing.items()):
        raise _fail(source, "plans", "a table side = { plans = ..., winter = ... }")
    dice = raw.get("dice")
    if dice is not None and (not isinstance(dice, list) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)):
        raise _fail(source, "dice", "a list of die rolls 1-6")
    expect = raw.get("expect", {})
    if not isinstance(expect, dict):
        raise _fail(source, "expect", "a table")
    for key in expect:
        if key not in EXPECT_KEYS:
            raise _fail(source, f"expect.{key}", f"unknown key; expected one of {', '.join(EXPECT_KEYS)}")
    return Case(rule=raw["rule"], shows=raw["shows"], steps=tuple(steps),
                answers={s: [str(x) for x in a] for s, a in answers.items()}, standing=standing,
                dice=tuple(dice) if dice is not None else None, seed=raw.get("seed"), expect=expect)


def line(item: LogEntry | dict[str, Any]) -> str:
    """One log entry (a record or its data form) as the line a case's ``log`` expectations are matched against."""
    entry = item.to_data() if isinstance(item, LogEntry) else item
    if "text" in entry:
        return str(entry["text"])
    if entry.get("what") in ("battle", "reveal", "celtic", "control", "fire", "hit", "eliminated", "retreat",
                             "no_retreat", "pass", "regroup", "battle_end") and "area" in entry:
        return format_entry(entry)
    parts = [f"{k}={_fmt(v)}" for k, v in sorted(entry.items()) if k not in ("what", "public")]
    return f"{entry.get('what', '')}: " + " ".join(parts)


def _fmt(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        if all("block" in v and "strength" in v for v in value):
            return ",".join(f"{v['block']}:{v['strength']}" for v in value)
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "-"
    return str(value)


def ensure_battle(state: GameState, area: str, side: str | None) -> None:
    """A contested area with no battle record gets one: the attacker is ``side``, else Player 1."""
    if area in state.current.battles:
        return
    if area not in board().areas:
        raise InvalidOrder(f"--battle {area}: {area!r} is not an area of the map (1.1)")
    if state.control(area) != "contested":
        raise InvalidOrder(f"--battle {area}: no battle there; both sides must have blocks in {area} (5.0)")
    attacker = side or state.current.player1 or "england"
    state.current.battles[area] = Battle(area=area, attacker=attacker, main=state.blocks_in(area, attacker))


def run_step(state: GameState, step: dict[str, Any], rng: RandomStream, decider: Recording) -> list[Any]:
    """One ``[[case.do]]`` step on ``state``; returns the engine's log entries."""
    side = step.get("side")
    if "cards" in step:
        return engine.submit_cards(state, {str(k): str(v) for k, v in dict(step["cards"]).items()}, rng, decider)
    if "moves" in step:
        if side is None:
            raise InvalidOrder("case: a moves step needs side = \"england\" or \"scotland\"")
        if state.phase == "move" and state.current.player1:  # the Move Phase as the referee runs it (4.1)
            return engine.submit_moves(state, side, dict(step["moves"]), rng, decider)
        log = engine.apply_moves_order(state, side, dict(step["moves"]))
        if side not in state.current.moves_done:
            state.current.moves_done.append(side)
        return log
    if "battle" in step:
        ensure_battle(state, str(step["battle"]), side)
        return engine.fight_battle(state, str(step["battle"]), rng, decider)
    if "event" in step:
        if side is None:
            raise InvalidOrder("case: an event step needs side = \"england\" or \"scotland\"")
        if state.phase == "event":  # the Event Phase as the referee runs it: England's first, then on (3.12)
            return engine.submit_events(state, side, dict(step["event"]), rng, decider)
        return resolve_event(state, side, state.current.cards.get(side, ""), dict(step["event"]), rng, decider)
    if "winter_plan" in step:
        if side is None:
            raise InvalidOrder("case: a winter_plan step needs side = \"england\" or \"scotland\"")
        check_winter_plan(state, side, step["winter_plan"])
        return [entry("winter_plan", side, PRIVATE_UNMARKED, accepted=True)]
    call = ENGINE_STEPS[step["step"]]
    return call.run(state, rng, decider)


def run_case(state: GameState, case: Case) -> Outcome:
    """Run the case's steps in order; a refusal (or any rules error) stops them and is kept."""
    stream = stream_of(case.seed)
    rng: RandomStream = ListedDice(list(case.dice), stream) if case.dice is not None else stream
    decider = Recording(case.answers, case.standing, state)
    lines: list[str] = []
    error: PbemError | None = None
    for step in case.steps:
        try:
            lines += [line(e) for e in run_step(state, step, rng, decider)]
        except PbemError as exc:
            error = exc
            lines.append(f"refused: {exc}")
            break
    lines += [f"decision: {d}" for d in decider.log]
    left = len(rng.dice) if isinstance(rng, ListedDice) else 0
    return Outcome(state=state, lines=lines, error=error, dice_left=left)


def _blocks_at(state: GameState, side: str, place: str) -> list[str]:
    out = []
    for name, b in sorted(state.blocks.items()):
        if b.owner == side and b.location == place:
            out.append(name if place in PLACES else f"{name}:{b.strength}")
    return out


def _listed(entry: str, place: str) -> str:
    """``"Name"`` at full strength on the map, ``"Name:3"`` as given; a place lists names only."""
    if place in PLACES or ":" in entry:
        return entry
    return f"{entry}:{spec(entry).steps}"


def mismatches(outcome: Outcome, case: Case) -> list[str]:
    """What in the outcome differs from the case's ``[case.expect]``; [] when it comes out right."""
    exp, st, out = case.expect, outcome.state, []
    err = outcome.error
    if "error" in exp:
        if err is None:
            out.append(f"expected a refusal containing {exp['error']!r}, but every step was accepted")
        elif exp["error"] not in str(err):
            out.append(f"expected a refusal containing {exp['error']!r}, got {err}")
        if "rule" in exp and err is not None and getattr(err, "rule", "") != exp["rule"]:
            out.append(f"expected the refusal to cite rule {exp['rule']}, got {getattr(err, 'rule', '')!r}")
    elif err is not None:
        out.append(f"a step was refused: {err}")
    for key in ("winner", "phase", "year"):
        if key in exp:
            got = getattr(st, key) if key != "phase" else engine.next_step(st)
            if got != exp[key]:
                out.append(f"{key}: expected {exp[key]!r}, got {got!r}")
    if "reason" in exp and exp["reason"] not in st.win_reason:
        out.append(f"reason: expected {exp['reason']!r} in {st.win_reason!r}")
    for area, side in sorted(exp.get("control", {}).items()):
        if st.control(area) != side:
            out.append(f"control of {area}: expected {side}, got {st.control(area)}")
    for side in SIDES:
        for place, names in sorted(exp.get(side, {}).items()):
            want = sorted(_listed(n, place) for n in names)
            got = _blocks_at(st, side, place)
            if place in PLACES:
                missing = [n for n in want if n not in got]
                if missing:
                    out.append(
                        f"{side}.{place}: expected {', '.join(missing)} there; it holds {', '.join(got) or 'none'}"
                    )
            elif got != want:
                out.append(f"{side}.{place}: expected {', '.join(want) or 'none'}, got {', '.join(got) or 'none'}")
    at = 0
    for wanted in exp.get("log", []):
        found = next((i for i in range(at, len(outcome.lines)) if wanted in outcome.lines[i]), None)
        if found is None:
            out.append(f"log: no line containing {wanted!r} (in order)")
        else:
            at = found + 1
    for unwanted in exp.get("not_log", []):
        if any(unwanted in ln for ln in outcome.lines):
            out.append(f"log: a line contains {unwanted!r}")
    return out


# --- a battle from a position or a rules case ----------------------------------------------------------

def load_battle(path: str, area: str, side: str | None = None,
                standing: dict[str, dict[str, Any]] | None = None) -> tuple[GameState, Decider]:
    """The position in ``path`` ready to fight the battle in ``area``, and the sides' deciders.

    A rules case (docs/cases.md) first runs its steps up to its battle in ``area`` and brings its
    own ``[case.plans]``; ``standing`` (``{side: {"plans": ...}}``) overrides them side by side.
    A contested area without a battle record gets one, as ``pbem sandbox --battle`` does: the
    attacker is ``side``, else Player 1."""
    try:
        data = tomllib.loads(inputs.read_text_input(path, inputs.MAX_FILE, "a position file"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"position {path}: not valid TOML ({exc})") from None
    state, case = split_case(data, str(path))
    plans = dict(case.standing) if case is not None else {}
    plans.update(standing or {})
    if case is not None:
        rng = stream_of(case.seed)
        for step in case.steps:
            if str(step.get("battle", "")) == area:
                side = side or step.get("side")
                break
            run_step(state, step, rng, Recording(dict(case.answers), plans, state))
    ensure_battle(state, area, side)
    return state, plan_deciders(state, plans)
