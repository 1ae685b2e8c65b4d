"""Player verbs for orders: ``pbem orders new | check | seal | auto``.

A draft is plain text the player edits (the game's player side, protocol §10.2); ``check`` tests
it against the player's own report before anything is sent; ``seal`` runs the same check, then signs
it and seals it to the referee. The game comes from the report (its ``ruleset``) or the manifest:
this module names none.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import read_text, record_file_of_a_game, write_output
from pbem.cli.key import load_key
from pbem.cli.lazy import lazy
from pbem.cli.seam import player_of_report
from pbem.core.errors import EnvelopeError, FormatError, InvalidOrder, PbemError

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import ruleset as rs
    from pbem.core.identity import PrivateIdentity
else:
    rs = lazy("pbem.core.ruleset")

orders_app = typer.Typer(no_args_is_help=True, help="Player: write, check and seal orders.")

KeyOpt = Annotated[Path | None, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file (not needed for "
                                              "a report saved with report open --save).")]
PassOpt = Annotated[Path | None, typer.Option("--passphrase-file", help="Your key's passphrase file "
                                               "(for a key made with one).")]
ReportGameOpt = Annotated[Path | None, typer.Option("--game", envvar="PBEM_GAME",
                                                    help="The game folder (game.toml and ledger) a "
                                                         "sealed report is checked against (default: the "
                                                         "report's own game folder).")]


# An opened report saved as JSON (``report open --save``): its fields and their types.
SAVED_REPORT_FIELDS: dict[str, type] = {"ruleset": str, "game": str, "side": str, "step": int, "asks": str, "log": list,
                                        "options": dict, "owes": dict, "public": dict, "result": dict, "view": dict}


SHAPE_NAMES = {str: "a string", int: "a whole number >= 0", list: "a list [...]", dict: "an object {...}"}


class SavedReport(dict[str, Any]):
    """An opened report read back from JSON: unsigned, so possibly edited by hand (see ``reading``)."""

    path: Path


def open_report(path: Path, key: Path | None, passphrase_file: Path | None = None,
                game: Path | None = None, me: PrivateIdentity | None = None) -> dict[str, Any]:
    """The report sealed to this key's side, decrypted and its referee signature checked.

    A report already opened and saved as JSON (``pbem report open --save``) is read as it is,
    its fields checked for shape; use it inside ``reading`` so a deeper fault is one error line.
    ``me`` is the key already loaded (``orders seal`` has it), so it is not unlocked twice.
    """
    from pbem.core import game as core_game

    raw = core_game.read_input(path)
    if raw.lstrip().startswith(b"{"):
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise FormatError(f"{path} is not UTF-8 text, so it is not an opened report.") from None
        except RecursionError:
            raise FormatError(f"{path} is not an opened report: its JSON nests too deeply.") from None
        except json.JSONDecodeError as exc:
            raise FormatError(f"{path} is not an opened report: its JSON breaks at line {exc.lineno} "
                              f"({exc.msg}).") from None
        if not (isinstance(data, dict) and isinstance(data.get("side"), str) and isinstance(data.get("step"), int)):
            raise FormatError(f"{path} is not an opened report as pbem saves it: it names no side and step.",
                              hint=SAVED_HINT)
        for name, kind in SAVED_REPORT_FIELDS.items():
            value = data.get(name, kind())
            if not isinstance(value, kind) or isinstance(value, bool) or (isinstance(value, int) and value < 0):
                raise FormatError(f"{path} is not an opened report as pbem saves it: field {name} must be "
                                  f"{SHAPE_NAMES[kind]}.",
                                  hint=SAVED_HINT)
        kinds = player_of_report(data).order_kinds
        if data.get("asks", "") not in ("", *kinds):
            raise FormatError(f"{path} is not an opened report as pbem saves it: field asks must be one of "
                              f"{', '.join(kinds)} or empty.", hint=SAVED_HINT)
        saved = SavedReport(data)
        saved.path = Path(path)
        return saved
    if me is None:
        if key is None:
            raise FormatError(f"{path} is a sealed report; give your private key with --key to open it.")
        me = load_key(key, passphrase_file)
    rep = dict(core_game.open_report(path, me, game))
    from pbem.core import ledger
    rep["ruleset"] = ledger.read_manifest(Path(game) if game is not None else Path(path).parent.parent).ruleset
    return rep


SAVED_HINT = "open the sealed report again with: pbem report open REPORT --key KEY --save FILE"


@contextmanager
def reading(report: dict[str, Any]) -> Iterator[None]:
    """Use a report: a saved JSON one edited out of shape fails in one line naming the file.

    A sealed report is signed by the referee, so a fault while using it is a bug and goes on.
    """
    try:
        yield
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
        if not isinstance(report, SavedReport):
            raise
        raise FormatError(f"{report.path} is not an opened report as pbem saves it: a field holds the wrong kind "
                          f"of value ({type(exc).__name__}: {exc}).", hint=SAVED_HINT) from None


def read_draft(path: Path, player: rs.PlayerSide) -> rs.Draft:
    """A draft file, parsed by the game's player side."""
    return player.parse_draft(read_text(path, "a draft of orders"), str(path))


def game_folder(report: Path, game: Path | None) -> Path | None:
    """The game folder a report is read against: the one given (``--game`` or PBEM_GAME), else the
    report's own (``GAME/reports/NNNN-SIDE.pbem``) when it holds a game; None when neither is known."""
    if game is not None:
        return game
    return report.parent.parent if (report.parent.parent / "game.toml").exists() else None


def _hint_files(out: Path | None, report: Path, key: Path | None, game: Path | None) -> tuple[str, str, str, str]:
    """The real file names the "next" hints give: draft, report, key and game folder (when known), so
    each hint runs as printed, wherever the report was saved."""
    folder = game_folder(report, game)
    return (str(out) if out else "", str(report), str(key) if key else "", str(folder) if folder else "")


def current_report(rep: dict[str, Any], report: Path, game: Path | None) -> tuple[int, Path] | None:
    """(the step the game is at, this side's report of it) when ``rep`` is the report of an earlier
    step, whose orders the referee no longer takes (protocol §7.3); None when it is the latest, or
    when no game folder of this game is at hand to say so."""
    from pbem.core import ledger
    from pbem.core.errors import PbemError

    folder, step, side = game_folder(report, game), rep.get("step"), rep.get("side")
    if folder is None or not isinstance(step, int) or not isinstance(side, str):
        return None
    try:
        if ledger.read_manifest(folder).game != rep.get("game"):
            return None
        now = ledger.entry_numbers(folder)[-1]
    except (PbemError, OSError, IndexError):
        return None
    if now <= step:
        return None
    latest = ledger.report_path(folder, now, side)
    beside = report.with_name(latest.name)  # a player keeping the reports mailed to it in one folder
    return now, beside if beside.is_file() else latest


def stale_lines(rep: dict[str, Any], report: Path, key: Path | None, game: Path | None) -> list[str]:
    """A note and a ``next:`` hint to open the latest report, when ``rep`` is an older one; else nothing."""
    current = current_report(rep, report, game)
    if current is None:
        return []
    now, latest = current
    folder = game_folder(report, game)
    return [f"note: this report is for step {rep.get('step')}; the game is at step {now}, whose report is {latest}",
            f"next: pbem report open {latest}" + (f" --key {key}" if key else "")
            + (f" --game {folder}" if folder is not None else "")]


@orders_app.command("new")
@fails_cleanly
def new(
    report: Annotated[Path, typer.Argument(help="Your latest report.")],
    key: KeyOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the draft here (default: print it).")] = None,
    passphrase_file: PassOpt = None,
    game: ReportGameOpt = None,
) -> None:
    """A draft to start from: what you owe, with the legal options as comments."""
    rep = open_report(report, key, passphrase_file, game)
    player = player_of_report(rep)
    with reading(rep):
        text = player.template(rep, *_hint_files(out, report, key, game))
    stale = stale_lines(rep, report, key, game)
    if out is None:
        say(text)
        for line in stale[:1]:  # on stderr: the draft printed may be going into a file
            typer.echo(line, err=True)
    else:
        write_output(out, text)
        say(f"draft written to {out}")
        for line in stale or [f"next: edit it, then {player.next_commands(rep, *_hint_files(out, report, key, game))}"]:
            say(line)


@orders_app.command("check")
@fails_cleanly
def check(
    draft: Annotated[Path, typer.Argument(help="Your draft (TOML).")],
    report: Annotated[Path | None, typer.Option("--report", help="The report the draft answers (default: your "
                                                "report of the draft's step in the game folder, "
                                                "GAME/reports/STEP-SIDE.pbem, as seal finds it).")] = None,
    key: KeyOpt = None,
    passphrase_file: PassOpt = None,
    game: ReportGameOpt = None,
) -> None:
    """Check a draft against your own view before sending it."""
    text = read_text(draft, "a draft of orders")
    if report is None:
        report = _report_of_draft(draft, text, game)
    rep = open_report(report, key, passphrase_file, game)
    player = player_of_report(rep)
    d = player.parse_draft(text, str(draft))
    with reading(rep):
        notes = player.check_draft(d, rep) or []
    for note in notes:
        say(f"note: {note}")
    say(f"{draft}: ok ({d.kind} orders for {d.side}, step {d.step})")
    folder = _hint_files(draft, report, key, game)[3] or "GAME"
    for line in stale_lines(rep, report, key, game) or [
            f"next: pbem orders seal {draft}" + (f" --key {key}" if key else " --key KEY")
            + f" --game {folder} --out {d.step:04d}-{d.side}-orders.asc"]:
        say(line)


def _report_of_draft(draft: Path, text: str, game: Path | None) -> Path:
    """The report ``orders check`` checks a draft against when no ``--report`` is given: the game
    folder's report of the draft's step and side, as ``seal`` finds it."""
    from pbem.core import game as core_game
    from pbem.core import ledger

    if game is None:
        raise FormatError(f"orders check {draft} needs the report the draft answers: give --report REPORT, "
                          "or --game GAME (or PBEM_GAME) to check it against GAME/reports/STEP-SIDE.pbem.")
    d = rs.player_of(rs.load(ledger.read_manifest(game).ruleset)).parse_draft(text, str(draft))
    found = core_game.report_path(game, d.step, d.side)
    if not found.is_file():
        raise FormatError(f"there is no report for step {d.step} of {d.side} at {found}; give the report the "
                          f"draft answers with --report REPORT.")
    return found


@orders_app.command("seal")
@fails_cleanly
def seal(
    draft: Annotated[Path, typer.Argument(help="Your draft (TOML); it is checked against your report first, "
                                          "as orders check does.")],
    game: Annotated[Path, typer.Option("--game", envvar="PBEM_GAME",
                                       help="The game folder (for its manifest and ledger).")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the armored envelope.")],
    key: Annotated[Path | None, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file: it signs the "
                                             "order, so seal always needs it (protocol §7.3).")] = None,
    passphrase_file: PassOpt = None,
    report: Annotated[Path | None, typer.Option("--report", help="Your report of the draft's step, to check the "
                                                "draft against (default: GAME/reports/STEP-SIDE.pbem, when "
                                                "there).")] = None,
    no_check: Annotated[bool, typer.Option("--no-check", help="Seal without checking the draft against your "
                                           "report (the referee still judges it).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="Also say what the deadline means, why to keep the "
                                          "receipt and that sealing again keeps your dice.")] = False,
) -> None:
    """Check the draft against your report, sign it, bind it to this game, side and step, and seal it to the referee.

    The draft must name this game (or none) and the kind of orders the side owes. It is then checked
    as ``orders check`` does, against ``--report`` or else the game folder's report of its step and
    side: an illegal draft is refused with the check's own sentence and nothing is written. With no
    report to be found it is sealed unchecked, with a note; ``--no-check`` skips the check. The
    referee judges every order again, for good.
    """
    from pbem.cli import peer as peer_cli
    from pbem.core import ledger

    if peer_cli.is_peer(game):
        if key is None:
            raise FormatError("orders seal needs --key: every peer message is signed (protocol §13.2).")
        peer_cli.seal(game, draft, key, passphrase_file, out)
        return
    d = read_draft(draft, rs.player_of(rs.load(ledger.read_manifest(game).ruleset)))
    if key is None:
        raise FormatError("orders seal needs --key: orders are signed with your private key (protocol §7.3).")
    for line in seal_order(d, str(draft), game, out, key, load_key(key, passphrase_file), report, no_check, verbose):
        say(line)


def seal_order(d: rs.Draft, source: str, game: Path, out: Path, key: Path, me: PrivateIdentity,
               report: Path | None = None, no_check: bool = False, verbose: bool = False) -> list[str]:
    """Check ``d`` against the side's report, sign it, seal it to the referee and write it to ``out``;
    the lines to tell the player. The one code path of ``orders seal`` and the board's Seal
    (docs/board.md): the same draft gives the same file. ``source`` names the draft in messages."""
    from pbem.core import game as core_game
    from pbem.core import ledger

    game_id = ledger.read_manifest(game).game
    if d.game and d.game != game_id:
        raise EnvelopeError(f"{source} is a draft for game {d.game}, but {game} holds game {game_id} (protocol §7.3).")
    info = core_game.status(game)
    armored = core_game.write_order(game, me, d.side, d.step, d.body())  # refuses a step the game has left
    owed = info["owes"].get(d.side)
    if owed and d.kind != owed:
        raise EnvelopeError(f"{source} holds {d.kind} orders, but {d.side} owes {owed} orders at step {d.step} "
                            "(protocol §7.3).")
    lines: list[str] = []
    checked = "not checked (--no-check)" if no_check else _check_before_sealing(
        source, d, report or core_game.report_path(game, d.step, d.side), report is not None, key, me, game, game_id,
        lines)
    write_output(out, armored if isinstance(armored, str) else armored.decode("ascii"))
    deadline = int(info.get("deadline") or 0)
    by = f" by {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(deadline))}" if deadline else ""
    lines.append(f"sealed {d.kind} orders for {d.side}, step {d.step}, to {out} ({checked}); "
                 f"mail it to the referee{by}{_mail_send_hint(game, out)}")
    from pbem.cli.status import deadline_warning
    warning = deadline_warning(info) if deadline else ""
    if warning:
        lines.append(warning)
    if verbose:
        lines += [line.format(step=d.step) for line in SEAL_DETAILS]
    return lines


def _mail_send_hint(game: Path, out: Path) -> str:
    """How to mail the file from the player's own account, where the game folder has one (docs/judge.md §3)."""
    from pbem.transport.mail import player_mail

    try:
        account = player_mail.load(game)
    except PbemError:
        return ""  # pbem mail send says what is wrong with it
    return f" (pbem mail send {out} --game {game} mails it to {account.to})" if account else ""


# What ``orders seal --verbose`` adds: said once in docs/playing.md, not on every seal.
SEAL_DETAILS = (
    "after the deadline of step {step} the referee may give you default orders",
    "keep the receipt the referee sends back for it: it proves your order arrived, and when. After the game, "
    "pbem audit GAME --reveal BUNDLE fails if the referee dropped it, or played an older order in its place "
    "(pbem inbox files receipts where audit finds them). No receipt before the deadline? Send the order again.",
    "sealing again changes nothing about the dice: your entropy for a step is fixed by your key",
)


def _check_before_sealing(draft: str, d: rs.Draft, report: Path, given: bool, key: Path, me: PrivateIdentity,
                          game: Path, game_id: str, lines: list[str]) -> str:
    """Check the draft against the report as ``orders check`` does (an illegal draft raises the check's
    own error); return how it was checked, for the "sealed" line. A report given with ``--report`` must
    be there; the game folder's may not be (a player whose copy lacks it), and then the draft is sealed
    unchecked, with a note (in ``lines``) saying how to check it."""
    if not given and not report.is_file():
        lines.append(f"note: not checked: there is no report for step {d.step} at {report}; "
                     f"pbem orders check {draft} --report REPORT --key {key} checks it against your report")
        return "not checked"
    rep = open_report(report, key, game=game, me=me)
    if rep.get("game") and rep["game"] != game_id:  # a saved report is not signed
        raise FormatError(f"{report} is a report of game {rep['game']}, but {game} holds game {game_id}.")
    with reading(rep):
        notes = player_of_report(rep).check_draft(d, rep) or []
    lines += [f"note: {note}" for note in notes]
    return f"checked against {report}"


@orders_app.command("auto")
@fails_cleanly
def auto(
    report: Annotated[Path, typer.Argument(help="Your latest report.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the draft.")],
    key: KeyOpt = None,
    bot: Annotated[str, typer.Option("--bot", help="random or simple.")] = "simple",
    seed: Annotated[str, typer.Option("--seed", help="Hex seed for the bot's choices (default: fresh).")] = "",
    passphrase_file: PassOpt = None,
    game: ReportGameOpt = None,
    bot_plans: Annotated[bool, typer.Option("--bot-plans", help="Let the bot's own [plans] replace yours (those "
                                            "in --out, and the standing ones sent before).")] = False,
) -> None:
    """Let a bot fill a draft with its choice (a real draft: check and seal it as usual).

    Your plans are never overwritten: [plans] and [winter] already in --out are kept, and without them the
    bot sends no [plans], so the standing plans you sent before stay in force (--bot-plans to replace them)."""
    try:
        seed_bytes = bytes.fromhex(seed) if seed else secrets.token_bytes(32)
    except ValueError:
        raise FormatError(f"--seed {seed!r} is not hexadecimal bytes: give an even number of digits 0-9 and a-f."
                          ) from None
    rep = open_report(report, key, passphrase_file, game)
    player = player_of_report(rep)
    previous = _previous_draft(out, player)
    with reading(rep):
        d, said = player.auto_draft(rep, bot, seed_bytes, previous, bot_plans, str(out))
    text = player.dump_draft(d)
    write_output(out, text)
    say(f"{bot} bot wrote {d.kind} orders for {d.side}, step {d.step}, to {out}")
    if said:
        say(said)
    for line in stale_lines(rep, report, key, game) or [
            f"next: {player.next_commands(rep, *_hint_files(out, report, key, game))}"]:
        say(line)


def _previous_draft(out: Path, player: rs.PlayerSide) -> rs.Draft | None:
    """The draft ``out`` holds already (its plans are the player's and win over the bot's), or None.

    A file there that is not a draft is never overwritten: the player may have written anything."""
    if not out.exists() or record_file_of_a_game(out) is not None:  # writing there is refused anyway
        return None
    try:
        return read_draft(out, player)
    except (FormatError, InvalidOrder) as exc:
        raise FormatError(f"--out {out} exists and is not a draft pbem can read ({exc}); orders auto never "
                          "overwrites it.", hint="remove it, or give another --out") from None
