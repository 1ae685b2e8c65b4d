"""``pbem components check FILE``: a game's component file checked and every card tried before a game opens.

The CLI names no game: the ruleset is found through the registry (``--ruleset``, else the one ruleset
that takes a component file, protocol §10.3) and does the work in its tool hook ``check_components``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.lazy import lazy
from pbem.core.errors import FormatError

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import components as components_mod
    from pbem.core import ruleset as rs
else:
    rs = lazy("pbem.core.ruleset")
    components_mod = lazy("pbem.core.components")

components_app = typer.Typer(help="Component files (card data a ruleset reads, protocol §10.3): check one.",
                             no_args_is_help=True, add_completion=False)


def _ruleset(name: str) -> Any:
    """The ruleset named, or the only registered one that takes a component file."""
    if name:
        rules = rs.load(name)
        if not getattr(rules, "takes_components", False):
            raise FormatError(f"ruleset {name!r} takes no component file (protocol §10.3).")
        return rules
    takers = [rules for rules in (rs.load(n) for n in rs.registered()) if getattr(rules, "takes_components", False)]
    if len(takers) != 1:
        raise FormatError("name the ruleset with --ruleset: "
                          f"{len(takers)} registered rulesets take a component file (protocol §10.3).")
    return takers[0]


@components_app.command("check")
@fails_cleanly
def check(file: Annotated[Path, typer.Argument(help="The component file (TOML).")],
          ruleset: Annotated[str, typer.Option("--ruleset", help="The game the file is for (default: the one "
                                                                 "ruleset that takes component files).")] = "") -> None:
    """Check a component file as game open would, then play every card once in a sandbox and say what it does."""
    rules = _ruleset(ruleset)
    hook = getattr(rules, "check_components", None)
    if hook is None:
        raise FormatError(f"ruleset {rules.id!r} has no component check in this build (protocol §10.3).")
    for line in hook(components_mod.read(file), str(file)):
        say(line)
    say(f"{file}: ok; every card played once in the sandbox above.")
