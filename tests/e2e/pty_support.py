"""Running ``grader`` under a pseudo-terminal, as an instructor's shell does, and pressing
Ctrl-C: the byte ``\\x03`` written to the terminal, which the line discipline turns into
SIGINT for the whole foreground process group (the grader and its workers)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.batch_support import environment
from tests.e2e.conftest import grader_command

CTRL_C = b"\x03"


@dataclass
class Terminal:
    pid: int
    fd: int
    output: bytearray = field(default_factory=bytearray)

    def pump(self, seconds: float) -> None:
        """Read what the program printed for up to ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.1))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # EIO: the other side closed
                    return
                if not chunk:
                    return
                self.output += chunk

    def press_ctrl_c(self) -> None:
        os.write(self.fd, CTRL_C)

    def wait(self, timeout: float) -> int | None:
        """The exit code (a signal death as 128 + n), or None when still running."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.pump(0.2)
                return os.waitstatus_to_exitcode(status) % 256
            self.pump(0.05)
        return None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


def start(args: Sequence[str], cwd: Path) -> Terminal:
    """``grader *args`` in ``cwd`` on a new pseudo-terminal (the child leads its session)."""
    env = environment({"COLUMNS": "100", "TERM": "xterm"})
    pid, fd = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        try:
            os.chdir(cwd)
            command = [*grader_command(), *args]
            os.execve(command[0], command, env)
        finally:
            os._exit(127)
    return Terminal(pid, fd)


def until(condition: Callable[[], bool], terminal: Terminal, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        terminal.pump(0.2)
    return False
