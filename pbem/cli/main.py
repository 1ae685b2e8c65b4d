"""The ``pbem`` command: a thin typer app; the work lives in the library modules.

One module per verb group; every failure reaches the user as one ``error:`` line and exit
code 1 (pbem.cli.errors), never a traceback.
"""

from __future__ import annotations

import typer

from pbem.cli import demo, game, judge, key, mail, orders, report, sandbox, verify

app = typer.Typer(
    name="pbem",
    no_args_is_help=True,
    add_completion=False,
    help="Play block wargames by email: sealed orders, fog of war, dice nobody can bias.",
)

app.command("demo")(demo.demo)
app.add_typer(key.key_app, name="key")
app.add_typer(game.game_app, name="game")
app.command("adjudicate")(game.adjudicate)
app.command("status")(game.status)
app.add_typer(orders.orders_app, name="orders")
app.add_typer(report.report_app, name="report")
app.command("verify")(verify.verify)
app.command("audit")(verify.audit)
app.command("sandbox")(sandbox.sandbox)
app.add_typer(judge.judge_app, name="judge")
app.add_typer(mail.mail_app, name="mail")


if __name__ == "__main__":  # pragma: no cover
    app()
