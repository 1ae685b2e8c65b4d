"""How the CLI finds a game's rules and player side: through the ruleset registry only.

The CLI imports no game (tests/core/test_layering.py). It names one only as a string: the
default ``--ruleset`` of ``game new/open`` and ``demo``, which is also the ruleset of a report
that does not say (reports saved before they carried a ``ruleset`` field were all of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.cli.lazy import lazy
from pbem.core.errors import FormatError

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import ruleset as rs
else:
    rs = lazy("pbem.core.ruleset")  # imported on first use (docs/architecture.md "Start-up")

DEFAULT_RULESET = "hammer"


def ruleset_of_report(report: Mapping[str, Any]) -> str:
    """The ruleset a report belongs to: its ``ruleset`` field (set from the manifest when a sealed
    report is opened, and so saved with it by ``report open --save``), else the ruleset a default
    game id starts with (``<ruleset>-<hex>``), else the default ruleset."""
    name = report.get("ruleset")
    if isinstance(name, str) and name:
        return name
    prefix = str(report.get("game", "")).split("-", 1)[0]
    return prefix if prefix in rs.registered() else DEFAULT_RULESET


def player_of_report(report: Mapping[str, Any]) -> rs.PlayerSide:
    """The player side (protocol §10.2) of the report's game."""
    return player_named(ruleset_of_report(report))


def player_named(name: str) -> rs.PlayerSide:
    """The player side of the ruleset registered under ``name``; one sentence when it is unknown."""
    if name not in rs.registered():
        raise FormatError(f"unknown ruleset {name!r}; known: {', '.join(rs.registered())} (protocol §10).")
    return rs.player_of(rs.load(name))
