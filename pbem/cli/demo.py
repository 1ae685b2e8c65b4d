"""``pbem demo``: a whole game between bots through the full protocol, then verify and audit.

The game is the ruleset's (``--ruleset``, default Hammer); its player side plays it (protocol
§10.2), so this verb names no game. Only this command reads the clock (to print how long it
took); the game runs on a clock of its own, so it is the same on every run.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.seam import DEFAULT_RULESET, player_named
from pbem.core.errors import FormatError
from pbem.core.ruleset import DemoResult


def check_folder(folder: Path | None) -> None:
    """Refuse before anything is written: the demo makes new keys, so it never plays in a used folder."""
    if folder is not None and folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FormatError(f"--folder {folder} is not a new or empty folder; the demo writes new keys and a new game "
                          "there, and never over other files.", hint="give a new folder name")


@fails_cleanly
def demo(
    folder: Annotated[Path | None, typer.Option("--folder", help="Where to play (default: a new "
                                                "temporary folder, kept so you can look).")] = None,
    ruleset: Annotated[str, typer.Option("--ruleset", help="The game to play (hammer or bagpipes).")] = DEFAULT_RULESET,
    scenario: Annotated[str, typer.Option("--scenario", help="A scenario of the ruleset (hammer: braveheart, "
                                          "the_bruce or campaign; default: the ruleset's).")] = "",
    players: Annotated[int, typer.Option("--players", show_default=False,
                                         help="How many players, for a game that seats a choice of them "
                                              "(bagpipes: 2 to 6; default: the ruleset's).")] = 0,
    england: Annotated[str, typer.Option("--england",
                                         help="Hammer: bot for England (random or simple).")] = "simple",
    scotland: Annotated[str, typer.Option("--scotland",
                                          help="Hammer: bot for Scotland (random or simple).")] = "simple",
    seed: Annotated[str, typer.Option("--seed", help="Text that seeds the bots' choices.")] = "demo",
    no_referee: Annotated[bool, typer.Option("--no-referee", help="Play with no referee at all: one folder per "
                                             "side, each side's client computes the record (protocol §13).")] = False,
) -> None:
    """Play a whole game bot against bot through the full protocol, then verify and audit it."""
    player = player_named(ruleset)
    chosen = (england, scotland)
    scenario = scenario or player.default_scenario
    check_folder(folder)
    player.check_demo(scenario, players, chosen)
    peer_demo = (getattr(player, "peer_demo", None) or _seam_demo(ruleset)) if no_referee else None
    where = folder or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    say(player.demo_title(scenario, chosen) if peer_demo is None else "A game with no referee: one folder and "
        "one client per side, hidden facts on their owners' machines, cards from a mental deal ...")
    started = time.monotonic()
    from pbem.core import seen
    with seen.paused():  # the demo's game runs on its own clock: its bots' first sights are that clock's
        result = (peer_demo or player.demo)(where, scenario, players, chosen, seed.encode())
    took = time.monotonic() - started
    for line in result.lines:
        say(line)
    say(f"time taken: {took:.1f}s")
    for line in result.footer:
        say(line)
    for problem in result.problems:
        say(f"problem: {problem}")
    if not (result.verified and result.audited):
        raise typer.Exit(code=1)



def _seam_demo(ruleset: str) -> Callable[[Path, str, int, tuple[str, ...], bytes], DemoResult]:
    """The core's peer demo with the bot the ruleset's hidden-fact seam offers (pbem.core.peer.demo); it
    refuses in one sentence a ruleset with no such bot."""
    def play(where: Path, scenario: str, players: int, bots: tuple[str, ...], seed: bytes) -> DemoResult:
        from pbem.core.peer import demo as peer_demo
        return peer_demo.play(where, ruleset, scenario, {})
    return play
