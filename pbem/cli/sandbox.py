"""``pbem sandbox``: load a position, apply some orders or fight a battle, print the result.

A workbench for players and rules questions, outside any game: no keys, no ledger. The output
is itself a position file (the log of what happened as ``#`` comments on top), so runs chain.
Questions the ``[answers]`` leave open take the referee's defaults (docs/battles.md). A rules
case (docs/cases.md) given alone runs its own steps and says whether it came out as expected.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import read_text, write_output
from pbem.core.drbg import RandomStream
from pbem.hammer import engine
from pbem.hammer.battle_log import format_entry
from pbem.hammer.blocks import SIDES
from pbem.hammer.cases import (
    Case,
    ListedDice,
    Recording,
    ensure_battle,
    line,
    mismatches,
    run_case,
    split_case,
    stream_of,
)
from pbem.hammer.errors import DataError, InvalidOrder
from pbem.hammer.position import dump_position
from pbem.hammer.state import GameState

ORDER_KEYS = ("side", "answers")


def parse_dice(text: str) -> list[int]:
    """``"3,5,1"`` -> [3, 5, 1]; every die 1-6."""
    out = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise InvalidOrder(f"--dice {text}: {part!r} is not a die roll 1-6")
        out.append(int(part))
    if not out:
        raise InvalidOrder(f"--dice {text!r}: no dice given")
    return out


def read_orders(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path, "an orders file"))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOrder(f"orders {path}: not valid TOML ({exc})") from None


def sandbox(
    position: Annotated[Path, typer.Argument(help="A position file (docs/positions.md).")],
    orders: Annotated[Path | None, typer.Option("--orders", help="A TOML file with one side's moves "
                                                "and/or its answers to questions (an answers table).")] = None,
    side: Annotated[str | None, typer.Option("--side", help="The side the orders are for: england "
                                             "or scotland.")] = None,
    battle: Annotated[str | None, typer.Option("--battle", help="Fight the battle in this area.")] = None,
    dice: Annotated[str | None, typer.Option("--dice", help="The dice to roll, in order: 3,5,1,...")] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="Hex key of the random stream for any "
                                             "chance not given by --dice.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Also write the resulting position here.")] = None,
) -> None:
    """Load a position, apply moves and/or fight a battle, and print the resulting position."""
    _run(position, orders, side, battle, dice, seed, out)


@fails_cleanly
def _run(position: Path, orders: Path | None, side: str | None, battle: str | None, dice: str | None,
         seed: str | None, out: Path | None) -> None:
    text = read_text(position, "a position file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"position {position}: not valid TOML ({exc})") from None
    state, case = split_case(data, str(position))
    if case is not None and orders is None and battle is None and dice is None and side is None:
        _run_case(state, case, out)
        return
    stream = stream_of(seed)
    rng: RandomStream = ListedDice(parse_dice(dice), stream) if dice is not None else stream
    data = read_orders(orders) if orders is not None else {}
    side = side or data.get("side")
    if side is not None and side not in SIDES:
        raise InvalidOrder(f"--side {side}: expected england or scotland")
    answers = data.get("answers", {})
    if not isinstance(answers, dict) or any(s not in SIDES or not isinstance(a, list) for s, a in answers.items()):
        raise InvalidOrder(f"orders {orders}: [answers] maps england/scotland to lists of answers")
    decider = Recording({s: [str(x) for x in a] for s, a in answers.items()}, state=state)
    log: list[str] = []
    moves = {k: v for k, v in data.items() if k not in ORDER_KEYS}
    if moves:
        if side is None:
            raise InvalidOrder(f"orders {orders}: say whose moves these are with --side or side = \"...\"")
        log += [line(e) for e in engine.apply_moves_order(state, side, moves)]
        if side not in state.current.moves_done:
            state.current.moves_done.append(side)
        log.append(f"{side} moved")
    if battle is not None:
        ensure_battle(state, battle, side)
        log += [format_entry(e) for e in engine.fight_battle(state, battle, rng, decider)]
    if decider.log:
        log += ["decisions, in order:"] + [f"  {entry}" for entry in decider.log]
    if isinstance(rng, ListedDice) and rng.dice:
        log.append(f"{len(rng.dice)} of the {rng.given} dice given were not needed")
    _print(log, state, out)


def _run_case(state: GameState, case: Case, out: Path | None) -> None:
    """A rules case (docs/cases.md): run its steps, print what happened and whether it came out
    as the case expects; exit 1 when it did not."""
    outcome = run_case(state, case)
    wrong = mismatches(outcome, case)
    log = [f"case {case.rule}: {case.shows}"] + outcome.lines
    log += [f"expected: {w}" for w in wrong] or ["as expected"]
    _print(log, outcome.state, out)
    if wrong:
        raise DataError(f"case {case.rule}: {len(wrong)} expectation(s) not met: {wrong[0]}")


def _print(log: list[str], state: GameState, out: Path | None) -> None:
    text = "".join(f"# {entry}\n" for entry in log) + dump_position(state)
    if out is not None:
        write_output(out, dump_position(state))
    say(text, nl=False)
