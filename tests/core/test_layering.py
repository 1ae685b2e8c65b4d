"""pbem.core never imports a game (design brief §8): the Ruleset seam is the only link."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem.core

GAMES = ("pbem.hammer", "pbem.bagpipes")


def test_protocol_10_core_never_imports_a_game() -> None:
    core = Path(pbem.core.__file__).parent
    offenders = []
    for path in sorted(core.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(GAMES)]
        text = path.read_text(encoding="utf-8")
        offenders += [f"{path.name}: import_module of a game" for g in GAMES if f'import_module("{g}' in text]
    assert offenders == []


def test_protocol_10_rps_satisfies_the_ruleset_protocol() -> None:
    from pbem.core.ruleset import Ruleset, load
    assert isinstance(load("rps"), Ruleset)
