"""The commands a player runs next on a draft, spelled once for every game (the CLI's own verbs)."""

from __future__ import annotations

from typing import Any


def next_commands(report: dict[str, Any], draft_path: str = "", report_path: str = "", key: str = "",
                  game_dir: str = "") -> str:
    """The check and seal commands for this draft, with the real file names (placeholders only
    for what is not known: the draft printed to the screen has no file yet)."""
    side, step = report.get("side", ""), int(report.get("step") or 0)
    draft = draft_path or f"orders-{step:04d}-{side}.toml"
    rep = report_path or f"reports/{step:04d}-{side}.pbem"
    with_key = f" --key {key}" if key else ""
    with_game = f" --game {game_dir}" if game_dir else ""  # the report is checked against it too
    return (f"pbem orders check {draft} --report {rep}{with_key}{with_game}; "
            f"pbem orders seal {draft}{with_key} --game {game_dir or 'GAME'} --out {step:04d}-{side}-orders.asc")
