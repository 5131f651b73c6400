"""Fork servers that never mix students: a master preloads once, each student gets a fork.

The master process imports the heavy modules (``preload``), chooses the isolation mode and
works out the run's file-system view once, then does nothing but fork: it never receives
a run request, so it never holds a submission. ``master.server()`` forks a fresh runner
host from it and hands back a ``ForkServer`` for one student; every run of that student is
a fork of that host. A run can therefore find in memory only what the master had (no
submission) and what its own student sent; closing the server ends its host.

Client <-> master: one ``AF_UNIX`` ``SOCK_SEQPACKET`` socket, one JSON object per packet;
a ``spawn`` packet carries the new host's two pipe ends (``SCM_RIGHTS``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from grader.runner import passfd, spare
from grader.runner.client import ForkServer, host_sys_path
from grader.runner.forked import ForkedHost
from grader.runner.model import ISOLATION_MODES, RunnerError

#: Largest packet either side sends (a hello with a long sys.path is the biggest).
MAX_PACKET = 1 << 20


#: Every open ``Master`` of this process (see ``_drop_in_forked_child``).
_open: weakref.WeakSet[Master] = weakref.WeakSet()


def _drop_in_forked_child() -> None:
    """In a child forked from this process (a pool worker, ``os.fork``): close our copies of
    the masters' sockets. The child may never use them (see ``Master._owner``), and a copy
    left open would keep a master alive after this process is gone: it ends on EOF."""
    for master in list(_open):
        master._sock.close()


os.register_at_fork(after_in_child=_drop_in_forked_child)


def greet_spare(
    *, preload: Sequence[str] = (), hide: Sequence[str | Path] = (), isolation: str = "auto"
) -> bool:
    """Send the spare its hello now, so it starts importing ``preload`` while this process
    is still loading the rest of the grader. Only a ``Master`` made later with exactly these
    arguments adopts it; any other ends it and starts a process of its own. Best effort:
    False (and no spare any more) if it could not be sent."""
    return spare.greet(_hello(preload, hide, isolation))


def _adopt_or_launch(hello: dict[str, Any]) -> tuple[subprocess.Popen[bytes], socket.socket, bool]:
    """The spare if it is still unspoken for, or was greeted with this very ``hello`` (then
    True: it is already preloading); else a new process. A spare greeted for another master
    is ended: what it preloads is not what this one needs."""
    taken = spare.take_spare()
    if taken is not None:
        proc, sock, greeted = taken
        if greeted is None or greeted == hello:
            return proc, sock, greeted is not None
        spare.end_spare(proc, sock)
    proc, sock = _launch()
    return proc, sock, False


def _hello(preload: Sequence[str], hide: Sequence[str | Path], isolation: str) -> dict[str, Any]:
    if isolation not in (*ISOLATION_MODES, "auto"):
        raise ValueError(f"isolation must be 'auto', 'namespaces' or 'rlimits': {isolation!r}")
    return {
        "op": "hello",
        "preload": list(preload),
        "hide": [str(Path(p).absolute()) for p in hide],
        "isolation": isolation,
        "sys_path": host_sys_path(),
    }


def _launch() -> tuple[subprocess.Popen[bytes], socket.socket]:
    try:
        return spare.launch()
    except OSError as exc:
        raise RunnerError(str(exc)) from exc


class Master:
    """The master fork server. ``preload``, ``hide`` and ``isolation`` as for ``ForkServer``
    (they apply to every server it makes). Thread-safe."""

    def __init__(
        self,
        *,
        preload: Sequence[str] = (),
        hide: Sequence[str | Path] = (),
        isolation: str = "auto",
        startup_timeout: float = 120.0,
    ) -> None:
        hello = _hello(preload, hide, isolation)
        self.preload = tuple(preload)
        self.hide = tuple(hello["hide"])
        self._lock = threading.Lock()
        self._owner = os.getpid()
        self._proc, self._sock, greeted = _adopt_or_launch(hello)
        _open.add(self)
        try:
            ready = self._ask(None if greeted else hello, [], startup_timeout)
        except RunnerError:
            self.close()
            raise
        if ready.get("op") != "ready":
            self.close()
            raise RunnerError(f"master fork server failed to start: {ready.get('message')}")
        self.isolation: str = str(ready["isolation"])
        self.pid: int = self._proc.pid

    def server(self, *, startup_timeout: float = 30.0) -> ForkServer:
        """A fresh ``ForkServer`` for one student, forked from the master (close it after)."""
        to_host_r, to_host_w = os.pipe()
        from_host_r, from_host_w = os.pipe()
        fd_channel, host_channel = passfd.pair()  # the host's end of the descriptor channel
        try:
            with self._lock:
                self._check_usable()
                sent = [to_host_r, from_host_w, host_channel.fileno()]
                reply = self._ask({"op": "spawn"}, sent, startup_timeout)
        except BaseException:
            for fd in (to_host_w, from_host_r):
                os.close(fd)
            fd_channel.close()
            raise
        finally:
            os.close(to_host_r)
            os.close(from_host_w)
            host_channel.close()
        if reply.get("op") != "spawned" or not isinstance(reply.get("pid"), int):
            for fd in (to_host_w, from_host_r):
                os.close(fd)
            fd_channel.close()
            raise RunnerError(f"master could not fork a server: {reply.get('message', reply)}")
        host = ForkedHost(reply["pid"], to_host_w, from_host_r)
        return ForkServer._attached(
            host,
            preload=self.preload,
            hide=self.hide,
            startup_timeout=startup_timeout,
            fd_channel=fd_channel,
        )

    def helper(
        self, entry: str, args: Any = None, *, timeout: float = 30.0
    ) -> tuple[socket.socket, ForkedHost]:
        """Fork an unsandboxed helper that calls the grader's ``entry`` (``"module:function"``)
        with its end of a new ``SOCK_SEQPACKET`` pair and ``args`` (JSON): our end and a
        handle on it (``kill``, ``wait``). It starts with the preload already imported."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with self._lock:
                self._check_usable()
                request = {"op": "helper", "entry": entry, "args": args}
                reply = self._ask(request, [theirs.fileno()], timeout)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        if reply.get("op") != "spawned" or not isinstance(reply.get("pid"), int):
            ours.close()
            raise RunnerError(f"master could not fork a helper: {reply.get('message', reply)}")
        return ours, ForkedHost(reply["pid"])

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None and os.getpid() == self._owner and self._sock.fileno() >= 0

    def close(self) -> None:
        """Stop the master (servers it made keep serving until they are closed)."""
        if os.getpid() != self._owner:
            return
        _open.discard(self)
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        try:
            self._proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def __enter__(self) -> Master:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_usable(self) -> None:
        if os.getpid() != self._owner:
            raise RunnerError("this Master belongs to another process (used after fork)")
        if not self.alive:
            raise RunnerError("the master fork server is not running")

    def _ask(
        self, message: dict[str, Any] | None, fds: list[int], timeout: float
    ) -> dict[str, Any]:
        """Send ``message`` (None: it was sent already, see ``greet_spare``), read the reply."""
        self._sock.settimeout(timeout)
        try:
            if message is not None:
                socket.send_fds(self._sock, [json.dumps(message).encode()], fds)
            data = self._sock.recv(MAX_PACKET)
        except (OSError, TimeoutError) as exc:
            raise RunnerError(f"master fork server did not answer: {exc}") from exc
        if not data:
            raise RunnerError("master fork server exited unexpectedly")
        try:
            reply = json.loads(data)
        except ValueError as exc:
            raise RunnerError(f"master protocol broken: {exc}") from exc
        return reply if isinstance(reply, dict) else {}
