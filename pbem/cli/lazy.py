"""Modules imported on first use: ``pbem.core.lazy``, which the verb modules use under this name."""

from __future__ import annotations

from pbem.core.lazy import LazyModule, lazy

__all__ = ["LazyModule", "lazy"]
