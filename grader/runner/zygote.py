"""The fork source of "namespaces" runs: a process that never holds a run's data.

Every run is a fork, and a fork copies its parent's memory, freed memory included: a run
forked by the host itself could read what earlier runs printed (H13, tests/hostile/
FINDINGS.md), since the host reads every run's output and builds every result. So the host
forks the zygote once, before its first run, and the zygote forks every run: it only ever
holds descriptors and pids. A run reads its own request from a pipe after the fork.

The host and the zygote talk over a SOCK_SEQPACKET pair, one message per packet (JSON)::

    host -> zygote: {"op": "start", "rid": n}  + fds [out, err, chan, stat, request, passed?]
                    {"op": "kill", "rid": n}
    zygote -> host: {"op": "started", "rid": n, "pid": C} | {"op": "refused", "rid": n, ...}
                    {"op": "ended", "rid": n, "status": s, "cpu": s, "maxrss": b}

The zygote reaps C (``wait4``: the status and rusage the host reports) and then kills the
run's PID 1; it dies with the host (``PR_SET_PDEATHSIG``), and then every run's PID 1 reads
EOF on its lifeline. Also less work per run: the zygote's loop writes to few of the pages a
fork shares, where the host's loop wrote to hundreds after every fork.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import socket
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from grader.runner import sandbox, spawn, userns
from grader.runner.syscalls import CLONE_NEWNET
from grader.runner.view import View

#: Descriptors of a "start" message, in order (a passed one, if any, comes last).
START_FDS = ("out", "err", "chan", "stat", "request")
_PACKET = 1 << 12


def fork(hide: Sequence[str], plan: View | None) -> tuple[int, socket.socket]:
    """Start the zygote (in the host, before any run): its pid, and the host's end."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    host = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            ours.close()
            _serve(theirs, host, hide, plan)
        finally:
            os._exit(0)
    theirs.close()
    return pid, ours


def send(sock: socket.socket, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
    socket.send_fds(sock, [json.dumps(message).encode()], list(fds))


def receive(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and its descriptors; None at EOF."""
    data, fds, _, _ = socket.recv_fds(sock, _PACKET, len(START_FDS) + 1)
    if not data:
        return None, fds
    return json.loads(data), fds


class _Zygote:
    def __init__(self, sock: socket.socket, hide: Sequence[str], plan: View | None):
        self.sock, self.hide, self.plan = sock, hide, plan
        self.runs: dict[int, tuple[int, int, int]] = {}  # C's pid: (rid, init pid, lifeline)
        self.inits: dict[int, int] = {}  # init pid: C's pid
        #: A run's "ended", held until its PID 1 is reaped (shared devices: ``turns``).
        self.ending: dict[int, dict[str, Any]] = {}

    def start(self, rid: int, fds: list[int]) -> None:
        writes, request_r = (fds[0], fds[1], fds[2], fds[3]), fds[4]
        passed = fds[5] if len(fds) > len(START_FDS) else None
        try:
            proc = spawn.launch_from_pipe(
                request_r, writes, passed, self.hide, self.plan, forget=self._forget
            )
        except Exception as exc:  # launch closed nothing
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            send(self.sock, {"op": "refused", "rid": rid, "message": f"{exc!r}"})
            return
        assert proc.init is not None and proc.lifeline is not None
        self.runs[proc.top] = (rid, proc.init, proc.lifeline)
        self.inits[proc.init] = proc.top
        send(self.sock, {"op": "started", "rid": rid, "pid": proc.top})

    def _forget(self) -> None:
        """In C: the pids of the other runs (and their random ids) are not C's to know."""
        self.runs.clear()
        self.inits.clear()
        self.ending.clear()

    def kill(self, rid: int) -> None:
        for top, (known, init, _) in self.runs.items():
            if known == rid:  # C is listed until reaped; I only while not reaped either
                for pid in (init, top) if init in self.inits else (top,):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)

    def end_all(self) -> None:
        """Kill every run, and reap them (bounded): orphans would be zombies of our reaper."""
        for rid, _, _ in list(self.runs.values()):
            self.kill(rid)
        deadline = time.monotonic() + 2.0
        while (self.runs or self.inits) and time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                time.sleep(0.005)
                continue
            self.runs.pop(pid, None)
            self.inits.pop(pid, None)

    def reap(self) -> None:
        for pid, status, (cpu, maxrss) in spawn.reaped():
            top = self.inits.pop(pid, None)
            if top is not None:  # a run's PID 1: gone, its pid free; never signal it again
                ended = self.ending.pop(pid, None)
                if ended is not None:  # and with it the last process of its run
                    send(self.sock, ended)
                continue
            found = self.runs.pop(pid, None)
            if found is None:
                continue
            rid, init, lifeline = found
            ended = {"op": "ended", "rid": rid, "status": status, "cpu": cpu, "maxrss": maxrss}
            if init in self.inits:  # its run's student is gone: so is all it left
                with contextlib.suppress(OSError):
                    os.kill(init, signal.SIGKILL)
                if self.plan is not None and self.plan.bound_devices:
                    self.ending[init] = ended  # told once nothing of the run holds a device
                    ended = None
            os.close(lifeline)
            if ended is not None:
                send(self.sock, ended)


def _serve(sock: socket.socket, host: int, hide: Sequence[str], plan: View | None) -> NoReturn:
    sandbox.die_with_parent(host)
    sandbox.close_fds_except({2, sock.fileno()})  # the host's pipes are the host's alone
    if userns.entered():  # a namespace ours owns, to return to after each run (``userns``)
        sandbox.unshare(CLONE_NEWNET)
    with contextlib.suppress(ChildProcessError):  # its argument parser's names, made once:
        os.wait4(-1, os.WNOHANG)  # else they appear with the first run reaped (H17)
    gc.freeze()  # as the host did: runs forked from here do not touch every object's header
    signal.set_wakeup_fd(-1)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    zygote = _Zygote(sock, hide, plan)
    while True:
        try:
            ready, _, _ = select.select([sock.fileno(), wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_r, 4096):
                    pass
            zygote.reap()
        if sock.fileno() in ready:
            message, fds = receive(sock)
            if message is None:  # the host is gone: end every run, reap it, then ourselves
                zygote.end_all()
                os._exit(0)
            if message.get("op") == "start":
                zygote.start(int(message["rid"]), fds)
            elif message.get("op") == "kill":
                zygote.kill(int(message["rid"]))
