"""The ``pbem`` command: a thin typer app; the work lives in the library modules.

Sub-commands register here, one module per verb group. Every failure reaches the user as one
``error:`` line and exit code 1, never a traceback.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="pbem",
    no_args_is_help=True,
    add_completion=False,
    help="Play block wargames by email: sealed orders, fog of war, dice nobody can bias.",
)

# (module, attribute, how it joins the app, name). Sub-apps are typer.Typer objects added as
# groups; commands are plain functions. Listed here so the app's shape is in one place.
_PARTS: tuple[tuple[str, str, str, str], ...] = (
    ("pbem.cli.demo", "demo", "command", "demo"),
    ("pbem.cli.key", "key_app", "group", "key"),
    ("pbem.cli.game", "game_app", "group", "game"),
    ("pbem.cli.game", "adjudicate", "command", "adjudicate"),
    ("pbem.cli.game", "status", "command", "status"),
    ("pbem.cli.orders", "orders_app", "group", "orders"),
    ("pbem.cli.report", "report_app", "group", "report"),
    ("pbem.cli.verify", "verify", "command", "verify"),
    ("pbem.cli.verify", "audit", "command", "audit"),
    ("pbem.cli.sandbox", "sandbox", "command", "sandbox"),
)


def _register() -> None:
    for module_name, attr, how, name in _PARTS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue  # that verb group is not part of this build yet
            raise
        part = getattr(module, attr, None)
        if part is None:
            continue
        if how == "group":
            app.add_typer(part, name=name)
        else:
            app.command(name)(part)


_register()


if __name__ == "__main__":  # pragma: no cover
    app()
