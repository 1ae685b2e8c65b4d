"""The code stays clean: ruff and mypy (configured in pyproject.toml) find nothing (docs/architecture.md "Tooling").

Both run as their own processes from the project root, so the README's test command checks them too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    """The tool next to this Python (the venv's), else on PATH; the test fails when neither exists."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]' brings it")
    return [found]


def _clean(cmd: list[str]) -> None:
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)} found problems:\n{res.stdout}{res.stderr}"


def test_ruff_finds_nothing() -> None:
    _clean([*_tool("ruff"), "check", "--no-cache", "."])


def test_mypy_strict_finds_nothing_in_pbem() -> None:
    _clean([*_tool("mypy")])  # files, strictness and cache folder: [tool.mypy] in pyproject.toml


def test_mypy_the_type_checker_is_silenced_in_a_handful_of_places_each_saying_why() -> None:
    """Issue 15: "no more than a handful of justified ignores". Each ``type: ignore`` names its
    error code and says why on the same line."""
    found = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "type: ignore" in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert len(found) <= 3, "\n".join(found)
    for line in found:
        assert "type: ignore[" in line and line.rstrip().count("#") >= 2, f"unjustified: {line}"
