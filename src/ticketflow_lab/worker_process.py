"""A real ``celery worker`` subprocess the driver can start, kill and restart.

The worker runs in its own session (so it is its own process group): "kill the worker"
means SIGKILL to the whole group — main process and pool children at once, before they
can ACK anything — and cleanup can never leave a pool process behind. Its stdout and
stderr (Celery logs there) go to one file the driver reads.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

WORKER_MODULE = "ticketflow_lab.worker_app"
STOP_TIMEOUT_SECONDS = 10.0
PR_SET_PDEATHSIG = 1


class WorkerLog:
    """The worker's log file, searched as text from a given offset."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def text(self) -> str:
        try:
            return self.path.read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def size(self) -> int:
        return len(self.text())

    def search(self, pattern: str, since: int = 0) -> re.Match[str] | None:
        return re.compile(pattern, re.MULTILINE).search(self.text(), since)

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.text().splitlines()[-lines:])


def worker_command(
    nodename: str,
    queue: str,
    *,
    app_module: str = WORKER_MODULE,
    extra: Sequence[str] = (),
    concurrency: int | None = 1,
) -> list[str]:
    """``concurrency=None``: no ``--concurrency``, the app's ``worker_concurrency`` decides."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        app_module,
        "worker",
        "--pool",
        "prefork",
        *(() if concurrency is None else ("--concurrency", str(concurrency))),
        "--prefetch-multiplier",
        "1",
        "--loglevel",
        "INFO",
        "--hostname",
        nodename,
        "--queues",
        queue,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        *extra,
    ]


def _die_with_parent() -> None:
    """In the forked child, before exec: SIGKILL us if the driver dies (Linux only).

    The worker runs in its own session, so nothing else would stop it if the driver were
    killed without running its cleanup (``kill -9``, a thread-method test timeout).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _parent_pid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may contain spaces
    fields = stat.rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 else None


class WorkerProcess:
    """One run of the worker; ``start()`` again after a kill is a fresh process."""

    def __init__(
        self,
        *,
        env: Mapping[str, str],
        log: WorkerLog,
        nodename: str,
        queue: str,
        app_module: str = WORKER_MODULE,
        extra_args: Sequence[str] = (),
        concurrency: int | None = 1,
    ) -> None:
        self.env = dict(env)
        self.concurrency = concurrency
        self.app_module = app_module
        self.extra_args = tuple(extra_args)
        self.log = log
        self.nodename = nodename
        self.queue = queue
        self._popen: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        if self._popen is None:
            raise RuntimeError("the worker has not been started")
        return self._popen.pid

    def start(self) -> int:
        if self.running():
            raise RuntimeError(f"the worker is already running (pid {self.pid})")
        with self.log.path.open("ab") as output:
            self._popen = subprocess.Popen(
                worker_command(
                    self.nodename,
                    self.queue,
                    app_module=self.app_module,
                    extra=self.extra_args,
                    concurrency=self.concurrency,
                ),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        return self._popen.pid

    def running(self) -> bool:
        return self._popen is not None and self._popen.poll() is None

    def pool_children(self) -> list[int]:
        """Pids of the worker main process's children (the prefork pool)."""
        if not self.running():
            return []
        parent = self.pid
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and _parent_pid(int(entry.name)) == parent:
                children.append(int(entry.name))
        return sorted(children)

    def kill_group(self) -> None:
        """SIGKILL the main process and its pool at once (nothing gets to ACK)."""
        if self._popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._popen.pid, signal.SIGKILL)
        self._popen.wait(timeout=STOP_TIMEOUT_SECONDS)

    def stop(self) -> None:
        """Warm shutdown within a bound, then SIGKILL whatever is left of the group."""
        if self._popen is None:
            return
        if self._popen.poll() is None:
            try:
                os.killpg(self._popen.pid, signal.SIGTERM)
                self._popen.wait(timeout=STOP_TIMEOUT_SECONDS)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                pass
        self.kill_group()

    def __enter__(self) -> WorkerProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
