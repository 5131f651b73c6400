"""A handle on a runner host that is not our child (a ``Master`` forked it), shaped like the
part of ``subprocess.Popen`` that ``ForkServer`` uses, so both kinds of host are driven alike.

Liveness and signals go through a pidfd (Linux 5.3): the master reaps its hosts, so their
pid could be reused once they exit; a pidfd always names the process it was opened on.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from typing import IO, Any, Protocol


class HostProcess(Protocol):
    """What ``ForkServer`` needs of its host process (``subprocess.Popen`` has all of it)."""

    pid: int
    stdin: IO[bytes] | None
    stdout: IO[bytes] | None
    returncode: Any

    def poll(self) -> int | None: ...

    def kill(self) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


class ForkedHost:
    """A host (or helper) forked by the master; ``stdin``/``stdout`` are our ends of its pipes
    (None for a helper, which talks over a socket of its own)."""

    def __init__(self, pid: int, to_host: int | None = None, from_host: int | None = None) -> None:
        self.pid = pid
        self.stdin: IO[bytes] | None = None
        self.stdout: IO[bytes] | None = None
        if to_host is not None:
            self.stdin = open(to_host, "wb", buffering=0)  # noqa: SIM115
        if from_host is not None:
            self.stdout = open(from_host, "rb", buffering=0)  # noqa: SIM115
        self.returncode: Any = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except OSError:  # already gone (and reaped by the master)
            self._pidfd, self.returncode = None, -1

    def poll(self) -> int | None:
        pidfd = self._pidfd
        if self.returncode is None and pidfd is not None and select.select([pidfd], [], [], 0)[0]:
            self._ended()
        return None if self.returncode is None else int(self.returncode)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and self._pidfd is not None:
            if not select.select([self._pidfd], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(f"runner host {self.pid}", timeout or 0.0)
            self._ended()
        return int(self.returncode)

    def kill(self) -> None:
        if self.poll() is None and self._pidfd is not None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)

    def _ended(self) -> None:
        """Its exit status went to the master, which reaped it: we only know that it ended."""
        self.returncode = -1
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None

    def __del__(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
