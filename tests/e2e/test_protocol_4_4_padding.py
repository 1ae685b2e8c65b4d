"""Protocol §4.4 (issue 10 item 7): sealed payloads are padded, so sizes betray no hidden fact.

Unpadded, the size of England's report told whether its hand held Truce, and an order's size
tracked the card it played. Over many games with the same public board, every report, order,
join and sealed state of a kind now has one size per bucket.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import armor, envelope, identity
from pbem.core import game as core_game
from pbem.core import ledger as led
from pbem.core.errors import FormatError

GAMES = 16
MAX_GAMES = 64


def _sizes(paths: list[Path]) -> set[int]:
    return {len(armor.dearmor(p.read_text(encoding="ascii"))) for p in paths}


def test_protocol_4_4_item_7_reports_orders_and_states_of_a_kind_have_one_size(tmp_path: Path) -> None:
    keys = {n: identity.generate(n) for n in ("referee", "england", "scotland")}
    pubs = {s: keys[s].public for s in ("england", "scotland")}
    games: list[Path] = []
    hands: dict[str, list[list[str]]] = {side: [] for side in pubs}
    # At least GAMES games, and more until England's hand held Truce in one and not in another (a
    # hand of 5 from 25 cards lacks it 4 times in 5: 16 games alone would all lack it about 3% of
    # the time; MAX_GAMES of them about once in a million).
    while len(games) < GAMES or len({"truce" in h for h in hands["england"]}) < 2 and len(games) < MAX_GAMES:
        g = tmp_path / f"g{len(games):02d}"
        core_game.new_game(g, "hammer", "braveheart", {}, keys["referee"], pubs, game_id=f"hammer-pad{len(games):02d}")
        games.append(g)
        for side in pubs:
            hands[side].append(core_game.open_report(core_game.report_path(g, 0, side), keys[side])["view"]["hand"])
    boards = {str(core_game.status(g)["board"]) for g in games}
    assert len(boards) == 1  # the same public board in every game ...
    with_truce = [("truce" in h) for h in hands["england"]]
    assert any(with_truce) and not all(with_truce)  # ... and hidden hands that differ, Truce or not
    for side in pubs:
        assert len(_sizes([core_game.report_path(g, 0, side) for g in games])) == 1, side
    assert len(_sizes([led.state_path(g, 0) for g in games])) == 1
    orders = []
    for g, hand in zip(games, hands["england"]):
        for card in sorted(set(hand)):
            body = {"game": led.read_manifest(g).game, "side": "england",
                    "step": 0, "kind": "card", "card": {"play": card}}
            path = tmp_path / f"{g.name}-{card}.asc"
            path.write_text(core_game.write_order(g, keys["england"], "england", 0, body), encoding="ascii")
            orders.append(path)
    assert len({p.name.split("-", 1)[1] for p in orders}) > 5  # many different cards ...
    assert len(_sizes(orders)) == 1  # ... one size


def test_protocol_4_4_padding_is_a_multiple_of_the_bucket_and_strict() -> None:
    a, b = identity.generate("a"), identity.generate("b")
    bucket = envelope.PAD_BUCKETS["order"]
    fields = {"game": "g", "kind": "order", "side": "north", "step": 0}
    sizes = {len(envelope.seal(a, [b.public], bytes(n), **fields)) for n in (0, 1, 100, bucket - 4)}
    assert len(sizes) == 1
    assert len(envelope.seal(a, [b.public], bytes(bucket - 3), **fields)) == sizes.pop() + bucket
    good = envelope.pad("order", b"hello")
    assert envelope.open_sealed(envelope.parse(envelope.seal_plaintext(a, [b.public], good, **fields)), b) == b"hello"
    for bad in (b"hello", good[:-1], good[:-1] + b"\x01", b"\x00\x00\x00\x04" + good[4:],
                bytes(4) + bytes(bucket * 2 - 4), b"\xff\xff\xff\xff" + good[4:]):
        env = envelope.parse(envelope.seal_plaintext(a, [b.public], bad, **fields))
        with pytest.raises(FormatError, match="padded"):
            envelope.open_sealed(env, b)
