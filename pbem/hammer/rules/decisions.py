"""Questions the engine asks a side mid-adjudication, and who answers them.

Every choice the rules leave to a player during battles, border raids and winter (which block
takes a tied hit, fire/retreat/pass, where to regroup, which block disbands, ...) is a
``Question`` with its legal options listed. A ``Decider`` answers with one of the options.
Standing plans, bots, scripted tests and a human at a prompt are all deciders. A decider that
cannot answer raises ``NeedDecision``: the engine leaves the state resumable at that point,
and the protocol opens a "decide" step for that side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pbem.hammer.rules.errors import IllegalOrder, PbemError


@dataclass(frozen=True)
class Question:
    side: str                  # who must answer
    kind: str                  # e.g. "battle_action", "hit", "regroup", "retreat", "raid_loss", "winter_*"
    options: tuple[str, ...]   # every legal answer, in a stable order
    context: dict[str, Any] = field(default_factory=dict)  # plain data: area, block, round, ...
    rule: str = ""             # the rule that asks, e.g. "5.41"

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "kind": self.kind, "options": list(self.options),
                "context": self.context, "rule": self.rule}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Question:
        return cls(side=data["side"], kind=data["kind"], options=tuple(data["options"]),
                   context=dict(data.get("context", {})), rule=data.get("rule", ""))


class NeedDecision(PbemError):
    """No answer is available yet: adjudication pauses here, resumably."""

    def __init__(self, question: Question) -> None:
        super().__init__(f"{question.side} must decide {question.kind} ({question.rule})")
        self.question = question


class Decider(Protocol):
    def decide(self, question: Question) -> str: ...


def checked(decider: Decider, question: Question) -> str:
    """Ask ``decider`` and refuse an answer that is not one of the question's options."""
    answer = decider.decide(question)
    if answer not in question.options:
        raise IllegalOrder(
            f"{question.side} answered {answer!r} to {question.kind}, which is not one of "
            f"{', '.join(question.options)} ({question.rule})", question.rule)
    return answer


class FirstOption:
    """Always the first listed option: the documented default when no plan speaks."""

    def decide(self, question: Question) -> str:
        return question.options[0]


class Scripted:
    """Answers from a list, in order, per side; pauses (NeedDecision) when a side's list runs out."""

    def __init__(self, answers: dict[str, list[str]] | None = None, fallback: Decider | None = None) -> None:
        self.answers = {side: list(a) for side, a in (answers or {}).items()}
        self.fallback = fallback
        self.asked: list[Question] = []

    def decide(self, question: Question) -> str:
        self.asked.append(question)
        queue = self.answers.get(question.side, [])
        if queue:
            return queue.pop(0)
        if self.fallback is not None:
            return self.fallback.decide(question)
        raise NeedDecision(question)


class BySide:
    """One decider per side."""

    def __init__(self, england: Decider, scotland: Decider) -> None:
        self.by_side = {"england": england, "scotland": scotland}

    def decide(self, question: Question) -> str:
        return self.by_side[question.side].decide(question)


# --- "ask me", once per battle (docs/plans.md) ----------------------------------------------------

SIGNATURE_KEYS = ("block", "area", "round")


def battle_of(question: Question) -> str:
    """The battle (its area) a question belongs to; "" for one outside any battle (winter)."""
    return "" if question.kind.startswith("winter") else str(question.context.get("area", ""))


def signature(question: Question) -> dict[str, Any]:
    """What identifies a question within an engine call: its kind, block, battle and round."""
    return {"kind": question.kind, **{k: question.context[k] for k in SIGNATURE_KEYS if k in question.context}}


# ``make(side, pending, quiet)``: the side's standing-plans decider for ``pending`` ({"plans": ...,
# "winter": ...}) that never asks in the battles of ``quiet``.
PlanMaker = Callable[[str, dict[str, Any], frozenset[str]], Decider]


class Replay:
    """The referee's decider for one engine call, replayed after each ``decide`` step.

    Each question of the call has an index (its place in the call's sequence of questions, both
    sides). A side's standing plans answer as they did before any pause. Each answered decide step
    (``decided``: side, battle, index ``at`` of its first question, the questions' signatures, the
    answers, and the plans sent with it) then answers its questions in order, each only if the
    question asked is the one it was given for and the answer is still an option; from ``at`` on,
    that side is not asked again in that battle (once per battle), and the plans sent with the
    decide order, if any, answer its remaining questions. ``legacy`` answers (a flat list per side,
    from a call paused before batches existed) answer what the plans leave open, in order.

    The questions before a pause are answered exactly as before it, so the dice a side has seen
    never change.
    """

    def __init__(self, make: PlanMaker, plans: dict[str, dict[str, Any]], decided: list[dict[str, Any]] | None = None,
                 legacy: dict[str, list[str]] | None = None) -> None:
        self.make, self.plans = make, plans
        self.decided = [dict(d) for d in (decided or [])]
        self.used = [0] * len(self.decided)
        self.legacy = {side: list(a) for side, a in (legacy or {}).items()}
        self.count = 0
        self.last = -1

    def in_force(self, side: str, index: int) -> tuple[dict[str, Any], frozenset[str]]:
        """The side's plans for question ``index`` and the battles it is no longer asked in."""
        pending = dict(self.plans.get(side, {}))
        quiet: set[str] = set()
        for d in self.decided:
            if d["side"] == side and int(d["at"]) <= index:
                if d.get("area"):
                    quiet.add(str(d["area"]))
                if "plans" in d:
                    pending["plans"] = d["plans"]
        return pending, frozenset(quiet)

    def decide(self, question: Question) -> str:
        index = self.count
        self.count += 1
        self.last = index
        for n, d in enumerate(self.decided):
            if d["side"] != question.side or int(d["at"]) > index or self.used[n] >= len(d["answers"]):
                continue
            if d["questions"][self.used[n]] == signature(question):
                answer = d["answers"][self.used[n]]
                self.used[n] += 1
                if answer in question.options:
                    return str(answer)
        pending, quiet = self.in_force(question.side, index)
        try:
            return self.make(question.side, pending, quiet).decide(question)
        except NeedDecision:
            queue = self.legacy.get(question.side, [])
            if not queue:
                raise
            return queue.pop(0)


class StopLookahead(Exception):
    """Not an error: the batch of questions is complete (a die was rolled, or another battle or side asks)."""


S = TypeVar("S")


class Lookahead(Generic[S]):
    """Wraps ``Replay`` for the run that may pause: at the first question a side's plans ask, it
    notes the question and what the call has done so far (``snapshot``), then goes on with provisional
    answers (the plans, not asking in that battle) to gather the side's other questions of the
    same battle that come before any new die (``rolls`` is the stream position). Those questions
    are asked together, in one decide step."""

    def __init__(self, inner: Replay, rolls: Callable[[], int], snapshot: Callable[[], S]) -> None:
        self.inner, self.rolls, self.snapshot = inner, rolls, snapshot
        self.batch: list[Question] = []
        self.at = -1
        self.paused: S | None = None  # the snapshot at the first question
        self._rolls_at = 0

    def decide(self, question: Question) -> str:
        if self.batch and self.rolls() != self._rolls_at:
            raise StopLookahead
        try:
            return self.inner.decide(question)
        except NeedDecision:
            if not self.batch:
                self.batch, self.at = [question], self.inner.last
                self.paused, self._rolls_at = self.snapshot(), self.rolls()
                if not battle_of(question):
                    raise StopLookahead from None
            elif question.side == self.batch[0].side and battle_of(question) == battle_of(self.batch[0]):
                self.batch.append(question)
            else:
                raise StopLookahead from None
        pending, quiet = self.inner.in_force(question.side, self.inner.last)
        return self.make_quiet(question, pending, quiet)

    def make_quiet(self, question: Question, pending: dict[str, Any], quiet: frozenset[str]) -> str:
        return str(self.inner.make(question.side, pending, quiet | {battle_of(question)}).decide(question))
