"""[SB-2] The game is a separate package: pbem.bagpipes imports only pbem.core (and itself)."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem.bagpipes

PACKAGE = Path(pbem.bagpipes.__file__).parent


def test_SB_2_bagpipes_imports_only_the_core() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            for name in names:
                parts = name.split(".")
                if parts[0] == "pbem" and parts[1:2] not in (["core"], ["bagpipes"]):
                    bad.append(f"{path.name}: {name}")
                if parts[0] in ("random", "time", "datetime"):
                    bad.append(f"{path.name}: {name} (adjudication is pure)")
    assert bad == []
