"""Writes that never leave a half-written file (protocol §7.5): a temporary name, then a rename.

Temporary names are unique (``mkstemp`` in the target folder), so two writers never share one,
and a file is created with its final mode from the start (a key file is never readable by
others, not even for a moment).
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_MODE = 0o644


def write_temp(path: Path, data: bytes, mode: int | None = None) -> Path:
    """``data`` under a fresh temporary name ``.NAME.XXXXXXXX.tmp`` beside ``path``, flushed to disk,
    created with ``mode`` (default 0644 less the umask); on any failure it is removed first."""
    import tempfile  # here, not at the top: the verbs that only read never pay for it (or for random)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            # mkstemp creates the file 0600; only public files are widened (a secret is never wider)
            if mode is None:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fh.fileno(), DEFAULT_MODE & ~umask)
            elif mode != 0o600:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
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
