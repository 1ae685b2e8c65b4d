"""Where a game stands, read from the public record alone (docs/protocol.md §7).

Apart from ``pbem.core.game`` so that ``pbem status`` loads the ledger and nothing else of the
protocol (docs/architecture.md "Start-up"); ``pbem.core.game.status`` is this function.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core import ledger as led


def status(game_dir: Path) -> dict[str, Any]:
    """Where the game stands, from the public record: the step owed, who owes what, the result."""
    man = led.read_manifest(Path(game_dir))
    entry = led.latest(Path(game_dir), man)
    return {"game": man.game, "step": entry.number, "owes": dict(entry.owes), "result": entry.result,
            "board": entry.board, "entry_hash": entry.hash, "deadline": entry.deadline, "written": entry.written,
            "hours": man.deadline_hours}
