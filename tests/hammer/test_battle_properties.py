"""Battle properties (5.0-5.8) over random positions, dice and choices."""

from __future__ import annotations

import hashlib

from fakes import bare_state, battle_at, put
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.hammer.rules.battle import fight
from pbem.hammer.rules.blocks import blocks, spec
from pbem.hammer.rules.board import board
from pbem.hammer.rules.decisions import NeedDecision, Question
from pbem.hammer.rules.state import PLACES, GameState
from pbem.hammer.show.battle_log import format_log

E, S = "england", "scotland"
AREAS = ["Fife", "Buchan", "Lanark", "Atholl", "Annan", "Moray", "Lothian", "England"]
ENGLISH = sorted(n for n, s in blocks().items() if s.sides == (E,))
SCOTS = sorted(n for n, s in blocks().items() if s.sides == (S,) and n != "French Knights")
NOBLES = sorted(n for n, s in blocks().items() if s.is_noble and n != "Moray")


class Whim:
    """Answers as a pure function of the question and a seed, so a re-asked question gets the same
    answer (what makes pausing invisible)."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def decide(self, q: Question) -> str:
        if q.kind == "battle_action":  # the steps standing plans read (docs/plans.md)
            ctx = q.context
            assert ctx["own_steps"] >= ctx["strength"] >= 1 and ctx["enemy_steps"] >= 0 and ctx["steps_lost"] >= 0
            assert ("fire" in q.options) == (ctx["enemy_steps"] > 0)
        digest = hashlib.sha256(self.seed + canonical_bytes(q.to_dict())).digest()
        return q.options[int.from_bytes(digest[:4], "big") % len(q.options)]


class PauseEveryOther:
    """Pauses before answering every question: the first ask raises, the re-ask answers."""

    def __init__(self, inner: Whim) -> None:
        self.inner = inner
        self.calls = 0

    def decide(self, q: Question) -> str:
        self.calls += 1
        if self.calls % 2:
            raise NeedDecision(q)
        return self.inner.decide(q)


@st.composite
def positions(draw: st.DrawFn) -> tuple[GameState, str]:
    state = bare_state()
    state.current.player1 = draw(st.sampled_from([E, S]))
    state.edward = draw(st.sampled_from(["I", "II"]))
    state.options.schiltroms = draw(st.booleans())
    area = draw(st.sampled_from(AREAS))
    attacker = draw(st.sampled_from([E, S]))
    pool = {E: list(ENGLISH), S: list(SCOTS)}
    nobles = draw(st.lists(st.sampled_from(NOBLES + ["Moray"]), max_size=4, unique=True))
    for n in nobles:
        side = S if n == "Moray" else draw(st.sampled_from([E, S]))
        pool[side].append(n)
    placed: dict[str, list[str]] = {}
    for side in (E, S):
        names = draw(st.lists(st.sampled_from(sorted(pool[side])), min_size=1, max_size=5, unique=True))
        if area == "England" and side == S:
            names = [n for n in names if n != "Norse"] or ["Campbell"]
        placed[side] = names
        for n in names:
            put(state, side, area, n, strength=draw(st.integers(1, spec(n).steps)))
    if "King" in placed[S]:
        state.king = "Bruce"
    # neighbours: empty, friendly to one side, or contested
    for near in board().neighbours(area):
        who = draw(st.sampled_from(["", E, S, "both"]))
        for side in ((E, S) if who == "both" else (who,) if who else ()):
            spare = [n for n in pool[side] if state.blocks[n].location not in board().areas and n not in nobles]
            if spare:
                put(state, side, near, spare[0])
    defender = S if attacker == E else E
    att = placed[attacker]
    k = draw(st.integers(0, len(att) - 1))
    dres = draw(st.lists(st.sampled_from(placed[defender]), max_size=len(placed[defender]) - 1, unique=True))
    near = list(board().neighbours(area))
    entered = {attacker: sorted({"-".join(sorted((area, draw(st.sampled_from(near)))))}),
               defender: sorted({"-".join(sorted((area, draw(st.sampled_from(near)))))}) if dres else []}
    battle_at(state, area, attacker, main=att[k:], attacker_reserves=att[:k], defender_reserves=dres,
              entered=entered)
    return state, area


def _where(state: GameState) -> dict[str, str]:
    return {n: b.location for n, b in state.blocks.items()}


@settings(max_examples=100, deadline=None)
@given(positions(), st.binary(min_size=16, max_size=16), st.binary(min_size=4, max_size=4))
def test_5_0_battle_invariants_and_pause_resume(position: tuple[GameState, str], key: bytes, seed: bytes) -> None:
    state, area = position
    assert state.check() == []
    names = sorted(state.blocks)
    saved = state.to_dict()

    whole = GameState.from_dict(saved)
    log = fight(whole, area, Drbg(key), Whim(seed))

    # strengths within 1..maximum on the map; every block in exactly one known place
    assert whole.check() == []
    assert sorted(whole.blocks) == names
    for n, b in whole.blocks.items():
        assert b.location in board().areas or b.location in PLACES
    # no area is left contested by this battle (unless the game ended in it)
    if not whole.winner:
        assert whole.control(area) != "contested"
        assert log[-1].what in ("battle_end", "regroup")
    assert whole.current.fight is None and area not in whole.current.battles
    assert len(format_log(log).splitlines()) == len(log)

    # paused before every question, saved and reloaded each time: the same end, die for die
    state = GameState.from_dict(saved)
    rng = Drbg(key)
    pauser = PauseEveryOther(Whim(seed))
    while True:
        rng = Drbg(key, rng.position)
        try:
            resumed_log = fight(state, area, rng, pauser)
            break
        except NeedDecision:
            state = GameState.from_dict(state.to_dict())
    assert resumed_log == log
    assert state.to_dict() == whole.to_dict()
