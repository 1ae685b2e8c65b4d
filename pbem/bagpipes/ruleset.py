"""Swords and Bagpipes as a pbem ruleset (docs/protocol.md §10): the rules (pbem.bagpipes.rules) and the
seam's two other sides, the player's (``player()``, pbem.bagpipes.player, protocol §10.2) and the
no-referee game's (``peer()``, pbem.bagpipes.peer, protocol §13.10).

``pbem.core.ruleset.load(name, options)`` builds the instance with ``BagpipesRuleset.for_options(options)``
whenever a manifest is at hand (protocol §10.1). Nothing below this module imports it: the player side
and the demos run ``BagpipesRules`` (the dependency runs one way, tests/hammer/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.bagpipes.components import parse_components
from pbem.bagpipes.rules import BagpipesRules


class BagpipesRuleset(BagpipesRules):
    """The referee's and players' entry to the game: the rules, and the seam's player and peer sides."""

    @staticmethod
    def check_components(data: bytes, where: str) -> list[str]:
        """The ruleset's tool hook for ``pbem components check FILE``: the file checked as at game open,
        then every card played once in a sandbox and what it did (pbem.bagpipes.cardcheck)."""
        from pbem.bagpipes.cardcheck import describe
        return describe(parse_components(data, where))

    def peer(self) -> Any:
        """The no-referee seam (protocol §13.10): pbem.bagpipes.peer.BagpipesPeer; the seats play without
        the ``referee`` side (a manual card has no effect with no referee, docs/bagpipes-peer.md)."""
        from pbem.bagpipes.peer import BagpipesPeer
        return BagpipesPeer.of(self.players, self.components)

    def player(self) -> Any:
        """The player's side of the seam (protocol §10.2): pbem.bagpipes.player.BagpipesPlayer."""
        from pbem.bagpipes.player import BagpipesPlayer
        return BagpipesPlayer()


def ruleset_for(options: Mapping[str, Any], components: Path | None = None) -> BagpipesRuleset:
    return BagpipesRuleset.for_options(options, components)
