"""Start-up: a verb pays for typer and for its own work only (docs/architecture.md "Start-up").

``pbem --help`` and the quick verbs import neither the engine nor cryptography nor the bots nor
the demo; each verb's one-line help in ``pbem.cli.main.VERBS`` is the verb's own.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from pbem.cli.main import VERBS, load

HEAVY = ("pbem.hammer", "cryptography", "pbem.cli.demo", "pbem.hammer.play.bots", "pydantic", "rich")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "game"
# What a verb that only reads the record never needs: sealing and opening (HPKE, AEAD, scrypt), writing
# (tomli_w, tempfile and random), the envelope code, the protocol's writers, the rules and the engine.
# What a verb that reads files the tools wrote does not build or parse with: the record's TOML is read by
# pbem.core.toml_exact (tomllib only for any other form), its records are pbem.core.records (no dataclass
# code generated at import).
READERS = ("tomllib", "dataclasses")
WRITERS = ("cryptography.hazmat.primitives.hpke", "cryptography.hazmat.primitives.ciphers",
           "cryptography.hazmat.primitives.kdf", "tomli_w", "tempfile", "random", "pbem.core.envelope",
           "pbem.core.game", "pbem.core.receipts", "pbem.core.ruleset", "pbem.core.audit",
           "pbem.hammer", "pbem.cli.game", "pbem.cli.demo", "importlib.metadata", "pydantic", "rich")


def loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=False).stdout
    return set(out.split())


def modules_of(argv: list[str]) -> set[str]:
    """The modules loaded by ``pbem ARGV`` run to its end (exit code 0 required)."""
    code = (f"from pbem.cli.main import app\ntry:\n    app({argv!r})\nexcept SystemExit as exc:\n"
            "    assert not exc.code, exc.code\nimport sys\nprint('\\n'.join(sys.modules), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return set(run.stderr.split())


def loaded(mods: set[str], packages: tuple[str, ...]) -> list[str]:
    """The modules of ``mods`` that are one of ``packages`` or inside one."""
    return sorted(m for m in mods if any(m == p or m.startswith(p + ".") for p in packages))


def test_start_up_status_reads_the_ledger_and_loads_nothing_that_writes_seals_or_plays(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE / "game", game)
    mods = modules_of(["status", str(game)])
    assert "pbem.core.ledger" in mods and "pbem.cli.status" in mods  # it did read the record
    assert (
        loaded(mods, (*WRITERS, *READERS, "pbem.core.armor", "pbem.core.beacon", "hmac", "pbem.cli.files",
                      "pbem.cli.key")) == []
    )
    # the one part of cryptography it loads is the Ed25519 check of the manifest's and entry's signatures,
    # made through the bindings (identity._ed25519_public): none of the primitives' modules
    assert "cryptography.hazmat.bindings._rust" in mods
    assert loaded(mods, ("cryptography.hazmat.primitives",)) == []


def test_start_up_key_show_loads_no_cryptography_and_no_record() -> None:
    mods = modules_of(["key", "show", str(EXAMPLE / "keys" / "england.pub.toml")])
    assert "pbem.core.identity" in mods
    assert loaded(mods, ("cryptography", "pbem.core.ledger", "pbem.core.standing", *WRITERS, *READERS)) == []


def test_start_up_help_loads_no_protocol_module() -> None:
    mods = modules_of(["--help"])
    assert loaded(mods, ("cryptography", "pbem.core", "tomllib", "hashlib", "dataclasses", *WRITERS)) == []


def test_start_up_a_group_s_help_loads_no_hashing_parsing_nor_cryptography() -> None:
    mods = modules_of(["game", "--help"])
    assert loaded(mods, ("cryptography", "tomllib", "hashlib", "pbem.core.identity", "pbem.core.ledger",
                         *[m for m in WRITERS if m != "pbem.cli.game"])) == []


def test_start_up_verify_of_a_public_record_loads_no_sealing_nor_writing(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE / "game", game)
    mods = modules_of(["verify", str(game)])
    assert "pbem.core.envelope" in mods
    assert loaded(mods, (*WRITERS[:6], *READERS, "pbem.core.game", "pbem.core.ruleset", "pbem.core.audit",
                         "pbem.hammer")) == []


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


def test_start_up_exit_freezes_what_is_left_so_the_last_collections_skip_it() -> None:
    """At exit the command's objects are frozen (pbem.cli.main), so Python's final garbage
    collections do not walk every object only to find cycles the process is about to drop."""
    code = ("import atexit, gc\nimport pbem.cli.main\nassert gc.get_freeze_count() == 0\n"
            "atexit._run_exitfuncs()\nprint(gc.get_freeze_count())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 1000
