"""docs/random-stream.md "A call paused for a decision", checked from the text: a battle paused on
a question shows its dice with ``"stream": [e, k]``; each is word ``index`` of the stream keyed by
block ``k`` of the step stream of entry ``e``; answering replays the call with that old key, so
the finished battle shows the same dice under the same ``stream``, and the calls that start after
it take their keys from the new step's stream from ``k = 0``. Written without pbem's stream code."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from test_7_steps import R, _order, paused_on_a_hit

from pbem.hammer.rules.log import as_entry

PAUSED_SEED, ANSWER_SEED = b"a" * 32, b"d" * 31   # the step stream paused_on_a_hit uses; answers: + 1 byte


def word(key: bytes, w: int) -> int:
    block = hmac.new(key, b"pbem-drbg-v1" + (w // 8).to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(block[4 * (w % 8): 4 * (w % 8) + 4], "big")


def call_key(step_seed: bytes, k: int) -> bytes:
    return b"".join(word(step_seed, 8 * k + j).to_bytes(4, "big") for j in range(8))


def dice(lines: list[Any]) -> list[tuple[tuple[int, int], int, int]]:
    """The fire dice of a log (records, or their data form as a report shows them)."""
    return [((e.facts["stream"][0], e.facts["stream"][1]), d["value"], d["index"])
            for e in map(as_entry, lines) if e.what == "fire" for d in e.facts["dice"]]


def test_random_stream_a_paused_call_replays_with_its_old_key() -> None:
    from pbem.core.drbg import Drbg  # only to drive the referee's side; the checks below use word()
    _, paused = paused_on_a_hit()
    entry = paused.state["step"]
    shown = dice(paused.reports["scotland"]["view"]["fight"]["log"])
    assert shown
    for (at, k), value, index in shown:
        assert at == entry
        w = word(call_key(PAUSED_SEED, k), index)
        assert w < 2**32 - 2**32 % 6 and w % 6 + 1 == value
    state, seeds = paused.state, {entry: PAUSED_SEED}
    for n in range(20):  # answer every question of the paused battle; each pause shows the dice so far again
        q, seed = state["question"], ANSWER_SEED + bytes([n])
        done = R.adjudicate(state, {"scotland": _order(state, "scotland", decide={"answer": q["options"][0]})},
                            Drbg(seed))
        seeds[done.state["step"]] = seed
        state = done.state
        if "decide" not in R.owes(state).values():
            break
        again = dice(done.reports["scotland"]["view"]["fight"]["log"])
        assert again[:len(shown)] == shown
    replayed = dice(done.log)
    assert replayed[:len(shown)] == shown                     # the same dice, the same old stream
    for (at, k), value, index in replayed:
        assert at == entry or at == state["step"]
        w = word(call_key(seeds[at], k), index)
        assert w < 2**32 - 2**32 % 6 and w % 6 + 1 == value
    streams = [as_entry(e).facts["stream"] for e in done.log]
    later = sorted({s[1] for s in streams if s[0] == state["step"]})
    assert later == list(range(len(later)))                  # calls started in the new step count from 0
