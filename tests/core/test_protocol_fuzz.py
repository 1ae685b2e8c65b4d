"""Random mutations of valid envelopes and armor are never accepted and never crash (§3, §4)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core import armor, envelope
from pbem.core.errors import PbemError
from pbem.core.identity import from_seeds

SENDER = from_seeds("s", bytes([5]) * 32, bytes([6]) * 32)
ME = from_seeds("me", bytes([7]) * 32, bytes([8]) * 32)
SEALED = envelope.seal(SENDER, [ME.public], b'{"x":1}', game="g", kind="order", side="north", step=1)
SIGNED = envelope.sign_only(SENDER, b'{"x":1}', game="g", kind="ledger", side="", step=1)


def accepted(data: bytes | str) -> bool:
    try:
        env = envelope.read(data, "fuzz")
        envelope.payload_of(env, ME, "fuzz")
        return True
    except PbemError:
        return False


mutations = st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=1, max_value=255)), min_size=1,
                     max_size=4)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([SEALED, SIGNED]), flips=mutations)
def test_protocol_4_no_byte_mutation_is_accepted(base: bytes, flips: list[tuple[int, int]]) -> None:
    data = bytearray(base)
    for at, xor in {at % len(data): xor for at, xor in flips}.items():  # distinct places: flips never cancel
        data[at] ^= xor
    assert not accepted(bytes(data))


@settings(max_examples=200, deadline=None)
@given(base=st.sampled_from([SEALED, SIGNED]), cut=st.integers(min_value=0), extra=st.binary(max_size=8))
def test_protocol_4_truncated_or_extended_envelopes_are_rejected(base: bytes, cut: int, extra: bytes) -> None:
    data = base[: cut % len(base)] + extra
    if data != base:
        assert not accepted(data)


@settings(max_examples=200, deadline=None)
@given(base=st.sampled_from([SEALED, SIGNED]), at=st.integers(min_value=0),
       ch=st.sampled_from(list("AZaz09+/=*- >\r\n\t")))
def test_protocol_3_armor_mutations_are_rejected_or_decode_to_the_same_bytes(base: bytes, at: int, ch: str) -> None:
    text = armor.armor(base)
    i = at % len(text)
    mutated = text[:i] + ch + text[i + 1 :]
    try:
        out = armor.dearmor(mutated, "fuzz")
    except PbemError:
        return
    assert out == base or not accepted(out)


def test_protocol_7_3_mutated_orders_reach_the_referee_and_are_refused_without_a_write() -> None:
    """The referee's own entry point (receive_order): every mutated order is a PbemError, nothing is kept."""
    import tempfile
    from pathlib import Path

    from core_support import fixed, snapshot

    from pbem.core import game

    referee, north, south = fixed("referee", 1), fixed("north", 2), fixed("south", 3)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "g"
        game.new_game(d, "rps", "standard", {}, referee, {"north": north.public, "south": south.public},
                      game_id="rps-fuzz", chain_length=5)
        valid = armor.dearmor(game.write_order(d, north, "north", 0, {"side": "north", "step": 0, "throw": "rock"}))
        before = snapshot(d)

        @settings(max_examples=60, deadline=None)
        @given(flips=mutations, as_armor=st.booleans())
        def check(flips: list[tuple[int, int]], as_armor: bool) -> None:
            data = bytearray(valid)
            for at, xor in {at % len(data): xor for at, xor in flips}.items():
                data[at] ^= xor
            try:
                game.receive_order(d, referee, armor.armor(bytes(data)) if as_armor else bytes(data), "fuzz")
            except PbemError:
                pass
            else:
                raise AssertionError("a mutated order was accepted")
            assert snapshot(d) == before

        check()
