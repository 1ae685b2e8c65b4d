"""``pbem odds POSITION --battle AREA``: the exact outcome distribution of one battle.

The work is pbem.hammer.odds (docs/battles.md "Odds"); this verb reads the files and prints.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say


def odds(
    position: Annotated[Path, typer.Argument(help="A position file or a rules case (docs/positions.md).")],
    battle: Annotated[str, typer.Option("--battle", help="The area whose battle to compute.")],
    side: Annotated[str | None, typer.Option("--side", help="The attacker, when the position has no "
                                             "battle record there (default: Player 1).")] = None,
    plans: Annotated[Path | None, typer.Option("--plans", help="A TOML file with each side's standing "
                                               "plans: [england.plans], [scotland.plans] (docs/plans.md).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON.")] = False,
) -> None:
    """Compute a battle's exact odds: who wins, retreats, each block's survival and expected steps."""
    _run(position, battle, side, plans, as_json)


@fails_cleanly
def _run(position: Path, area: str, side: str | None, plans: Path | None, as_json: bool) -> None:
    from pbem.cli.files import read_text
    from pbem.hammer.errors import InvalidOrder
    from pbem.hammer.odds import battle_odds, format_odds, load_battle

    if side is not None and side not in ("england", "scotland"):
        raise InvalidOrder(f"--side {side}: expected england or scotland")
    standing: dict[str, Any] = {}
    if plans is not None:
        try:
            raw = tomllib.loads(read_text(plans, "a plans file"))
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"--plans {plans}: not valid TOML ({exc})") from None
        for key, value in raw.items():
            if key not in ("england", "scotland") or not isinstance(value, dict):
                raise InvalidOrder(f"--plans {plans}: {key}: expected [england.plans] or [scotland.plans] tables")
            standing[key] = value
    read_text(position, "a position file")
    state, decider = load_battle(str(position), area, side, standing)
    result = battle_odds(state, area, decider)
    if as_json:
        say(json.dumps(result.to_dict(), indent=1, sort_keys=True))
    else:
        say(format_odds(result), nl=False)
