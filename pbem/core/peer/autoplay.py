"""A whole peer game between bots through the real files: one folder per side, every message written by
the side's own client (``folder.write_owed``) and taken into every other side's folder (``folder.take``).

Used by ``pbem demo --no-referee`` (demo.py) and the tests; the game's bot is a callback, so the core
names no game. An *exchange* is one pass in which every side sends what it owes at once (what the post
would carry in one trip; a message that needs another side's is a trip later): the count is what
docs/round-trips.md calls exchanges.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.core import atomic, inputs
from pbem.core.identity import PrivateIdentity
from pbem.core.peer import chain, folder
from pbem.core.peer.rounds import Outcome
from pbem.core.peer.rules import Facts
from pbem.core.records import field, record

# The bot: (side, the public state, what the side may read: the facts revealed and its own) -> its order
# (None: the side owes no choice now, its commit carries no order).
Bot = Callable[[str, dict[str, Any], Facts], Any]


# The exchanges counted apart from the turns: the final openings, and a deal's passes (a game that deals each
# year, as Hammer does, deals once a year, not once a turn: protocol §13.11).
DEALT_APART = frozenset({"final", "shuffle", "lock", "keys"})


@record
class Played:
    """What a whole game gave: the exchanges (``setup`` of them before the first entry, for a later deal or for
    the final openings), the entries, the last outcome (in the first side's folder)."""

    exchanges: int
    setup: int
    entries: int
    outcome: Outcome
    clock: int  # the clock of the last pass
    parts: dict[str, int] = field(default_factory=dict)  # passes counted apart by ``part`` (a Winter Turn's)


def opened(dirs: Mapping[str, Path], keys: Mapping[str, PrivateIdentity], ruleset: str, scenario: str,
           options: Mapping[str, Any], hours: int, length: int = chain.DEFAULT_LENGTH) -> None:
    """A new game with no referee, opened by the first side, its manifest copied into every other side's
    folder (what each player does by hand, docs/playing.md)."""
    sides = list(dirs)
    folder.open_game(dirs[sides[0]], ruleset, scenario, dict(options), {s: keys[s].public for s in sides}, hours,
                     length=length)
    for s in sides[1:]:
        dirs[s].mkdir(parents=True)
        atomic.write_atomic(dirs[s] / folder.MANIFEST, inputs.read_input(dirs[sides[0]] / folder.MANIFEST, folder.LIMIT,
                                                                         "a game manifest"))


def send(dirs: Mapping[str, Path], side: str, text: str) -> dict[str, Outcome]:
    """A message of ``side`` taken into every other side's folder (its own client took it already); each
    other folder's outcome, as its take computed it."""
    return {other: folder.take(d, text.encode("ascii"), f"the message of {side}")[1]
            for other, d in dirs.items() if other != side}


def join_all(dirs: Mapping[str, Path], keys: Mapping[str, PrivateIdentity], clock: int | None = None) -> None:
    """Every side's join, taken by every other side."""
    for side, d in dirs.items():
        send(dirs, side, folder.write_join(d, keys[side], side, clock))


def play(dirs: Mapping[str, Path], keys: Mapping[str, PrivateIdentity], bot: Bot, clock: int = 1_700_000_000,
         limit: int = 2000, post: Callable[[str, str], str] | None = None, quiet: Sequence[str] = (),
         until: Callable[[Outcome], bool] | None = None, part: Callable[[dict[str, Any]], str] | None = None) -> Played:
    """Join every side, then pass after pass each side sends what it owes, until the game ends or nobody
    sends. ``post(side, text)``: what the others receive (the tests' cheats); ``quiet``: sides that have
    stopped answering."""
    join_all(dirs, keys, clock)
    return run(dirs, keys, bot, clock, limit, post, quiet, until, part)


def run(dirs: Mapping[str, Path], keys: Mapping[str, PrivateIdentity], bot: Bot, clock: int, limit: int = 2000,
        post: Callable[[str, str], str] | None = None, quiet: Sequence[str] = (),
        until: Callable[[Outcome], bool] | None = None, part: Callable[[dict[str, Any]], str] | None = None,
        ) -> Played:
    """Pass after pass from where the folders are (every side joined). A pass is one trip of the post: each
    side sends every message it can write from what it holds (its play, then, once its own reveal completes an
    entry, its commit for the next), and the others receive them all at the pass's end, so a message that
    answers another side's is always a pass later. ``until(outcome)``: stop before the pass that would start
    from that outcome of the first side's folder (a bench that plays one year). ``part(state)``: the part of the
    game a pass starting at that state belongs to, when it is counted apart from the turns ("" for a turn)."""
    exchanges = setup = 0
    parts: dict[str, int] = {}
    first = next(iter(dirs))
    latest: dict[str, Outcome] = {}  # a folder's outcome as its last take computed it, while nothing else changed it
    for _ in range(limit):
        before = latest[first] = latest.get(first) or folder.outcome(dirs[first])
        if until is not None and until(before):
            break
        mail: list[tuple[str, str]] = []
        for side, d in dirs.items():
            wrote: set[tuple[int, str]] = set()
            while True:
                out = latest.get(side) or folder.outcome(d)
                owed = out.owes.get(side, "")
                slot = (len(out.entries), owed)
                if out.verdict or not owed or side in quiet or slot in wrote:
                    break
                order = None
                if owed in folder.ORDERED:
                    order = bot(side, out.state, Facts(out.revealed, out.owners, folder.own(d, keys[side], out)))
                _, text = folder.write_owed(d, keys[side], order, clock)
                wrote.add(slot)
                latest.pop(side, None)  # its own message changed its folder
                mail.append((side, post(side, text) if post is not None else text))
        if not mail:
            break
        for side, text in mail:
            latest.update(send(dirs, side, text))
        exchanges += 1
        apart = not before.entries or set(before.owes.values()) <= DEALT_APART
        setup += apart
        named = part(before.state) if part is not None and not apart else ""
        if named:
            parts[named] = parts.get(named, 0) + 1
        clock += 60
    out = folder.outcome(dirs[first])
    return Played(exchanges, setup, len(out.entries), out, clock, parts)


def entry_kinds(game_dir: Path) -> list[str]:
    """The kind of every entry of a folder's record, in order."""
    ledger = Path(game_dir) / "ledger"
    return [json.loads(inputs.read_text_input(p, folder.LIMIT, "an entry of the record"))["kind"]
            for p in sorted(ledger.iterdir())]
