"""The one error-to-exit wrapper every ``pbem`` verb uses (docs/protocol.md §1).

A user never sees a traceback for a failure pbem expects: every ``PbemError`` and every file
system error becomes ``error: <one sentence>`` (and maybe ``hint: <one sentence>``) on stderr,
and exit code 1.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

import typer

from pbem.core.errors import PbemError

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, hint: str | None = None) -> NoReturn:
    """Print the error (and hint) and leave with exit code 1."""
    typer.echo(f"error: {message}", err=True)
    if hint:
        typer.echo(f"hint: {hint}", err=True)
    raise typer.Exit(code=1)


def _os_message(exc: OSError) -> str:
    where = exc.filename or "a file"
    if isinstance(exc, FileNotFoundError):
        return f"{where}: no such file."
    if isinstance(exc, IsADirectoryError):
        return f"{where} is a folder, not a file."
    if isinstance(exc, PermissionError):
        return f"{where}: permission denied."
    return f"{where}: {exc.strerror or exc}."


def fails_cleanly(fn: F) -> F:
    """Expected failures print one ``error:`` line (and maybe ``hint:``) and exit 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PbemError as exc:
            fail(str(exc), exc.hint)
        except OSError as exc:
            fail(_os_message(exc))
        except UnicodeDecodeError:
            fail("a file that should be UTF-8 text is not.")

    return cast(F, wrapper)  # functools.wraps keeps the signature the type names
