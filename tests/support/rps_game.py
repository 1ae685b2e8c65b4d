"""A tiny second game used only in tests: simultaneous rock-paper-scissors, best of three.

It exists to prove the protocol is game-agnostic: it plugs into pbem.core through the
``Ruleset`` seam alone. A tied throw is settled by a d6 each from the step's stream
(re-rolled while equal), so the dice path is exercised too.

Issue 15: it grows to three players (option ``players = 3``, seats from ``for_options``,
protocol §10.1) and has a player side (drafts, check, text, bot; protocol §10.2), so the real
CLI verbs play it without naming it. With three, a throw scores when it beats another and is
beaten by none; otherwise the dice decide (the highest single d6).
"""

from __future__ import annotations

import copy
import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import IllegalOrder, InvalidOrder
from pbem.core.ruleset import DemoResult, StepResult

SIDES = ("north", "south")
SEATS = ("north", "south", "east")
THROWS = ("paper", "rock", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class RpsRuleset:
    id = "rps"
    version = "1"
    open_facts = True  # nothing of its state is hidden from the players: it may play with no referee (§13.10)

    def __init__(self, players: int = 2) -> None:
        self.sides: tuple[str, ...] = SEATS[:players]

    @classmethod
    def for_options(cls, options: Mapping[str, Any]) -> RpsRuleset:
        players = options.get("players", 2)
        if players not in (2, 3):
            raise InvalidOrder(f"players = {players!r}: rock-paper-scissors takes 2 or 3 players.")
        return cls(players)

    def player(self) -> RpsPlayer:
        return RpsPlayer()

    def scenarios(self) -> tuple[str, ...]:
        return ("standard",)

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        if scenario not in self.scenarios():
            raise InvalidOrder(f"unknown scenario {scenario!r}")
        if int(options.get("players", 2)) != len(self.sides):
            raise InvalidOrder(f"players = {options.get('players')}, but this instance seats {len(self.sides)}.")
        return {"step": 0, "score": {s: 0 for s in self.sides}, "rounds": [], "first_die": rng.d6(),
                "to_win": int(options.get("to_win", 2))}

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        return {} if self.result(state)["winner"] else {s: "throw" for s in self.sides}

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        for s in self.sides:
            if state["score"][s] >= state["to_win"]:
                return {"winner": s, "reason": "best of three"}
        return {"winner": "", "reason": ""}

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"first_die": state["first_die"]}

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"score": state["score"], "rounds": state["rounds"], "owes": self.owes(state)}

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        return {"score": state["score"], "rounds": state["rounds"]}

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        return {"game": game_id, "side": side, "step": step, "view": self.view(state, side), "log": log,
                "asks": self.owes(state).get(side, ""), "result": self.result(state)}

    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        return {"side": side, "step": state["step"], "throw": "rock"}

    def validate(self, state: dict[str, Any], side: str, body: Any) -> None:
        if not isinstance(body, dict) or set(body) != {"side", "step", "throw"}:
            raise InvalidOrder(f"order from {side}: expected side, step and throw")
        if body["side"] != side or body["step"] != state["step"]:
            raise InvalidOrder(f"order from {side}: it says side {body['side']!r}, step {body['step']!r}")
        if body["throw"] not in THROWS:
            raise IllegalOrder(f"throw {body['throw']!r}: choose one of {', '.join(THROWS)} (RPS rule 1).")
        if side not in self.owes(state):
            raise IllegalOrder(f"{side} owes nothing now")

    def adjudicate(self, state: dict[str, Any], orders: dict[str, Any], rng: Drbg, game_id: str = "") -> StepResult:
        for side in self.sides:
            self.validate(state, side, orders[side])
        if len(self.sides) == 3:
            return self._three(state, orders, rng, game_id)
        new = copy.deepcopy(state)
        a, b = (orders[s]["throw"] for s in SIDES)
        dice: list[list[int]] = []
        if a == b:
            while True:
                roll = [rng.d6(), rng.d6()]
                dice.append(roll)
                if roll[0] != roll[1]:
                    break
            winner = SIDES[0] if roll[0] > roll[1] else SIDES[1]
        else:
            winner = SIDES[0] if BEATS[a] == b else SIDES[1]
        new["score"][winner] += 1
        new["rounds"].append({"throws": [a, b], "dice": dice, "winner": winner})
        new["step"] += 1
        log = [{"round": len(new["rounds"]), "winner": winner, "dice": dice}]
        reports = {s: self.report(new, s, log, game_id, new["step"]) for s in SIDES}
        return StepResult(new, self.public(new), reports, log)

    def _three(self, state: dict[str, Any], orders: dict[str, Any], rng: Drbg, game_id: str) -> StepResult:
        """Three players: a throw beating another and beaten by none scores; else the highest single d6."""
        new = copy.deepcopy(state)
        throws = [orders[s]["throw"] for s in self.sides]
        beaten = {t for t in throws if any(BEATS[o] == t for o in throws)}
        winners = [s for s, t in zip(self.sides, throws) if t not in beaten and any(BEATS[t] == o for o in throws)]
        dice: list[list[int]] = []
        while not winners:
            roll = [rng.d6() for _ in self.sides]
            dice.append(roll)
            if roll.count(max(roll)) == 1:
                winners = [self.sides[roll.index(max(roll))]]
        for w in winners:
            new["score"][w] += 1
        new["rounds"].append({"throws": throws, "dice": dice, "winner": ",".join(winners)})
        new["step"] += 1
        log = [{"round": len(new["rounds"]), "winner": ",".join(winners), "dice": dice}]
        reports = {s: self.report(new, s, log, game_id, new["step"]) for s in self.sides}
        return StepResult(new, self.public(new), reports, log)


@dataclass
class RpsDraft:
    side: str
    step: int
    kind: str
    game: str
    throw: str

    def body(self) -> dict[str, Any]:
        return {"side": self.side, "step": self.step, "throw": self.throw}


class RpsPlayer:
    """The player side (protocol §10.2): a three-line TOML draft, checked on the report alone."""

    default_scenario = "standard"
    bots = ("random",)
    order_kinds = ("throw",)
    scenario_help = "standard"
    option_help = "players=2 or 3, to_win=N"

    def options_from_text(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        return {k: int(v) if v.isdigit() else v for k, v in pairs.items()}

    def parse_draft(self, text: str, source: str) -> RpsDraft:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"{source}: not valid TOML ({exc})") from None
        if set(data) - {"game"} != {"side", "step", "throw"}:
            raise InvalidOrder(f"{source}: a draft holds side, step and throw")
        return RpsDraft(data["side"], data["step"], "throw", data.get("game", ""), data["throw"])

    def dump_draft(self, draft: Any) -> str:
        return f'side = "{draft.side}"\nstep = {draft.step}\nthrow = "{draft.throw}"\n'

    def template(self, report: dict[str, Any], draft_path: str, report_path: str, key: str, game_dir: str) -> str:
        return f"# choose one of {', '.join(THROWS)}\n" + self.dump_draft(
            RpsDraft(report["side"], report["step"], "throw", report.get("game", ""), "rock"))

    def next_commands(self, report: dict[str, Any], draft_path: str, report_path: str, key: str,
                      game_dir: str) -> str:
        return f"pbem orders check {draft_path or 'DRAFT'} --report {report_path or 'REPORT'}"

    def check_draft(self, draft: Any, report: dict[str, Any]) -> None:
        if (draft.side, draft.step) != (report["side"], report["step"]):
            raise InvalidOrder(f"the draft is for {draft.side}, step {draft.step}; the report asks "
                               f"{report['side']}, step {report['step']}")
        if draft.throw not in THROWS:
            raise IllegalOrder(f"throw {draft.throw!r}: choose one of {', '.join(THROWS)} (RPS rule 1).")
        if not report.get("asks"):
            raise IllegalOrder(f"{draft.side} owes nothing now")

    def auto_draft(self, report: dict[str, Any], bot: str, seed: bytes, previous: Any, bot_plans: bool,
                   where: str) -> tuple[RpsDraft, str]:
        throw = THROWS[hashlib.sha256(seed).digest()[0] % 3]
        return RpsDraft(report["side"], report["step"], "throw", report.get("game", ""), throw), ""

    def render_text(self, report: dict[str, Any]) -> str:
        score = ", ".join(f"{s} {n}" for s, n in report["view"]["score"].items())
        return f"score: {score}\nyou owe: {report['asks'] or 'nothing'}\n"

    def render_svg(self, report: dict[str, Any]) -> str:
        return ""

    def render_html(self, report: dict[str, Any], title: str, footer: str) -> str:
        return ""

    def default_note(self, step: int, owed: str, question: dict[str, Any] | None) -> str:
        return f"your {owed} of step {step - 1} was given by default"

    def check_demo(self, scenario: str, players: int, bots: tuple[str, ...]) -> None:
        raise InvalidOrder("rock-paper-scissors has no demo")

    def demo_title(self, scenario: str, bots: tuple[str, ...]) -> str:
        return ""

    def demo(self, folder: Path, scenario: str, players: int, bots: tuple[str, ...], seed: bytes) -> DemoResult:
        raise InvalidOrder("rock-paper-scissors has no demo")
