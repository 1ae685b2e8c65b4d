"""Start-up: a verb pays for typer and for its own work only (docs/architecture.md "Start-up").

``pbem --help`` and the quick verbs import neither the engine nor cryptography nor the bots nor
the demo; each verb's one-line help in ``pbem.cli.main.VERBS`` is the verb's own.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer

from pbem.cli.main import VERBS, load

HEAVY = ("pbem.hammer", "cryptography", "pbem.cli.demo", "pbem.hammer.bots", "pydantic", "rich")


def loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=False).stdout
    return set(out.split())


def test_start_up_help_imports_no_verb_module_nor_heavy_library() -> None:
    mods = loaded_after("from pbem.cli.main import app\ntry:\n    app(['--help'])\nexcept SystemExit:\n    pass")
    assert not [m for m in mods if m.startswith(HEAVY)]
    assert not [m for m in mods if m.startswith("pbem.cli.") and m not in ("pbem.cli.main",)]


@pytest.mark.parametrize("argv", [["game", "--help"], ["key", "show", "examples/game/keys/england.pub.toml"]])
def test_start_up_quick_verbs_import_no_engine(argv: list[str]) -> None:
    mods = loaded_after(f"from pbem.cli.main import app\ntry:\n    app({argv!r})\nexcept SystemExit:\n    pass")
    assert not [m for m in mods if m.startswith(("pbem.hammer", "pbem.cli.demo", "pydantic", "rich"))]


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: v.name)
def test_start_up_each_listed_help_line_is_the_verb_s_own(verb: object) -> None:
    command = load(verb)  # type: ignore[arg-type]
    own = " ".join((command.help or "").split("\n\n")[0].split())
    assert own == verb.help  # type: ignore[attr-defined]


def test_start_up_the_deadline_default_shown_without_import_is_the_ledger_s() -> None:
    from pbem.cli.game import DEFAULT_DEADLINE_HOURS
    from pbem.core.ledger import DEFAULT_DEADLINE_HOURS as LEDGER_DEFAULT
    assert DEFAULT_DEADLINE_HOURS == LEDGER_DEFAULT


def test_start_up_typer_is_a_release_that_parses_without_pydantic() -> None:
    major, minor = (int(x) for x in typer.__version__.split(".")[:2])
    assert (major, minor) < (0, 29), "typer 0.29 coerces every argument through pydantic (docs/architecture.md)"
