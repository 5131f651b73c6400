"""The master fork server process (see ``grader.runner.master``): preload once, then fork
one runner host per ``spawn`` request. It never reads a run request, so it never holds a
submission, and each host it forks starts from its clean memory.

Started by :class:`grader.runner.master.Master` as a fresh ``python -I`` process with a
minimal environment; its only line to the client is the ``SOCK_SEQPACKET`` socket whose
number is its argument.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import socket
import sys
import traceback
from typing import Any

from grader.runner import host
from grader.runner.model import RunnerError


def main(sock_fd: int) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    sock = socket.socket(fileno=sock_fd)
    try:
        hello = json.loads(sock.recv(1 << 20) or b"{}")
        sys.path[:] = [p for p in hello.get("sys_path", sys.path) if isinstance(p, str)]
        mode = host.choose_isolation(str(hello.get("isolation", "auto")))
        for name in hello.get("preload", ()):
            host.preload(str(name))
        hide = [os.path.abspath(p) for p in hello.get("hide", ())]
        layout = host.host_layout(mode)
    except BaseException as exc:
        text = str(exc) if isinstance(exc, RunnerError) else traceback.format_exc()
        _reply(sock, {"op": "fatal", "message": text})
        return
    gc.collect()
    gc.freeze()  # forked hosts (and their runs) then do not copy every old object's page
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the hosts we fork
    _reply(sock, {"op": "ready", "isolation": mode, "pid": os.getpid()})
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 4096, 2)
        except OSError:
            return
        if not data:
            return  # the client is gone; hosts already forked keep serving their clients
        if _is_spawn(data) and len(fds) == 2:
            _reply(sock, {"op": "spawned", "pid": _fork_host(sock, fds, mode, hide, layout)})
        else:
            _reply(sock, {"op": "error", "message": "expected a spawn with two descriptors"})
        for fd in fds:
            os.close(fd)


def _fork_host(
    sock: socket.socket, fds: list[int], mode: str, hide: list[str], layout: host.Layout
) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            sock.close()  # the host keeps no line to the master
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            host.serve_forked(fds[0], fds[1], mode, hide, layout)
        finally:
            os._exit(0)
    return pid


def _is_spawn(data: bytes) -> bool:
    try:
        message = json.loads(data)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("op") == "spawn"


def _reply(sock: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        sock.send(json.dumps(message).encode())
