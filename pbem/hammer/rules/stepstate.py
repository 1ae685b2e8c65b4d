"""The step machine's secret state as typed records (the ruleset's side of the protocol's state).

The protocol stores the secret state as plain data; ``HammerRuleset`` parses it here at the
seam's edge and works on the records inside. ``to_data``/``from_data`` give the data form the
ledger has always held, key for key (a key that is sometimes absent stays absent)::

    {"game": GameState data, "owes": {side: kind}, "pending": {side: {...}},
     "resume": {...} | None, "question": Question data | None, ["questions": [...],]
     "paused": GameState data | None, ["paused_log": [line data, ...],] ["setup_log": [line data, ...],]
     "step": n}

The game's data (``game``, ``paused``, a paused call's ``game``) is only ever replaced, never
changed in place, so records share it with the data they came from; ``fork`` copies the rest for
a step to change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pbem.core.plain import plain_copy
from pbem.hammer.rules.engine import StepName, step_named
from pbem.hammer.rules.errors import DataError
from pbem.hammer.rules.vocab import SIDE_NAMES, OrderKind, Side, order_kind_named, side_named

GameData = dict[str, Any]  # GameState.to_dict(): replaced whole, never changed in place
Section = dict[str, Any]   # one section of a side's order, as the side wrote it
SENT_AHEAD = ("plans", "if_player1", "event", "winter")  # the sections ``Pending`` keeps as they came


@dataclass
class Pending:
    """What one side sent ahead, kept until the engine needs it (about two exchanges a turn)."""

    plans: Section | None = None        # standing battle plans, kept until replaced (docs/plans.md)
    if_player1: Section | None = None   # moves sent with the card, made if this side is Player 1 (4.1)
    event: Section | None = None        # the Event's parameters, sent with the card (3.12)
    winter: Section | None = None       # the winter plan (7.0)
    battle_order: list[str] | None = None  # Player 1's battle order, from its moves (5.1)

    KEYS: ClassVar[tuple[str, ...]] = ("plans", "if_player1", "event", "winter", "battle_order")

    @classmethod
    def from_data(cls, data: Mapping[str, Any], side: str = "") -> Pending:
        unknown = sorted(k for k in data if k not in cls.KEYS)
        if unknown:
            raise DataError(f"the stored state keeps {', '.join(map(repr, unknown))} for {side or 'a side'}, "
                            f"which is none of {', '.join(cls.KEYS)}")
        return cls(plans=data.get("plans"), if_player1=data.get("if_player1"), event=data.get("event"),
                   winter=data.get("winter"), battle_order=data.get("battle_order"))

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.plans is not None:
            out["plans"] = self.plans
        if self.if_player1 is not None:
            out["if_player1"] = self.if_player1
        if self.event is not None:
            out["event"] = self.event
        if self.winter is not None:
            out["winter"] = self.winter
        if self.battle_order is not None:
            out["battle_order"] = self.battle_order
        return out

    def keep(self, sections: Mapping[str, Any]) -> None:
        """Keep the sections an order sends ahead (any kind may carry them), each until replaced or spent."""
        for name in SENT_AHEAD:
            if name in sections:
                setattr(self, name, sections[name])

    def standing(self) -> dict[str, Any]:
        """The plans a paused call keeps as they were when it started: battle plans and winter plan."""
        out: dict[str, Any] = {}
        if self.plans is not None:
            out["plans"] = self.plans
        if self.winter is not None:
            out["winter"] = self.winter
        return out


@dataclass
class PausedCall:
    """An engine step paused for a decision, replayed whole from where it started (docs/random-stream.md).

    ``key`` (hex) keys the call's own stream; ``stream`` is [the step it began in, its call number]
    (every log line it writes says so); ``plans`` are the standing plans as they were at its start;
    ``ask`` is the decide step it waits for (side, battle, index ``at`` of the first question, the
    questions' signatures), ``decided`` the decide steps answered so far, ``answers`` the flat answers
    of a call paused before questions were batched.
    """

    call: StepName
    args: list[Any]
    game: GameData
    key: str
    stream: list[int]
    plans: dict[str, dict[str, Any]] = field(default_factory=dict)
    answers: dict[str, list[str]] = field(default_factory=dict)
    ask: dict[str, Any] | None = None
    decided: list[dict[str, Any]] | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PausedCall:
        return cls(call=step_named(str(data["call"])), args=data["args"], game=data["game"], key=data["key"],
                   stream=data["stream"], plans=data["plans"], answers=data["answers"], ask=data.get("ask"),
                   decided=data.get("decided"))

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"call": self.call, "args": self.args, "game": self.game, "key": self.key,
                               "answers": self.answers, "plans": self.plans, "stream": self.stream}
        if self.ask is not None:
            out["ask"] = self.ask
        if self.decided is not None:
            out["decided"] = self.decided
        return out

    def fork(self) -> PausedCall:
        """A copy to change, sharing only the game's data (replaced, never changed in place)."""
        return PausedCall(call=self.call, args=plain_copy(self.args), game=self.game, key=self.key,
                          stream=list(self.stream), plans=plain_copy(self.plans), answers=plain_copy(self.answers),
                          ask=plain_copy(self.ask), decided=plain_copy(self.decided))


@dataclass
class StepState:
    """Where the step machine stands: the game, who owes what, the orders sent ahead, a paused call."""

    game: GameData
    owes: dict[Side, OrderKind] = field(default_factory=dict)
    pending: dict[Side, Pending] = field(default_factory=dict)
    resume: PausedCall | None = None
    question: dict[str, Any] | None = None         # the first question of a decide step (Question data)
    questions: list[dict[str, Any]] | None = None  # all of them, when a battle's questions are asked together
    paused: GameData | None = None                 # the game as it stood at the question (shown in reports)
    # the lines the paused call had written by the question, outside the battle in progress (shown in
    # the reports, each as its side sees it); None when it had written none
    paused_log: list[dict[str, Any]] | None = None
    step: int = 0
    # the set-up's own lines (the levy, each side's first hand), shown in the entry-0 reports only
    setup_log: list[dict[str, Any]] | None = None

    @classmethod
    def first(cls, game: GameData, setup_log: list[dict[str, Any]] | None = None) -> StepState:
        """The state after set-up: both sides owe a card, nothing is pending."""
        return cls(game=game, owes={s: "card" for s in SIDE_NAMES}, pending={s: Pending() for s in SIDE_NAMES},
                   setup_log=setup_log or None)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> StepState:
        """The record of a stored state (sharing its data: ``fork`` before changing it)."""
        resume = data.get("resume")
        return cls(game=data["game"],
                   owes=owes_of(data),
                   pending={side_named(s): Pending.from_data(p, s) for s, p in data.get("pending", {}).items()},
                   resume=PausedCall.from_data(resume) if resume else None,
                   question=data.get("question"), questions=data.get("questions"), paused=data.get("paused"),
                   paused_log=data.get("paused_log"), step=int(data.get("step", 0)),
                   setup_log=data.get("setup_log"))

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "owes": dict(self.owes),
                               "pending": {s: p.to_data() for s, p in self.pending.items()},
                               "resume": self.resume.to_data() if self.resume is not None else None,
                               "question": self.question, "paused": self.paused, "step": self.step}
        if self.questions is not None:
            out["questions"] = self.questions
        if self.paused_log is not None:
            out["paused_log"] = self.paused_log
        if self.setup_log is not None:
            out["setup_log"] = self.setup_log
        return out

    def fork(self) -> StepState:
        """A copy for a step to change: the game's data shared (only ever replaced), the rest copied."""
        return StepState(game=self.game, owes=dict(self.owes),
                         pending={s: Pending(**plain_copy(vars(p))) for s, p in self.pending.items()},
                         resume=self.resume.fork() if self.resume is not None else None,
                         question=plain_copy(self.question), questions=plain_copy(self.questions),
                         paused=self.paused, paused_log=plain_copy(self.paused_log), step=self.step,
                         setup_log=plain_copy(self.setup_log))

    def owed(self) -> dict[str, str]:
        """Side -> the kind of order it owes now, in side order (the protocol's ``owes``)."""
        return {s: k for s, k in sorted(self.owes.items())}

    def pending_of(self, side: Side) -> Pending:
        """``side``'s orders sent ahead (an empty record added when the state has none for it)."""
        p = self.pending.get(side)
        if p is None:
            p = self.pending[side] = Pending()
        return p


def owes_of(data: Mapping[str, Any]) -> dict[Side, OrderKind]:
    """A stored state's ``owes`` alone (the protocol asks for it often; no need to parse the rest)."""
    return {side_named(s): order_kind_named(k) for s, k in data["owes"].items()}


__all__ = ["GameData", "owes_of", "PausedCall", "Pending", "StepState"]
