"""Each Hammer draw reads a stream of its own (docs/draws.md, "The line of a draw"): a hidden draw
never moves the words another draw reads, so no line shows how much the other side drew before it."""

from __future__ import annotations

from typing import Any

from fakes import bare_state, put

from pbem.core.drbg import Drbg
from pbem.hammer.rules import winter as w
from pbem.hammer.rules.decisions import Question
from pbem.hammer.rules.log import LogEntry


class ScotsBuild:
    """The first option everywhere, but the Scots spend their replacement points as told: on block
    draws (``draw``) or on steps (``step``) whenever the option is offered."""

    def __init__(self, spend: str) -> None:
        self.spend = spend

    def decide(self, question: Question) -> str:
        if question.side == "scotland" and question.kind == "winter_build":
            for option in question.options:
                if option.startswith(self.spend):
                    return option
        return question.options[0]


def _winter(spend: str) -> list[LogEntry]:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas", strength=1)
    return w.winter(s, Drbg(b"k" * 32), ScotsBuild(spend))


def _lines(log: list[LogEntry], step: str, actor: str) -> list[dict[str, Any]]:
    return [e.to_data() for e in log if e.facts.get("step") == step and e.actor == actor]


def test_draws_7_7_englands_levy_line_is_the_same_whatever_the_scots_spent_their_points_on() -> None:
    drew, stepped = _winter("draw"), _winter("step")
    # the Scots' hidden choices did differ: block draws (each reading the stream) against steps
    assert any("drawn" in line for line in _lines(drew, "7.62", "scotland"))
    assert not any("drawn" in line for line in _lines(stepped, "7.62", "scotland"))
    levy = _lines(drew, "7.7", "england")
    assert levy and any(line.get("drawn") for line in levy)
    assert repr(levy) == repr(_lines(stepped, "7.7", "england"))  # byte for byte: nothing to learn



def test_draws_line_numbers_englands_winter_lines_are_the_same_whatever_hidden_lines_the_scots_had() -> None:
    """docs/draws.md "Line numbers": a Hammer report line carries no number in the step's whole log (nor any
    field counting the other side's hidden lines), so England's winter log, as its report shows it, is byte
    for byte the same whether the Scots spent their points on blocks or steps, and with three more hidden
    Scottish lines before it all."""
    from pbem.core.canonical import canonical_bytes
    from pbem.hammer.show.views import filter_log
    drew, stepped = _winter("draw"), _winter("step")
    unseen = [e for e in drew if e.actor == "scotland" and not filter_log([e], "england")]
    assert unseen  # a Scottish line England does not see at all (the new year's deal)
    more = [unseen[0].copy() for _ in range(3)] + drew
    seen = filter_log(drew, "england")
    assert seen and all("line" not in line for line in seen)
    for other in (stepped, more):
        assert canonical_bytes(filter_log(other, "england")) == canonical_bytes(seen)
