"""pbem.core never imports or names a game (design brief §8): the Ruleset seam is the only link."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem
import pbem.core

CORE = Path(pbem.core.__file__).parent
CLI = Path(pbem.__file__).parent / "cli"
NOT_GAMES = {"core", "cli", "transport", "board"}
BOARD = Path(pbem.__file__).parent / "board"  # the board in the browser: game-agnostic, like the CLI
GAMES = tuple(sorted(p.name for p in Path(pbem.__file__).parent.iterdir()
                     if p.is_dir() and (p / "__init__.py").exists() and p.name not in NOT_GAMES))


def _offences(source: str, name: str) -> list[str]:
    """Imports of a game package, and strings naming a game, its module path or its files."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        found += [f"{name}: imports {n}" for n in names if n.split(".")[:2] in (["pbem", g] for g in GAMES)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.lower()
            for g in GAMES:
                if text == g or f"pbem.{g}" in text or f"pbem/{g}" in text:
                    found.append(f"{name}: string names {g}: {node.value[:40]!r}")
    return found


def test_protocol_10_core_never_imports_or_names_a_game() -> None:
    assert GAMES and "hammer" in GAMES
    offenders = []
    for path in sorted(CORE.glob("*.py")):
        offenders += _offences(path.read_text(encoding="utf-8"), path.name)
    assert offenders == []


def _imports(source: str, name: str) -> list[str]:
    """Imports of a game, and module paths of one in strings (``lazy("pbem.<game>.x")`` is an import too)."""
    return [f for f in _offences(source, name) if ": imports " in f or "string names" in f and "pbem" in f.lower()]


def test_protocol_10_2_no_cli_module_imports_a_game() -> None:
    """Issue 15 item 1, issue 24 item 6: the CLI loads a game through the registry, every module of it with
    no exception; the rules workbench (``pbem sandbox``, ``pbem odds``) is a ruleset's tools (protocol §10.2).
    It may name a game in a string (the default --ruleset, help texts), never import it."""
    paths = sorted(CLI.rglob("*.py"))
    assert len(paths) > 10 and CLI / "tools.py" in paths
    offenders = []
    for path in paths:
        offenders += _imports(path.read_text(encoding="utf-8"), str(path.relative_to(CLI)))
    assert offenders == []


def test_protocol_10_2_the_board_server_never_imports_a_game() -> None:
    """docs/board.md: a game's board comes through the seam (``player.board()``), never by name."""
    offenders = []
    for path in sorted(BOARD.glob("*.py")):
        offenders += _imports(path.read_text(encoding="utf-8"), path.name)
    assert offenders == [] and (BOARD / "server.py").exists()


def test_protocol_10_2_the_cli_check_catches_a_lazy_import_inside_a_verb() -> None:
    bad = "def verb() -> None:\n    from pbem.hammer import render\n"
    assert _imports(bad, "x.py") == ["x.py: imports pbem.hammer"]
    assert len(_imports('render = lazy("pbem.hammer.show.render")\n', "x.py")) == 1
    assert _imports('HELP = "hammer: braveheart"\n', "x.py") == []


def test_protocol_10_the_layering_check_catches_a_registry_string_and_an_import() -> None:
    bad = 'import pbem.hammer.ruleset\n_R = {"hammer": "pbem.hammer.ruleset:HammerRuleset"}\n'
    found = _offences(bad, "x.py")
    assert any("imports pbem.hammer" in f for f in found)
    assert sum("string names hammer" in f for f in found) == 2


def test_protocol_10_installed_rulesets_come_from_entry_points() -> None:
    from pbem.core import ruleset
    assert "hammer" in ruleset.registered()
    rules = ruleset.load("hammer")
    assert isinstance(rules, ruleset.Ruleset) and rules.id == "hammer"


def test_protocol_10_unknown_ruleset_is_one_sentence() -> None:
    import pytest

    from pbem.core import ruleset
    from pbem.core.errors import FormatError
    with pytest.raises(FormatError, match=r"unknown ruleset 'chess'; known: .*hammer.*rps.*\(protocol §10\)\.$"):
        ruleset.load("chess")


def test_protocol_10_rps_satisfies_the_ruleset_protocol() -> None:
    from pbem.core.ruleset import Ruleset, load
    assert isinstance(load("rps"), Ruleset)
