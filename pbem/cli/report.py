"""Player verb: ``pbem report open`` shows one side's report and writes its SVG map.

The text and the picture come from the side's report only (render.py, svg.py), so they cannot
show what the report does not carry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly
from pbem.cli.files import record_file_of_a_game, write_output
from pbem.cli.orders import PassOpt, ReportGameOpt, open_report, reading
from pbem.hammer import render
from pbem.hammer.svg import render_svg

report_app = typer.Typer(no_args_is_help=True, help="Player: read your reports.")


@report_app.command("open")
@fails_cleanly
def open_(
    file: Annotated[Path, typer.Argument(help="A report sealed to you.")],
    key: Annotated[Path | None, typer.Option("--key", help="Your private key file.")] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Also save the opened report as JSON "
                                              "(for orders new/check/auto without the key).")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Where to write the map (default: beside "
                                             "the report, .svg; in the current folder when the report "
                                             "is in a game's record).")] = None,
    passphrase_file: PassOpt = None,
    game: ReportGameOpt = None,
) -> None:
    """Show your view: the board, the cards played, battle logs with dice, what is asked next."""
    rep = open_report(file, key, passphrase_file, game)
    with reading(rep):
        text, picture = render_report(rep), svg_of(rep)
    typer.echo(text)
    if save is not None:
        write_output(save, json.dumps(rep, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "--save")
    out = svg or default_svg(file)
    write_output(out, picture, "--svg")
    typer.echo(f"map written to {out}")


def default_svg(report: Path) -> Path:
    """Beside the report, unless that is inside a game's record (which takes no other file,
    protocol §7): then in the current folder."""
    beside = report.with_name(report.name + ".svg")
    return Path(beside.name) if record_file_of_a_game(beside) is not None else beside


def render_report(rep: dict[str, Any]) -> str:
    """The report as text (render.py), under a line naming game, side and step, over a line
    saying what to do next."""
    lines = [f"game {rep.get('game', '')} - {rep.get('side', '')} - step {rep.get('step', '')}",
             render.render_report(rep).rstrip("\n")]
    result = rep.get("result", {})
    if result.get("winner"):
        lines.append(f"GAME OVER: {result['winner']} wins ({result.get('reason', '')})")
    elif rep.get("asks"):
        lines.append(f"next: pbem orders new THIS_REPORT --key KEY --out DRAFT  ({rep['asks']} orders "
                     f"for step {rep.get('step')})")
    else:
        owes = rep.get("owes", {})
        lines.append("you owe nothing now; waiting for " + (", ".join(sorted(owes)) or "nobody"))
    return "\n".join(lines)


def svg_of(rep: dict[str, Any]) -> str:
    """The SVG schematic map of this side's view."""
    return str(render_svg(render.report_view(rep)))
