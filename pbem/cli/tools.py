"""The tools rulesets offer outside any game (protocol §10.2, ``Tool``): ``pbem tools`` lists them, and
each runs as its own verb (``pbem sandbox ...``, ``pbem odds ...``: Hammer's rules workbench).

The CLI names no game: it asks every registered ruleset for its tools and builds each verb from the
tool's typed argument list, so a third game offers its own the same way. A verb's module attribute
(``pbem.cli.tools:sandbox``, pbem.cli.main) is built on first use by the module's ``__getattr__``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli.errors import fail, fails_cleanly, say
from pbem.cli.files import read_text, write_output
from pbem.cli.lazy import lazy
from pbem.core.errors import FormatError, PbemError

if TYPE_CHECKING:  # the real module for the type checker; at run time it is imported on first use
    from pbem.core import ruleset as rs
else:
    rs = lazy("pbem.core.ruleset")


class CliIO:
    """The CLI's one reader and atomic writer (protocol §3.1), handed to a tool (``rs.ToolIO``)."""

    def read_text(self, path: Path, what: str) -> str:
        return read_text(path, what)

    def write(self, path: Path, text: str) -> None:
        write_output(path, text)

    def say(self, text: str, nl: bool = True) -> None:
        say(text, nl=nl)


def offered(problems: list[str] | None = None) -> list[tuple[str, rs.Tool]]:
    """(ruleset name, tool) for every tool of every registered ruleset, in name order. A ruleset that
    cannot be loaded offers none (its sentence goes to ``problems``): it never stops another's tool."""
    out = []
    for name in rs.registered():
        try:
            out += [(name, tool) for tool in rs.tools_of(rs.load(name))]
        except PbemError as exc:
            if problems is not None:
                problems.append(f"{name}: {exc}")
    return out


def tool_named(name: str) -> rs.Tool | None:
    """The tool a verb ``name`` runs: the one registered ruleset offering it; None when none does. A ruleset
    registered again under another name (a variant subclass) offers the same code: that is one tool, not a clash."""
    found: list[tuple[str, rs.Tool]] = []
    for ruleset, tool in offered():
        if tool.name == name and all(tool.run is not t.run for _, t in found):
            found.append((ruleset, tool))
    if len(found) > 1:
        raise FormatError(f"rulesets {', '.join(r for r, _ in found)} each offer a tool {name!r}; "
                          "pbem runs a tool only one ruleset offers (protocol §10.2).")
    return found[0][1] if found else None


_KINDS: dict[str, type] = {"text": str, "path": Path, "switch": bool}


def _parameter(param: rs.ToolParam) -> inspect.Parameter:
    """The typer parameter a ToolParam describes, as a verb's signature would declare it."""
    base = _KINDS.get(param.kind)
    if base is None or (param.kind == "switch" and not param.flag):
        raise FormatError(f"tool parameter {param.name!r}: kind {param.kind!r} is not text, path or an option "
                          "switch (protocol §10.2).")
    info = typer.Option(param.flag, help=param.help) if param.flag else typer.Argument(help=param.help)
    default: Any
    if param.kind == "switch":
        annotation, default = Annotated[bool, info], False
    elif param.required:
        annotation, default = Annotated[base, info], inspect.Parameter.empty
    else:
        annotation, default = Annotated[base | None, info], None
    return inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def verb_of(tool: rs.Tool) -> Callable[..., None]:
    """A verb function whose signature is the tool's arguments, so typer builds its command, help
    and argument errors exactly as for a verb written by hand."""
    def run(**values: Any) -> None:
        tool.run(values, CliIO())

    verb = fails_cleanly(run)
    params = [_parameter(p) for p in tool.params]
    verb.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # read by typer (inspect)
    verb.__annotations__ = {p.name: p.annotation for p in params}
    verb.__doc__, verb.__name__ = tool.help, tool.name
    return verb


def __getattr__(name: str) -> Callable[..., None]:
    """``pbem.cli.tools:NAME``: the verb of the tool ``NAME`` a registered ruleset offers
    (AttributeError when none does: no such verb)."""
    if name.startswith("_"):
        raise AttributeError(name)
    try:
        tool = tool_named(name)
    except PbemError as exc:
        fail(str(exc), exc.hint)
    if tool is None:
        raise AttributeError(name)
    return verb_of(tool)


@fails_cleanly
def tools() -> None:
    """List the tools each installed ruleset offers outside any game; run one as pbem TOOL --help."""
    problems: list[str] = []
    listed = offered(problems)
    for ruleset, tool in listed:
        say(f"{ruleset} {tool.name}: {tool.help.split(chr(10))[0]}")
    if not listed:
        say("no installed ruleset offers a tool.")
    for problem in problems:
        say(f"not listed: {problem}")
