"""The one error-to-exit wrapper every ``pbem`` verb uses (docs/protocol.md §1), and ``say``, the one
way a verb prints on standard output.

A user never sees a traceback for a failure pbem expects: every ``PbemError`` and every file
system error becomes ``error: <one sentence>`` (and maybe ``hint: <one sentence>``) on stderr,
and exit code 1.

A reader that stops reading (``pbem report open ... | head -3``) is no failure: the rest of the
output is dropped, the verb still does its work (the files it writes are written) and it exits
quietly with status 141, as a standard tool killed by SIGPIPE does (docs/playing.md "Output into
a pipe"). So every verb prints through ``say``, never ``typer.echo`` (tests/e2e/test_cli_as_followed.py).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

import typer

from pbem.core.errors import PbemError

F = TypeVar("F", bound=Callable[..., Any])

CLOSED_OUTPUT = 141  # the exit status when standard output was closed: 128 + SIGPIPE, as the shell reports it


class _Output:
    """Whether standard output's reader went away during this verb."""

    closed = False


def say(message: str = "", nl: bool = True) -> None:
    """Print on standard output. Once its reader has gone (a closed pipe), the rest is dropped quietly."""
    if _Output.closed:
        return
    try:
        typer.echo(message, nl=nl)
    except BrokenPipeError:
        _Output.closed = True
        _drop_output()


def _drop_output() -> None:
    """Point standard output at the null device, so the text still buffered (flushed again at exit)
    goes nowhere instead of raising again (the Python documentation's recipe for SIGPIPE)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # a standard output with no file descriptor (a test's capture)
        pass


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
    """Expected failures print one ``error:`` line (and maybe ``hint:``) and exit 1; a verb whose
    output was cut short by its reader exits 141, its work done."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from pbem.core import seen  # every verb is the client: it notes when it first saw each entry (§8.3)
        _Output.closed = False
        try:
            with seen.recording():
                done = fn(*args, **kwargs)
        except PbemError as exc:
            fail(str(exc), exc.hint)
        except OSError as exc:
            fail(_os_message(exc))
        except UnicodeDecodeError:
            fail("a file that should be UTF-8 text is not.")
        if _Output.closed:
            raise typer.Exit(code=CLOSED_OUTPUT)
        return done

    return cast(F, wrapper)  # functools.wraps keeps the signature the type names
