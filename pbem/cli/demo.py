"""``pbem demo``: a whole game between bots through the full protocol, then verify and audit.

The game is the ruleset's (``--ruleset``, default Hammer); its player side plays it (protocol
§10.2), so this verb names no game. Only this command reads the clock (to print how long it
took); the game runs on a clock of its own, so it is the same on every run.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.seam import DEFAULT_RULESET, player_named
from pbem.core.errors import FormatError


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
    no_referee: Annotated[bool, typer.Option("--no-referee", help="Play with no referee (protocol §13): one "
                                             "folder per side, each side's secrets in its own.")] = False,
) -> None:
    """Play a whole game bot against bot through the full protocol, then verify and audit it."""
    player = player_named(ruleset)
    if no_referee:
        _no_referee(folder, ruleset, scenario or player.default_scenario)
        return
    chosen = (england, scotland)
    scenario = scenario or player.default_scenario
    check_folder(folder)
    player.check_demo(scenario, players, chosen)
    where = folder or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    say(player.demo_title(scenario, chosen))
    started = time.monotonic()
    from pbem.core import seen
    with seen.paused():  # the demo's game runs on its own clock: its bots' first sights are that clock's
        result = player.demo(where, scenario, players, chosen, seed.encode())
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


def _no_referee(folder: Path | None, ruleset: str, scenario: str) -> None:
    """The game with no referee: the ruleset's peer bots, one folder per side (pbem.core.peer.demo)."""
    from pbem.core.peer import demo as peer_demo
    check_folder(folder)
    where = folder or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    say(f"{ruleset} ({scenario}) with no referee: two bots, one folder each (protocol §13)")
    started = time.monotonic()
    result = peer_demo.play(where, ruleset, scenario, {})
    for line in result.lines:
        say(line)
    say(f"time taken: {time.monotonic() - started:.1f}s")
    for problem in result.problems:
        say(f"problem: {problem}")
    if not (result.verified and result.audited):
        raise typer.Exit(code=1)
