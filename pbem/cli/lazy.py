"""Modules imported on first use, so a verb pays only for what it runs (docs/architecture.md "Start-up").

A verb module writes ``identity = lazy("pbem.core.identity")`` instead of ``from pbem.core
import identity``; the module is imported the first time one of its names is read, and
``pbem --help`` or ``pbem key show`` never loads the engine, cryptography, the bots or the demo.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """A stand-in for a module: the first attribute read imports it (then every read goes to it)."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name}{'' if self._module is None else ' (loaded)'}>"


def lazy(name: str) -> Any:
    """The module ``name``, imported when first used (typed ``Any``: use it like the module)."""
    return LazyModule(name)
