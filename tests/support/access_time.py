"""A file's access time set back for a block, under a lock every suite on the machine shares.

The attack tests on access times (a read that moves one is a bit for a later run) set the
access time of the interpreter's own ``this.py`` three days back, run, and check that it did
not move. That file is the machine's: two suites side by side (or two workers of one) that
set it at once would each find the other's value and fail. Measured: both sides of a pair of
``make test`` failed so, 49 s apart. So the block holds an exclusive ``flock`` on one file
in the temporary folder for as long as it runs.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The interpreter's ``this.py``: in every run's view, and read by no honest code.
STDLIB_FILE = Path(os.path.dirname(os.__file__)) / "this.py"
#: Older than relatime's day: a read would move it.
DAYS_BACK = 3


def lock_path() -> Path:
    return Path(tempfile.gettempdir()) / f"ticketflow-tests-{os.geteuid()}-access-time.lock"


@contextmanager
def stale_access_time(path: Path = STDLIB_FILE) -> Iterator[float]:
    """Set ``path``'s access time ``DAYS_BACK`` days back for the block (yielded), then put
    back what it was; no other block of this kind on the machine runs meanwhile."""
    with open(lock_path(), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = os.stat(path)
        old = time.time() - DAYS_BACK * 86400
        os.utime(path, (old, before.st_mtime))
        try:
            yield old
        finally:
            os.utime(path, (before.st_atime, before.st_mtime))
