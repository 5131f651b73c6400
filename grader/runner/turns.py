"""A user's runs take turns on this machine: one at a time, across all of the user's hosts.

Without root, a run's ``/dev/null``, ``/dev/zero``... are the machine's own nodes, bound into
its view (``grader.runner.view``: a user cannot make device nodes), and a lock on one is seen
by every process that opens it. Two runs executing at once could pass bits through such a
lock (measured: "held by another run"), even runs of two students graded side by side
(a batch's ``--jobs 2``, or a student's check beside it). So a host that reports shared
devices runs its runs one at a time (``ForkServer.one_at_a_time``), and each run first takes
this user's turn on the machine: an exclusive ``flock`` on one file that only this user can
write, held from before the run is sent until its result is back. The zygote sends a run's
end only once the run's PID 1 is reaped, i.e. once every process of the run is gone
(``grader.runner.zygote``), so no process of it still holds a lock when the next turn begins.

The file is ``<tmp>/grader-<uid>/devices.lock``: the folder is made ``0700`` and must be the
user's own, not a link (else ``RunnerError``: another user could otherwise hold the lock
forever). Graders of one user with different temporary folders (``$TMPDIR``) do not take
turns with each other.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from pathlib import Path

from grader.runner.model import RunnerError


def lock_path() -> Path:
    return Path(tempfile.gettempdir()) / f"grader-{os.geteuid()}" / "devices.lock"


class Turns:
    """This user's turn on the machine; ``take`` waits for it, ``give`` ends it.

    Each instance has its own open file description, so two instances exclude each other
    even in one process (``flock`` belongs to the description)."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or lock_path()
        _own_folder(path.parent)
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise RunnerError(f"cannot open the runs' turn lock {path}: {exc.strerror}") from None

    def take(self) -> None:
        """Wait for the turn (interruptible: Ctrl-C raises here as anywhere else); a turn
        already held is kept (``flock`` converts a lock its description holds)."""
        fcntl.flock(self._fd, fcntl.LOCK_EX)

    def give(self) -> None:
        """End the turn (nothing happens if it is not held)."""
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd >= 0:
            self.give()  # explicitly: a forked child's copy of the descriptor would keep it
            os.close(self._fd)
            self._fd = -1


def _own_folder(folder: Path) -> None:
    """``folder`` exists, is a real directory of this user and no one else may write in it."""
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise RunnerError(f"cannot make {folder} for the runs' turn lock: {exc.strerror}") from None
    found = os.lstat(folder)
    if (
        not stat.S_ISDIR(found.st_mode)
        or found.st_uid != os.geteuid()
        or found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        raise RunnerError(
            f"{folder} is not this user's own private folder (another user may have made it):"
            " remove it, or set TMPDIR to a folder of your own, then try again"
        )
