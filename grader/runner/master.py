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
import sys
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from grader.runner import passfd
from grader.runner.client import _GRADER_ROOT, _HOST_ENV, ForkServer, host_sys_path
from grader.runner.forked import ForkedHost
from grader.runner.model import ISOLATION_MODES, RunnerError

_BOOTSTRAP = (
    f"import sys; sys.path.insert(0, {_GRADER_ROOT!r}); "
    "from grader.runner.master_main import run; run(int(sys.argv[1]))"
)
#: Largest packet either side sends (a hello with a long sys.path is the biggest).
MAX_PACKET = 1 << 20


#: The spare master process (``launch_spare``): process, our end, owner pid, and the hello
#: it was already sent (``greet_spare``), if any.
_spare: tuple[subprocess.Popen[bytes], socket.socket, int, dict[str, Any] | None] | None = None
#: Every open ``Master`` of this process (see ``_drop_in_forked_child``).
_open: weakref.WeakSet[Master] = weakref.WeakSet()


def _drop_in_forked_child() -> None:
    """In a child forked from this process (a pool worker, ``os.fork``): close our copies of
    the masters' sockets. The child may never use them (see ``Master._owner``), and a copy
    left open would keep a master alive after this process is gone: it ends on EOF."""
    for master in list(_open):
        master._sock.close()
    if _spare is not None:
        _spare[1].close()


os.register_at_fork(after_in_child=_drop_in_forked_child)


def launch_spare() -> None:
    """Start a master's process now, before anything is known about it (it waits for its
    hello, so it holds nothing): the next ``Master`` of this process adopts it. A one-shot
    ``grader check`` calls this first thing, so the master's interpreter start-up overlaps
    the grader's own imports instead of following them. ``discard_spare`` ends it unused."""
    global _spare
    if _spare is None:
        proc, sock = _launch()
        _spare = (proc, sock, os.getpid(), None)


def greet_spare(
    *, preload: Sequence[str] = (), hide: Sequence[str | Path] = (), isolation: str = "auto"
) -> bool:
    """Send the spare its hello now, so it starts importing ``preload`` while this process
    is still loading the rest of the grader. Only a ``Master`` made later with exactly these
    arguments adopts it; any other ends it and starts a process of its own. Best effort:
    False (and no spare any more) if it could not be sent."""
    global _spare
    spare = _spare
    if spare is None or spare[3] is not None or spare[2] != os.getpid():
        return False
    hello = _hello(preload, hide, isolation)
    try:
        spare[1].settimeout(5.0)
        spare[1].send(json.dumps(hello).encode())
    except OSError:
        discard_spare()
        return False
    _spare = (*spare[:3], hello)
    return True


def discard_spare() -> None:
    """End the spare master process if no ``Master`` adopted it."""
    taken = _take_spare()
    if taken is not None:
        _end_spare(*taken[:2])


def _end_spare(proc: subprocess.Popen[bytes], sock: socket.socket) -> None:
    sock.close()
    proc.kill()  # it holds nothing secret; waiting for it to notice would cost its start-up
    proc.wait()


def _take_spare() -> tuple[subprocess.Popen[bytes], socket.socket, dict[str, Any] | None] | None:
    global _spare
    spare, _spare = _spare, None
    if spare is None:
        return None
    proc, sock, owner, greeted = spare
    if owner != os.getpid():  # inherited through a fork: the parent's, not ours
        return None
    if proc.poll() is not None:
        sock.close()
        return None
    return proc, sock, greeted


def _adopt_or_launch(hello: dict[str, Any]) -> tuple[subprocess.Popen[bytes], socket.socket, bool]:
    """The spare if it is still unspoken for, or was greeted with this very ``hello`` (then
    True: it is already preloading); else a new process. A spare greeted for another master
    is ended: what it preloads is not what this one needs."""
    taken = _take_spare()
    if taken is not None:
        proc, sock, greeted = taken
        if greeted is None or greeted == hello:
            return proc, sock, greeted is not None
        _end_spare(proc, sock)
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
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOTSTRAP, str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            env=_HOST_ENV,
            cwd="/",
            start_new_session=True,
            pass_fds=(theirs.fileno(),),
        )
    except OSError as exc:
        ours.close()
        raise RunnerError(f"could not start the master fork server: {exc}") from exc
    finally:
        theirs.close()
    return proc, ours


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
