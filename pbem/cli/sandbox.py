"""``pbem sandbox``: load a position, apply some orders or fight a battle, print the result.

A workbench for players and rules questions, outside any game: no keys, no ledger. The output
is itself a position file (the log of what happened as ``#`` comments on top), so runs chain.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly
from pbem.cli.files import read_text, write_output
from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError
from pbem.hammer import engine
from pbem.hammer.blocks import SIDES
from pbem.hammer.battle_log import format_entry
from pbem.hammer.board import board
from pbem.hammer.decisions import FirstOption, Question, Scripted
from pbem.hammer.errors import InvalidOrder, PbemError
from pbem.hammer.position import dump_position, load_position
from pbem.hammer.state import Battle, GameState

DEFAULT_KEY = hashlib.sha256(b"pbem-sandbox").digest()
ORDER_KEYS = ("side", "answers")


class DiceRunOut(PbemError):
    """The scripted dice are used up."""


class ListedDice:
    """Dice from ``--dice`` in order; anything else random (shuffles, draws) from a seeded stream."""

    def __init__(self, dice: list[int], stream: Drbg) -> None:
        self.dice = list(dice)
        self.given = len(dice)
        self.stream = stream
        self.used = 0

    def d6(self) -> int:
        if not self.dice:
            raise DiceRunOut(f"--dice: more dice are needed than the {self.given} given")
        self.used += 1
        return self.dice.pop(0)

    def d6_at(self) -> tuple[int, int]:
        value = self.d6()
        return value, self.used - 1

    def randbelow(self, n: int) -> int:
        return self.stream.randbelow(n)

    def word(self) -> int:
        return self.stream.word()

    def shuffled(self, items: Any) -> list[Any]:
        return self.stream.shuffled(items)


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


def stream_of(seed: str | None) -> Drbg:
    if seed is None:
        return Drbg(DEFAULT_KEY)
    try:
        key = bytes.fromhex(seed)
    except ValueError:
        raise InvalidOrder(f"--seed {seed}: not hexadecimal") from None
    if len(key) < 16:
        raise InvalidOrder(f"--seed {seed}: give at least 16 bytes (32 hex digits)")
    return Drbg(key)


def read_orders(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path, "an orders file"))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOrder(f"orders {path}: not valid TOML ({exc})") from None


class Recording:
    """A decider that answers from the orders file's ``[answers]``, then takes the first option,
    and remembers every question so the log shows what was decided."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.inner = Scripted(answers, fallback=FirstOption())
        self.log: list[str] = []

    def decide(self, question: Question) -> str:
        answer = self.inner.decide(question)
        self.log.append(f"{question.side} asked {question.kind} ({question.rule}): "
                        f"{', '.join(question.options)} -> {answer}")
        return answer


def sandbox(
    position: Annotated[Path, typer.Argument(help="A position file (docs/positions.md).")],
    orders: Annotated[Path | None, typer.Option("--orders", help="A TOML file with one side's moves "
                                                "and/or [answers] to questions.")] = None,
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
    try:
        state = load_position(position)
    except UnicodeDecodeError:
        raise FormatError(f"{position} is not UTF-8 text, so it is not a position file.") from None
    stream = stream_of(seed)
    rng: Any = ListedDice(parse_dice(dice), stream) if dice is not None else stream
    data = read_orders(orders) if orders is not None else {}
    side = side or data.get("side")
    if side is not None and side not in SIDES:
        raise InvalidOrder(f"--side {side}: expected england or scotland")
    answers = data.get("answers", {})
    if not isinstance(answers, dict) or any(s not in SIDES or not isinstance(a, list) for s, a in answers.items()):
        raise InvalidOrder(f"orders {orders}: [answers] maps england/scotland to lists of answers")
    decider = Recording({s: [str(x) for x in a] for s, a in answers.items()})
    log: list[str] = []
    moves = {k: v for k, v in data.items() if k not in ORDER_KEYS}
    if moves:
        if side is None:
            raise InvalidOrder(f"orders {orders}: say whose moves these are with --side or side = \"...\"")
        log += [_line(e) for e in engine.apply_moves_order(state, side, moves)]
        if side not in state.current.moves_done:
            state.current.moves_done.append(side)
        log.append(f"{side} moved")
    if battle is not None:
        _ensure_battle(state, battle, side)
        log += [format_entry(e) for e in engine.fight_battle(state, battle, rng, decider)]
    if decider.log:
        log += ["decisions, in order:"] + [f"  {line}" for line in decider.log]
    if isinstance(rng, ListedDice) and rng.dice:
        log.append(f"{len(rng.dice)} of the {rng.given} dice given were not needed")
    text = "".join(f"# {line}\n" for line in log) + dump_position(state)
    if out is not None:
        write_output(out, dump_position(state))
    typer.echo(text, nl=False)


def _ensure_battle(state: GameState, area: str, side: str | None) -> None:
    """A contested area with no battle record gets one: the attacker is --side, else Player 1."""
    if area in state.current.battles:
        return
    if area not in board().areas:
        raise InvalidOrder(f"--battle {area}: {area!r} is not an area of the map (1.1)")
    if state.control(area) != "contested":
        raise InvalidOrder(f"--battle {area}: no battle there; both sides must have blocks in {area} (5.0)")
    attacker = side or state.current.player1 or "england"
    state.current.battles[area] = Battle(area=area, attacker=attacker, main=state.blocks_in(area, attacker))


def _line(entry: dict[str, Any]) -> str:
    if "text" in entry:
        return str(entry["text"])
    parts = [f"{k}={_fmt(v)}" for k, v in sorted(entry.items()) if k not in ("what", "public")]
    return f"{entry.get('what', '')}: " + " ".join(parts)


def _fmt(value: Any) -> str:
    """Blocks as ``Name:strength``, anything else as it is (battle lines use battle_log)."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        if all("block" in v and "strength" in v for v in value):
            return ",".join(f"{v['block']}:{v['strength']}" for v in value)
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "-"
    return str(value)
