"""Questions the engine asks a side mid-adjudication, and who answers them.

Every choice the rules leave to a player during battles, border raids and winter (which block
takes a tied hit, fire/retreat/pass, where to regroup, which block disbands, ...) is a
``Question`` with its legal options listed. A ``Decider`` answers with one of the options.
Standing plans, bots, scripted tests and a human at a prompt are all deciders. A decider that
cannot answer raises ``NeedDecision``: the engine leaves the state resumable at that point,
and the protocol opens a "decide" step for that side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.hammer.errors import IllegalOrder, PbemError


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


class Resumed:
    """The referee's decider for a call resumed after ``decide`` steps: the standing plans answer
    first, as they did before the pause; each question they leave open takes that side's next
    answer from its ``decide`` orders, in order; when none is left, the call pauses again.

    Replaying the plans first is what makes a resumed call ask the same questions in the same
    order, so the answers land on the questions they were given for.
    """

    def __init__(self, plans: Decider, answers: dict[str, list[str]] | None = None) -> None:
        self.plans = plans
        self.answers = {side: list(a) for side, a in (answers or {}).items()}

    def decide(self, question: Question) -> str:
        try:
            return self.plans.decide(question)
        except NeedDecision:
            queue = self.answers.get(question.side, [])
            if not queue:
                raise
            return queue.pop(0)


class BySide:
    """One decider per side."""

    def __init__(self, england: Decider, scotland: Decider) -> None:
        self.by_side = {"england": england, "scotland": scotland}

    def decide(self, question: Question) -> str:
        return self.by_side[question.side].decide(question)
