"""Player verb: ``pbem report open`` shows one side's report and writes its SVG map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.game import fails_cleanly
from pbem.cli.orders import open_report, write_text

report_app = typer.Typer(no_args_is_help=True, help="Player: read your reports.")


@report_app.command("open")
@fails_cleanly
def open_(
    file: Annotated[Path, typer.Argument(help="A report sealed to you.")],
    key: Annotated[Path | None, typer.Option("--key", help="Your private key file.")] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Also save the opened report as JSON "
                                              "(for orders new/check/auto without the key).")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Where to write the map (default: beside "
                                             "the report, .svg).")] = None,
) -> None:
    """Show your view: the board, the cards played, battle logs with dice, what is asked next."""
    rep = open_report(file, key)
    typer.echo(render_report(rep))
    if save is not None:
        write_text(save, json.dumps(rep, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    out = svg or file.with_name(file.name + ".svg")
    picture = svg_of(rep)
    if picture:
        write_text(out, picture)
        typer.echo(f"map written to {out}")


def render_report(rep: dict[str, Any]) -> str:
    """The report as text: header, board table (render.py), log, and what is asked."""
    lines = [f"game {rep.get('game', '')} - {rep.get('side', '')} - step {rep.get('step', '')}"]
    pub = rep.get("public", {})
    lines.append(f"year {pub.get('year', '')}, game turn {pub.get('turn', '')}")
    lines.append(_board_text(rep))
    played = pub.get("played", {})
    if any(played.values()):
        lines.append("cards played this year: " + "; ".join(
            f"{s}: {', '.join(c) or '-'}" for s, c in sorted(played.items())))
    for entry in rep.get("log", []):
        lines.append("  " + _log_line(entry))
    result = rep.get("result", {})
    if result.get("winner"):
        lines.append(f"GAME OVER: {result['winner']} wins ({result.get('reason', '')})")
    elif rep.get("asks"):
        lines.append(f"you owe: {rep['asks']} orders for step {rep.get('step')} "
                     "(pbem orders new THIS_REPORT --key KEY)")
        q = rep.get("options", {}).get("question")
        if q:
            lines.append(f"question ({q.get('rule', '')}): {q.get('kind')} {q.get('context', {})}; "
                         f"options: {', '.join(q.get('options', []))}")
    else:
        owes = rep.get("owes", {})
        lines.append("you owe nothing now; waiting for " + (", ".join(sorted(owes)) or "nobody"))
    return "\n".join(lines)


def _board_text(rep: dict[str, Any]) -> str:
    try:
        from pbem.hammer.render import render_view
    except ImportError:
        return _fallback_board(rep)
    return str(render_view(rep["view"]))


def _fallback_board(rep: dict[str, Any]) -> str:
    """A plain table of areas: your blocks with strengths, the enemy's as a count."""
    view = rep.get("view", {})
    rows: dict[str, list[str]] = {}
    for name, b in sorted(view.get("own", {}).items()):
        rows.setdefault(b["location"], []).append(f"{name} {b['strength']}")
    enemy = view.get("enemy", {})
    out = [f"{'area':<14} {'yours':<50} enemy"]
    for area in sorted(set(rows) | set(enemy)):
        if area in ("pool", "dead", "off_map") and area not in rows:
            continue
        out.append(f"{area:<14} {', '.join(rows.get(area, [])):<50} {enemy.get(area, '')}")
    if view.get("hand"):
        out.append("your hand: " + ", ".join(view["hand"]))
    return "\n".join(out)


def _log_line(entry: dict[str, Any]) -> str:
    if "text" in entry:
        return str(entry["text"])
    what = entry.get("what", "")
    if what == "cards":
        return f"cards: {entry.get('cards')}; Player 1: {entry.get('player1')}"
    if what == "moves":
        moves = ", ".join(f"{m['from']}→{m['to']} ({m['count']})" for m in entry.get("moves", []))
        return f"{entry.get('by')} moved: {moves or 'nothing'}"
    return ", ".join(f"{k}={v}" for k, v in sorted(entry.items()) if k not in ("public",))


def svg_of(rep: dict[str, Any]) -> str:
    """The SVG schematic of this view (svg.py), or "" while it is not available."""
    try:
        from pbem.hammer.svg import render_svg
    except ImportError:
        return ""
    return str(render_svg(rep["view"]))
