"""The ``pbem`` command: the typer app. Verbs parse arguments, read and write the files the user
names, and print; the protocol (pbem.core), the transports and the games' rules (through the
ruleset registry, pbem.cli.seam) do the work. The rules workbench (``sandbox``, ``odds``) is a
ruleset's tools (pbem.cli.tools): no CLI module imports a game (tests/core/test_layering.py).

One module per verb group; every failure reaches the user as one ``error:`` line and exit
code 1 (pbem.cli.errors), never a traceback.

Start-up cost is typer's own import and little more (docs/architecture.md "Start-up"): the verbs
are listed in ``VERBS`` by name, the module that holds them and their one-line help, and a
verb's module is imported only when that verb runs (or its own ``--help`` is asked). A new verb
or verb group is one more ``Verb`` line here; its module imports the engine, cryptography,
bots and the like inside the functions that use them, not at its top.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from typing import Any, NamedTuple

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

# At exit, Python's last garbage collections walk every object the command made or imported
# (typer's alone: about 8 ms of CPU, a sixth of its import) only to find the cycles among
# objects about to be thrown away with the process. Frozen, they are skipped: every module is
# still cleared, standard streams flushed and exit handlers run (those registered after this
# one run before it); only objects held in reference cycles are not finalized.
atexit.register(gc.freeze)


class Verb(NamedTuple):
    """A verb (a function) or a verb group (a ``typer.Typer``), loaded on first use.

    A NamedTuple, not a dataclass: building a frozen dataclass costs every command (``--help``
    too) most of a millisecond at start-up, a NamedTuple a tenth of that."""

    name: str
    target: str  # "module:attribute"
    help: str    # the line ``pbem --help`` shows; tests check it matches the verb's own help


# ``pbem --help`` lists them in this order: the verbs, then the groups (as typer did).
VERBS: tuple[Verb, ...] = (
    Verb("demo", "pbem.cli.demo:demo",
         "Play a whole game bot against bot through the full protocol, then verify and audit it."),
    Verb("adjudicate", "pbem.cli.game:adjudicate",
         "Receive the orders given (issuing receipts), adjudicate the step, write entry, reports and "
         "state atomically."),
    Verb("status", "pbem.cli.status:status",
         "Which step the game is at, who owes what (from the public ledger) and, for the referee, which orders "
         "have arrived (kept in GAME/.pbem/pending until the step is adjudicated)."),
    Verb("verify", "pbem.cli.verify:verify",
         "Check the whole public record: signatures, chain, dice reveals, orders consumed, reports; and this "
         "folder's record of first sights: no entry reached it with its deadline already past (protocol §8.3)."),
    Verb("audit", "pbem.cli.verify:audit",
         "Replay the game from the reveal bundle and check every entry, commitment, die and report."),
    Verb("sandbox", "pbem.cli.tools:sandbox",
         "Load a position, apply moves and/or fight a battle, and print the resulting position."),
    Verb("odds", "pbem.cli.tools:odds",
         "Compute a battle's exact odds: who wins, retreats, each block's survival and expected steps."),
    Verb("tools", "pbem.cli.tools:tools",
         "List the tools each installed ruleset offers outside any game; run one as pbem TOOL --help."),
    Verb("inbox", "pbem.cli.inbox:inbox",
         "Take in what the referee sent (mail, mailbox, attachments or a git pull): import and verify the record, "
         "file your receipts for pbem audit, then open your new report with what happened since the last one you "
         "read."),
    Verb("outbox", "pbem.cli.outbox:outbox",
         "Referee: write one mail per player for a step (report, receipts, the record's changes), as .eml files "
         "or folders to attach."),
    Verb("board", "pbem.cli.board:board",
         "Show your report as a board in your browser and give your orders by clicks; Seal writes the order file."),
    Verb("key", "pbem.cli.key:key_app", "Identities: make a key pair, show a fingerprint."),
    Verb("game", "pbem.cli.game:game_app", "Referee: start a game, receive orders, publish the reveal."),
    Verb("orders", "pbem.cli.orders:orders_app", "Player: write, check and seal orders."),
    Verb("report", "pbem.cli.report:report_app", "Player: read your reports."),
    Verb("components", "pbem.cli.components:components_app",
         "Component files (card data a ruleset reads, protocol §10.3): check one."),
    Verb("judge", "pbem.cli.judge:judge_app", "The mail judge: a robot referee serving games by email."),
    Verb("mail", "pbem.cli.mail:mail_app", "Play by mail: import the files, mail your orders, host commands."),
    Verb("git", "pbem.cli.git:git_app", "Play through a git repository: push orders, pull reports."),
)


class Command(TyperCommand):
    """A verb whose help names each argument in capitals, as the docs and the other help lines do:
    ``Usage: pbem adjudicate [OPTIONS] GAME_DIR [ORDERS]...``, ``Arguments: GAME_DIR ...`` and
    ``Missing argument 'GAME_DIR'`` (typer's own usage line writes ``{game_dir} [orders]...``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperArgument) and param.metavar is None and param.name:
                param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument) and param.name:
                name = (param.metavar or param.name.upper()).removesuffix("...")
                pieces.append((name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else ""))
        return pieces


def _capital_arguments(app: typer.Typer) -> None:
    """Every verb of a group (and of its sub-groups) is a ``Command`` (typer's default class is replaced)."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = Command
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _capital_arguments(group.typer_instance)


def load(verb: Verb) -> Any:
    """The verb's click command, its module imported now. Help is plain text (no rich): typer's
    rich help costs more than typer itself (docs/architecture.md "Start-up")."""
    module, _, attribute = verb.target.partition(":")
    target = getattr(importlib.import_module(module), attribute)
    if isinstance(target, typer.Typer):
        target.rich_markup_mode = None
        _capital_arguments(target)
        group = typer.main.get_group(target)
        group.name = verb.name
        return group
    single = typer.Typer(add_completion=False, rich_markup_mode=None)
    single.command(verb.name, cls=Command)(target)
    command = typer.main.get_command(single)
    command.name = verb.name
    return command


class LazyGroup(TyperGroup):
    """The top-level group: knows the verbs by name and help line, imports one only to run it."""

    _loaded: dict[str, Any] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [v.name for v in VERBS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        verb = next((v for v in VERBS if v.name == cmd_name), None)
        if verb is None:  # perhaps a tool a ruleset offers (pbem.cli.tools), which VERBS need not list
            verb = Verb(cmd_name, f"pbem.cli.tools:{cmd_name}", "")
            try:
                return load(verb)
            except AttributeError:
                return None
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load(verb)
        return self._loaded[cmd_name]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As typer resolves a verb, but a mistyped one is told the verbs it may have meant ("Did you
        mean 'orders'?"): typer draws them from the group's loaded commands, which here are not loaded."""
        from difflib import get_close_matches

        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as exc:  # typer's own click raises its usage errors as these
            message = getattr(exc, "message", None)
            matches = get_close_matches(args[0], [v.name for v in VERBS]) if args else []
            if not isinstance(message, str) or not matches or "Did you mean" in message:
                raise
            exc.message = message.rstrip(".") + ". Did you mean " + ", ".join(f"{m!r}" for m in matches) + "?"
            raise

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The verb list from ``VERBS`` alone, so ``pbem --help`` imports no verb module."""
        limit = formatter.width - 6 - max(len(v.name) for v in VERBS)
        rows = [(v.name, _short(v.help, limit)) for v in VERBS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _short(text: str, limit: int) -> str:
    """The first sentence cut to ``limit`` characters, as click's short help does."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 3].rsplit(" ", 1)[0]
    return cut + "..."


app = typer.Typer(
    name="pbem",
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    help="Play block wargames by email: sealed orders, fog of war, dice nobody can bias.",
)


@app.callback()
def _root() -> None:
    """Play block wargames by email: sealed orders, fog of war, dice nobody can bias."""


if __name__ == "__main__":  # pragma: no cover
    app()
