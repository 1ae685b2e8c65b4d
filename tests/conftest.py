"""Settings for the whole test run (docs/performance.md "Test suite").

Files are not flushed to the disk in the test process: ``os.fsync`` there only checks that its
descriptor is open. Why: a flush makes no byte any test reads different (the tests never cut the
power; a killed process loses nothing the kernel holds), yet each one waits for the disk, and a whole
game through the protocol makes some hundreds of them. The tests that check what is flushed, and
when, put their own ``os.fsync`` in place and still see every call. Child processes (the servers,
the mail judge, the bench scripts) flush as always; ``PBEM_TEST_FSYNC=1`` keeps the flushes here too.
"""

from __future__ import annotations

import os


def _fsync_without_the_disk(fd: int) -> None:
    """What ``os.fsync`` checks before it waits for the disk: ``fd`` is an open descriptor."""
    os.fstat(fd)


if os.environ.get("PBEM_TEST_FSYNC") != "1":
    os.fsync = _fsync_without_the_disk
