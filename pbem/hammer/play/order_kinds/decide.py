"""The ``decide`` order: the answer to a question the side's plans left open (docs/plans.md), or
one answer each, in order, to a battle's questions asked together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.hammer.play.order_kinds.base import Ask, Report, Sections, check_plans, toml_line
from pbem.hammer.rules.engine import StepCall
from pbem.hammer.rules.errors import DataError, IllegalOrder, InvalidOrder
from pbem.hammer.rules.suggest import did_you_mean
from pbem.hammer.rules.vocab import OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState


class DecideOrders:
    """``[decide]``: ``answer = "..."``, or ``answers = [...]`` for several questions."""

    kind: OrderKind = "decide"
    sections: tuple[str, ...] = ("decide", "plans")
    bot_cuts_moves = False

    def parse(self, sections: Sections, source: str) -> Sections:
        decide = sections.get("decide", {})
        many = decide.get("answers")
        many_ok = isinstance(many, list) and many and all(isinstance(a, str) for a in many)
        if set(decide) - {"answer", "answers"} or ("answer" in decide) == ("answers" in decide) or (
                "answer" in decide and not isinstance(decide["answer"], str)) or (
                "answers" in decide and not many_ok):
            raise InvalidOrder(f"{source}: [decide] needs answer = \"<one of the listed options>\", or for several "
                               "questions answers = [\"<option>\", ...], one per question in order")
        return sections

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        check_answers(ask, draft.sections["decide"])
        check_plans(draft)

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        return []

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        if not ask.question:
            return {}
        out: dict[str, Any] = {"question": ask.question}
        if ask.questions:  # the side's questions of this battle, asked together (docs/plans.md)
            out["questions"] = list(ask.questions)
        return out

    def default(self, game: GameState, ask: Ask) -> Sections:
        """The first option of each question asked."""
        if ask.questions:
            return {"decide": {"answers": [(x.get("options") or [""])[0] for x in ask.questions]}}
        return {"decide": {"answer": ((ask.question or {}).get("options") or [""])[0]}}

    def template(self, report: Report) -> list[str]:
        asked = _asked(report.get("options", {}))
        lines: list[str] = []
        for n, q in enumerate(asked, 1):
            ctx = " ".join(f"{k}={v}" for k, v in sorted(q.get("context", {}).items()))
            lines += [f"# question{_nth(n, len(asked))} ({q.get('rule', '')}): {q.get('kind', '')} {ctx}".rstrip(),
                      f"#   options: {', '.join(q.get('options', []))}"]
        firsts = [(list(q.get("options", [])) or [""])[0] for q in asked]
        if len(asked) > 1:
            return lines + [
                "# These questions of one battle are asked together: one answer each, in order. An answer",
                "# an earlier one has made impossible is replaced by what your plans say (docs/plans.md).",
                "[decide]", toml_line("answers", firsts), ""]
        return lines + ["[decide]", toml_line("answer", firsts[0]), ""]

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        """The random bot answers at random, the simple bot with the first option."""
        asked = _asked(report.get("options", {}))
        picks = []
        for q in asked:
            opts = list(q.get("options", []))
            picks.append(opts[rng.randbelow(len(opts))] if bot == "random" and opts else (opts[0] if opts else ""))
        return {"decide": {"answers": picks} if len(asked) > 1 else {"answer": picks[0]}}

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall:
        """The paused call, again from where it started, with the answers added (docs/random-stream.md)."""
        resume = st.resume
        if resume is None:
            raise DataError("a decide order came for a step that asked no question")
        ((side, d),) = orders.items()
        asked, resume.ask = resume.ask, None
        if asked is None:  # a call paused before batched questions: answers in a flat list
            resume.answers.setdefault(side, []).append(answers_of(d.sections["decide"])[0])
        else:  # the answers, and the plans sent with them, for the rest of the call (docs/plans.md)
            done = {**asked, "answers": answers_of(d.sections["decide"])}
            if "plans" in d.sections:
                done["plans"] = d.sections["plans"]
            resume.decided = [*(resume.decided or []), done]
        return StepCall(resume.call, resume.args)


def _nth(n: int, of: int) -> str:
    """" 2 of 3": the place of a question among those asked together, counted from 1 as the draft
    lists them ("question 2 of 3") and the refusal names its answer ("answer 2 of 3"); "" for one."""
    return f" {n} of {of}" if of > 1 else ""


def _asked(options: dict[str, Any]) -> list[dict[str, Any]]:
    """The questions a report lists: a battle's ``questions``, else its one ``question``."""
    asked: list[dict[str, Any]] = options.get("questions") or [options.get("question", {})]
    return asked


def answers_of(decide: dict[str, Any]) -> list[str]:
    """A decide order's answers in order: ``answers = [...]`` or the single ``answer``."""
    return list(decide["answers"]) if "answers" in decide else [decide["answer"]]


def check_answers(ask: Ask, decide: dict[str, Any]) -> None:
    """One answer per question asked, in order, each one of its question's options."""
    q = ask.question or {}
    asked = list(ask.questions) or [q]
    answers = answers_of(decide)
    if len(answers) != len(asked):
        rule = str(q.get("rule", ""))
        raise IllegalOrder(f"answers: {len(asked)} question(s) of this battle are asked, so give "
                           f"{len(asked)} answer(s) in order, not {len(answers)} ({rule})", rule=rule)
    for n, (answer, question) in enumerate(zip(answers, asked), start=1):
        opts = [str(o) for o in question.get("options", [])]
        if answer not in opts:
            where = f"answer{_nth(n, len(asked))} {answer!r}"
            if len(asked) > 1:  # which question, as the report describes it
                what = f"{question.get('kind', '')} {question.get('context', {}).get('block', '')}".strip()
                where += f" ({what})"
            rule = str(question.get("rule", ""))
            raise IllegalOrder(f"{where}: not one of {', '.join(opts)} ({rule}){did_you_mean(answer, opts)}", rule=rule)


__all__ = ["DecideOrders", "answers_of", "check_answers"]
