"""Referee verbs: ``pbem game new``, ``pbem adjudicate``, ``pbem status``.

Thin: the protocol (``pbem.core.game``) does the work; this module parses arguments and turns
every ``PbemError`` into one ``error:`` line and exit code 1.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from pbem.hammer.errors import PbemError

F = TypeVar("F", bound=Callable[..., Any])

game_app = typer.Typer(no_args_is_help=True, help="Referee: start a game.")


def fails_cleanly(fn: F) -> F:
    """Every expected failure becomes ``error: <one sentence>`` and exit 1, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PbemError as exc:
            _fail(str(exc), getattr(exc, "hint", None))
        except FileNotFoundError as exc:
            _fail(f"{exc.filename}: no such file")
        except IsADirectoryError as exc:
            _fail(f"{exc.filename}: is a folder, not a file")
        except PermissionError as exc:
            _fail(f"{exc.filename}: permission denied")
        except UnicodeDecodeError:
            _fail("a file is not UTF-8 text")
        except ImportError as exc:
            if not (exc.name or "").startswith("pbem"):
                raise
            _fail(f"this build of pbem lacks part of {exc.name}; this command cannot run yet")

    return wrapper  # type: ignore[return-value]


def _fail(message: str, hint: str | None = None) -> None:
    typer.echo(f"error: {message}", err=True)
    if hint:
        typer.echo(f"hint: {hint}", err=True)
    raise typer.Exit(code=1)


def parse_pairs(pairs: list[str], what: str) -> dict[str, str]:
    """``key=value`` arguments as a dict; refuses a pair without ``=`` or a repeated key."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise _usage(f"{what} {pair!r} is not KEY=VALUE")
        if key in out:
            raise _usage(f"{what} {key!r} is given twice")
        out[key.strip()] = value.strip()
    return out


def _usage(message: str) -> PbemError:
    from pbem.hammer.errors import InvalidOrder
    return InvalidOrder(message)


def ruleset_named(name: str) -> Any:
    """The ``Ruleset`` registered under ``name``."""
    if name == "hammer":
        from pbem.hammer.ruleset import HammerRuleset
        return HammerRuleset()
    raise _usage(f"unknown ruleset {name!r}; known: hammer")


@game_app.command("new")
@fails_cleanly
def new(
    game_dir: Annotated[Path, typer.Argument(help="Folder for the new game (created; must be empty).")],
    referee: Annotated[Path, typer.Option("--referee", help="The referee's private key file.")],
    side: Annotated[list[str], typer.Option("--side", help="SIDE=PUBLIC_ID.pub.toml, once per side.")],
    ruleset: Annotated[str, typer.Option("--ruleset", help="The game's rules.")] = "hammer",
    scenario: Annotated[str, typer.Option("--scenario", help="braveheart, the_bruce or campaign.")] = "braveheart",
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE scenario option "
                                                     "(schiltroms=true, bid=E2).")] = None,
) -> None:
    """Start a game: manifest, dice commitment, first secret state and the first reports."""
    rules = ruleset_named(ruleset)
    sides = parse_pairs(side, "--side")
    unknown = sorted(set(sides) - set(rules.sides))
    if unknown or len(sides) != len(rules.sides):
        raise _usage(f"--side must name each of {', '.join(rules.sides)} once (got {', '.join(sorted(sides)) or 'none'})")
    options = parse_pairs(option or [], "--option")
    if scenario not in rules.scenarios():
        raise _usage(f"unknown scenario {scenario!r}; choose one of {', '.join(rules.scenarios())} (8.0)")
    from pbem.hammer.ruleset import parse_options
    parse_options(dict(options))
    from pbem.core import game as core_game
    from pbem.core import identity

    ref = identity.load_private(referee)
    pubs = {s: identity.load_public(Path(p)) for s, p in sorted(sides.items())}
    core_game.new_game(game_dir, rules, scenario, options, ref, pubs)
    typer.echo(f"game started in {game_dir}; reports for {', '.join(sorted(pubs))} are in {game_dir / 'reports'}")


@fails_cleanly
def adjudicate(
    game_dir: Annotated[Path, typer.Argument(help="The game folder.")],
    orders: Annotated[list[Path] | None, typer.Argument(help="Order envelopes received for this step.")] = None,
    key: Annotated[Path, typer.Option("--key", help="The referee's private key file.")] = Path("referee.key"),
    deadline_passed: Annotated[bool, typer.Option("--deadline-passed", help="Apply the default orders "
                                                  "(docs/playing.md) for every side that sent none.")] = False,
) -> None:
    """Verify the orders, adjudicate the step, write ledger entry, reports and state atomically."""
    from pbem.core import game as core_game
    from pbem.core import identity

    ref = identity.load_private(key)
    result = core_game.adjudicate(game_dir, ref, list(orders or []), deadline_passed=deadline_passed)
    typer.echo(_describe(result))


@fails_cleanly
def status(game_dir: Annotated[Path, typer.Argument(help="The game folder.")]) -> None:
    """Which step the game is at, and who owes what (from the public ledger)."""
    from pbem.core import game as core_game

    info = core_game.status(game_dir)
    typer.echo(_describe(info))


def _describe(info: Any) -> str:
    """One human line about a step: its number, who owes what, or the result."""
    if isinstance(info, str):
        return info
    data = info if isinstance(info, dict) else getattr(info, "__dict__", {})
    step = data.get("step", data.get("next_step", "?"))
    owes = data.get("owes", {}) or {}
    result = data.get("result", {}) or {}
    if result.get("winner"):
        return f"step {step}: game over, {result['winner']} wins ({result.get('reason', '')})"
    if not owes:
        return f"step {step}: nobody owes orders"
    return f"step {step}: " + ", ".join(f"{s} owes {k}" for s, k in sorted(owes.items()))


def _register_reveal() -> None:
    """``pbem game reveal`` lives with verify and audit (it feeds the audit); it joins this group."""
    from pbem.cli.verify import reveal

    game_app.command("reveal")(reveal)


_register_reveal()
