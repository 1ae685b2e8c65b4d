"""Player verb: ``pbem report open`` shows one side's report (and, when asked, writes its SVG map or HTML page).

The text and the picture come from the side's report only, through the game's player side
(protocol §10.2), so they cannot show what the report does not carry; a game without a picture
writes none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import write_output
from pbem.cli.orders import PassOpt, ReportGameOpt, game_folder, open_report, reading, stale_lines
from pbem.cli.seam import player_of_report

report_app = typer.Typer(no_args_is_help=True, help="Player: read your reports.")


@report_app.command("open")
@fails_cleanly
def open_(
    report: Annotated[Path, typer.Argument(help="A report sealed to you (or one saved with --save).")],
    key: Annotated[Path | None, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file.")] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Also save the opened report as JSON "
                                              "(for orders new/check/auto without the key).")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also write the map as SVG to this file (none is "
                                             "written unless asked: opening a report leaves no file).")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Also write the whole report as one "
                                              "self-contained HTML page (map, summary, board, hand, "
                                              "what you owe and your options; no scripts, no network).")] = None,
    passphrase_file: PassOpt = None,
    game: ReportGameOpt = None,
) -> None:
    """Show your view: the board, the cards played, battle logs with dice, what is asked next."""
    show(report, key, passphrase_file, game, save=save, svg=svg, html=html)


def show(report: Path, key: Path | None, passphrase_file: Path | None, game: Path | None, *,
         save: Path | None = None, svg: Path | None = None, html: Path | None = None) -> None:
    """``report open``: print the report with "since your last report" (``since_opened``), write what
    was asked, and remember it as opened (``pbem inbox`` ends with it too)."""
    rep = open_report(report, key, passphrase_file, game)
    shown = since_opened(rep, report, game, lambda path: open_report(path, key, passphrase_file, game))
    with reading(rep):
        text, picture = render_report(shown, report, key, game), svg_of(shown) if svg is not None else ""
        page = html_of(shown, report, key, game) if html is not None else ""
    say(text)
    warning = _deadline_warning(rep, game or report.parent.parent)
    if warning:
        say(warning)
    if save is not None:
        write_output(save, json.dumps(rep, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "--save")
    if svg is not None and picture:
        write_output(svg, picture, "--svg")
        say(f"map written to {svg}")
    elif svg is not None:
        say(f"no map written: this game has no picture (--svg {svg} ignored)")
    if html is not None and page:
        write_output(html, page, "--html")
        say(f"page written to {html}")
    elif html is not None:
        say(f"no page written: this game has no HTML report (--html {html} ignored)")
    remember_opened(rep, report, game)


def since_opened(rep: dict[str, Any], report: Path, game: Path | None,
                 reopen: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """The report as shown: "since your last report" covers every step since the last report of this
    side opened from this game folder (``GAME/.pbem/opened.json``, pbem.core.opened), not only the
    step just adjudicated. The logs of the reports skipped in between go in ``earlier`` (oldest first,
    each cut of the lines a question's report showed ahead and the next one tells again) and their
    default-order notes first in ``defaults``; a skipped report that cannot be found or opened is
    said in one line. With no game folder at hand, or nothing recorded, only this report's step."""
    from pbem.core import opened
    from pbem.core.errors import PbemError

    folder, step, side = game_folder(report, game), rep.get("step"), rep.get("side")
    last = opened.last(folder, side) if folder is not None and isinstance(side, str) else None
    told: list[str] = []
    logs: list[list[Any]] = []
    missing: list[int] = []
    if folder is not None and last is not None and isinstance(step, int) and last < step - 1:
        for k in range(last + 1, step):
            beside = report.with_name(f"{k:04d}-{side}.pbem")
            try:
                earlier = reopen(beside if beside.is_file() else folder / "reports" / beside.name)
            except (PbemError, OSError):
                missing.append(k)
                continue
            if earlier.get("side") != side or earlier.get("step") != k or earlier.get("game") != rep.get("game"):
                missing.append(k)
                continue
            told += defaults_told(earlier, folder, reopen)
            logs.append(list(earlier.get("log") or []))
    if missing:
        told.insert(0, f"Your reports of step{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                       f"could not be opened from {folder}, so what happened then is not told here.")
    shown = {**rep, "defaults": told + defaults_told(rep, folder or report.parent.parent, reopen)}
    if logs:
        now = list(rep.get("log") or [])
        joined = joined_logs([*logs, now])
        shown["earlier"] = joined[:len(joined) - len(now)]
    return shown


def joined_logs(logs: list[list[Any]]) -> list[Any]:
    """Consecutive reports' logs as one, oldest first, each line told once.

    A report that paused on a question already showed the lines its engine call had written by then;
    the next report tells that call again from its start. So each log loses its longest tail that
    the next one begins with; the newest log is kept whole."""
    out: list[Any] = []
    for n, log in enumerate(logs):
        nxt = logs[n + 1] if n + 1 < len(logs) else []
        cut = next((k for k in range(min(len(log), len(nxt)), 0, -1) if log[len(log) - k:] == nxt[:k]), 0)
        out += log[:len(log) - cut]
    return out


def remember_opened(rep: dict[str, Any], report: Path, game: Path | None) -> None:
    """Note in the game folder that this side opened its report of this step (pbem.core.opened)."""
    from pbem.core import opened

    folder, step, side = game_folder(report, game), rep.get("step"), rep.get("side")
    if folder is not None and isinstance(step, int) and isinstance(side, str):
        opened.note(folder, side, step)


def _deadline_warning(rep: dict[str, Any], game_dir: Path) -> str:
    """The status's warning of a near or past deadline (§8.3), when the report asks for the game's
    current step and its game folder is at hand; "" otherwise."""
    from pbem.cli.status import deadline_warning
    from pbem.core import standing
    from pbem.core.errors import PbemError

    if not (game_dir / "game.toml").is_file():
        return ""
    try:
        info = standing.status(game_dir)
    except PbemError:
        return ""
    return deadline_warning(info) if info.get("step") == rep.get("step") else ""


def defaults_told(rep: dict[str, Any], game_dir: Path,
                  reopen: Callable[[Path], dict[str, Any]] | None = None) -> list[str]:
    """Whether this side's last order was given by default (the public ledger's ``defaulted``),
    told in a sentence; nothing when the game folder is not at hand. ``reopen`` opens the side's
    own report of that step, to name the question a default answer answered."""
    from pbem.core import ledger as led
    from pbem.core.errors import PbemError

    step, side = rep.get("step"), rep.get("side")
    if not isinstance(step, int) or step < 1 or not (game_dir / "game.toml").exists():
        return []
    try:
        man = led.read_manifest(game_dir)
        entry = led.read_entry(game_dir, step, man)
        if side not in entry.defaulted:
            return []
        owed = led.read_entry(game_dir, step - 1, man).owes.get(str(side), "")
    except (PbemError, OSError):
        return []
    question = None
    if owed == "decide" and reopen is not None:
        try:
            question = (reopen(led.report_path(game_dir, entry.step, str(side))).get("options") or {}).get("question")
        except (PbemError, OSError):
            question = None
    return [player_of_report(rep).default_note(entry.step, owed, question)]


def _title(rep: dict[str, Any]) -> str:
    return f"game {rep.get('game', '')} - {rep.get('side', '')} - step {rep.get('step', '')}"


def draft_name(rep: dict[str, Any]) -> Path:
    """The draft file the hints suggest: named for the step and side, in the current folder."""
    return Path(f"orders-{int(rep.get('step') or 0):04d}-{rep.get('side', '')}.toml")


def _next(rep: dict[str, Any], path: Path | None = None, key: Path | None = None, game: Path | None = None) -> str:
    """What to do next, naming the report just opened, the key it was opened with, the game folder
    (given, or the report's own) and the draft to write, so the command runs as printed. For a
    report of a step the game has left: a note naming the latest report, and how to open it."""
    if path is not None:
        stale = stale_lines(rep, path, key, game)
        if stale:
            return "\n".join(stale)
    result = rep.get("result", {})
    if result.get("winner"):
        return f"GAME OVER: {result['winner']} wins ({result.get('reason', '')})"
    if rep.get("asks"):
        where = str(path) if path is not None else f"reports/{int(rep.get('step') or 0):04d}-{rep.get('side')}.pbem"
        with_key = f" --key {key}" if key is not None else ""
        folder = game_folder(path, game) if path is not None else game
        with_game = f" --game {folder}" if folder is not None else ""
        return (f"next: pbem orders new {where}{with_key}{with_game} --out {draft_name(rep)}  ({rep['asks']} orders "
                f"for step {rep.get('step')})")
    owes = rep.get("owes", {})
    return "you owe nothing now; waiting for " + (", ".join(sorted(owes)) or "nobody")


def html_of(rep: dict[str, Any], path: Path | None = None, key: Path | None = None, game: Path | None = None) -> str:
    """The report as one self-contained HTML page ("" when the game has none)."""
    return player_of_report(rep).render_html(rep, _title(rep), _next(rep, path, key, game).replace("\n", " "))


def render_report(rep: dict[str, Any], path: Path | None = None, key: Path | None = None,
                  game: Path | None = None) -> str:
    """The report as text (the game's player side), under a line naming game, side and step, over a line
    saying what to do next (naming the report file ``path``, the ``key`` and the ``game`` folder when given)."""
    lines = [f"game {rep.get('game', '')} - {rep.get('side', '')} - step {rep.get('step', '')}",
             player_of_report(rep).render_text(rep).rstrip("\n"), _next(rep, path, key, game)]
    return "\n".join(lines)


def svg_of(rep: dict[str, Any]) -> str:
    """The SVG map of this side's view ("" when the game has no picture)."""
    return player_of_report(rep).render_svg(rep)
