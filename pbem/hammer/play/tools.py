"""Hammer's rules workbench, offered to the CLI through the ruleset seam (protocol §10.2, ``Tool``):
``pbem sandbox`` and ``pbem odds``, outside any game (no keys, no ledger).

``sandbox``: load a position, apply some orders or fight a battle, print the result. The output is
itself a position file (the log of what happened as ``#`` comments on top), so runs chain. Questions
the ``[answers]`` leave open take the referee's defaults (docs/battles.md). A rules case
(docs/cases.md) given alone runs its own steps and says whether it came out as expected.

``odds``: the exact outcome distribution of one battle (pbem.hammer.show.odds, docs/battles.md "Odds").

Files are read and written through the ``ToolIO`` the CLI hands in, so this module needs no CLI one.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.core.ruleset import Tool, ToolIO, ToolParam
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.errors import DataError, InvalidOrder

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


def read_orders(io: ToolIO, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(io.read_text(path, "an orders file"))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOrder(f"orders {path}: not valid TOML ({exc})") from None


def _path(value: Any) -> Path | None:
    return None if value is None else Path(value)


# --- sandbox ----------------------------------------------------------------------------------------

def sandbox(values: Mapping[str, Any], io: ToolIO) -> None:
    """Load a position, apply moves and/or fight a battle, and print the resulting position."""
    from pbem.core.drbg import RandomStream  # start-up: a tool loads what it runs when it runs
    from pbem.hammer.play.cases import ListedDice, Recording, ensure_battle, line, split_case, stream_of  # start-up
    from pbem.hammer.rules import engine  # start-up: a tool loads what it runs when it runs
    from pbem.hammer.show.battle_log import format_entry  # start-up: a tool loads what it runs when it runs

    position, orders = Path(values["position"]), _path(values.get("orders"))
    side, battle, dice = values.get("side"), values.get("battle"), values.get("dice")
    seed, out = values.get("seed"), _path(values.get("out"))
    text = io.read_text(position, "a position file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"position {position}: not valid TOML ({exc})") from None
    state, case = split_case(data, str(position))
    if case is not None and orders is None and battle is None and dice is None and side is None:
        _run_case(io, state, case, out)
        return
    stream = stream_of(seed)
    rng: RandomStream = ListedDice(parse_dice(dice), stream) if dice is not None else stream
    data = read_orders(io, orders) if orders is not None else {}
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
    _print(io, log, state, out)


def _run_case(io: ToolIO, state: Any, case: Any, out: Path | None) -> None:
    """A rules case (docs/cases.md): run its steps, print what happened and whether it came out
    as the case expects; exit 1 when it did not."""
    from pbem.hammer.play.cases import mismatches, run_case  # start-up: a tool loads what it runs when it runs
    outcome = run_case(state, case)
    wrong = mismatches(outcome, case)
    log = [f"case {case.rule}: {case.shows}"] + outcome.lines
    log += [f"expected: {w}" for w in wrong] or ["as expected"]
    _print(io, log, outcome.state, out)
    if wrong:
        raise DataError(f"case {case.rule}: {len(wrong)} expectation(s) not met: {wrong[0]}")


def _print(io: ToolIO, log: list[str], state: Any, out: Path | None) -> None:
    from pbem.hammer.play.position import dump_position  # start-up: a tool loads what it runs when it runs
    text = "".join(f"# {entry}\n" for entry in log) + dump_position(state)
    if out is not None:
        io.write(out, dump_position(state))
    io.say(text, nl=False)


# --- odds -------------------------------------------------------------------------------------------

def odds(values: Mapping[str, Any], io: ToolIO) -> None:
    """Compute a battle's exact odds: who wins, retreats, each block's survival and expected steps."""
    from pbem.hammer.play.cases import load_battle  # start-up: a tool loads what it runs when it runs
    from pbem.hammer.show.odds import battle_odds, format_odds  # start-up: a tool loads what it runs when it runs

    position, area, side, plans = Path(values["position"]), values["battle"], values.get("side"), \
        _path(values.get("plans"))
    if side is not None and side not in ("england", "scotland"):
        raise InvalidOrder(f"--side {side}: expected england or scotland")
    standing: dict[str, Any] = {}
    if plans is not None:
        try:
            raw = tomllib.loads(io.read_text(plans, "a plans file"))
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"--plans {plans}: not valid TOML ({exc})") from None
        for key, value in raw.items():
            if key not in ("england", "scotland") or not isinstance(value, dict):
                raise InvalidOrder(f"--plans {plans}: {key}: expected [england.plans] or [scotland.plans] tables")
            standing[key] = value
    io.read_text(position, "a position file")
    state, decider = load_battle(str(position), area, side, standing)
    result = battle_odds(state, area, decider)
    if values.get("as_json"):
        io.say(json.dumps(result.to_dict(), indent=1, sort_keys=True))
    else:
        io.say(format_odds(result), nl=False)


SIDE_HELP = "The side the orders are for: england or scotland."
TOOLS = (
    Tool("sandbox", sandbox.__doc__ or "", (
        ToolParam("position", "A position file (docs/positions.md).", kind="path", required=True),
        ToolParam("orders", "A TOML file with one side's moves and/or its answers to questions (an answers table).",
                  "--orders", "path"),
        ToolParam("side", SIDE_HELP, "--side"),
        ToolParam("battle", "Fight the battle in this area.", "--battle"),
        ToolParam("dice", "The dice to roll, in order: 3,5,1,...", "--dice"),
        ToolParam("seed", "Hex key of the random stream for any chance not given by --dice.", "--seed"),
        ToolParam("out", "Also write the resulting position here.", "--out", "path"),
    ), sandbox),
    Tool("odds", odds.__doc__ or "", (
        ToolParam("position", "A position file or a rules case (docs/positions.md).", kind="path", required=True),
        ToolParam("battle", "The area whose battle to compute.", "--battle", required=True),
        ToolParam("side", "The attacker, when the position has no battle record there (default: Player 1).",
                  "--side"),
        ToolParam("plans", "A TOML file with each side's standing plans: [england.plans], [scotland.plans] "
                           "(docs/plans.md).", "--plans", "path"),
        ToolParam("as_json", "Print the odds as JSON.", "--json", "switch"),
    ), odds),
)
