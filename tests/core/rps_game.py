"""A tiny second game used only in tests: simultaneous rock-paper-scissors, best of three.

It exists to prove the protocol is game-agnostic: it plugs into pbem.core through the
``Ruleset`` seam alone. A tied throw is settled by a d6 each from the step's stream
(re-rolled while equal), so the dice path is exercised too.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import IllegalOrder, InvalidOrder
from pbem.core.ruleset import StepResult

SIDES = ("north", "south")
THROWS = ("paper", "rock", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class RpsRuleset:
    id = "rps"
    version = "1"
    sides = SIDES

    def scenarios(self) -> tuple[str, ...]:
        return ("standard",)

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        if scenario not in self.scenarios():
            raise InvalidOrder(f"unknown scenario {scenario!r}")
        return {"step": 0, "score": {s: 0 for s in SIDES}, "rounds": [], "first_die": rng.d6(),
                "to_win": int(options.get("to_win", 2))}

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        return {} if self.result(state)["winner"] else {s: "throw" for s in SIDES}

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        for s in SIDES:
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
        for side in SIDES:
            self.validate(state, side, orders[side])
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
