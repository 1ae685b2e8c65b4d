"""Writes that never leave a half-written file (protocol §7.5): a temporary name, then a rename."""

from __future__ import annotations

import os
from pathlib import Path


def write_temp(path: Path, data: bytes, mode: int | None = None) -> Path:
    """``data`` under the temporary name ``.NAME.tmp`` beside ``path``, flushed to disk; on any
    failure the temporary file is removed before the error goes on."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_atomic(path: Path, data: bytes | str, mode: int | None = None) -> None:
    """One file, whole or not at all; a failure (a full disk) names ``path``, not the temporary."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        tmp = write_temp(path, raw, mode)
        try:
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
