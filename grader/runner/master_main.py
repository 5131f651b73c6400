"""The master fork server process (see ``grader.runner.master``): preload once, then fork
one runner host per ``spawn`` request. It never reads a run request, so it never holds a
submission, and each host it forks starts from its clean memory.

A ``helper`` request forks a process that calls a trusted ``"module:function"`` of the
grader with one descriptor and is never sandboxed (the grader's oracle process: it starts
with the preloaded modules already imported, and what it then loads stays in it).

Started by :class:`grader.runner.master.Master` as a fresh ``python -I`` process with a
minimal environment; its only line to the client is the ``SOCK_SEQPACKET`` socket whose
number is its argument.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import signal
import socket
import sys
import traceback
from typing import Any

from grader.runner import host, housing, sandbox
from grader.runner.model import RunnerError
from grader.runner.protocol import encode, write_all


def run(sock_fd: int) -> None:
    """``main``, then exit at once: nothing to tear down (no files, no cleanup), and an
    interpreter teardown with SQLAlchemy loaded costs a one-shot ``grader check`` ~15 ms."""
    try:
        main(sock_fd)
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(0)


def main(sock_fd: int) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    sock = socket.socket(fileno=sock_fd)
    try:
        hello = json.loads(sock.recv(1 << 20) or b"{}")
        sys.path[:] = [p for p in hello.get("sys_path", sys.path) if isinstance(p, str)]
        mode = housing.choose_isolation(str(hello.get("isolation", "auto")))
        for name in hello.get("preload", ()):
            housing.preload(str(name))
        hide = [os.path.abspath(p) for p in hello.get("hide", ())]
        layout = housing.host_layout(mode)
    except BaseException as exc:
        text = str(exc) if isinstance(exc, RunnerError) else traceback.format_exc()
        _reply(sock, {"op": "fatal", "message": text})
        return
    # Forked hosts (and their runs) then do not copy every old object's page. No collection
    # first: it costs a one-shot check 14-24 ms on its critical path to free a few hundred
    # objects of import-time garbage (the grader's own, never a submission's), which then
    # stay, shared, in the master's memory.
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the hosts we fork
    _reply(sock, {"op": "ready", "isolation": mode, "pid": os.getpid()})
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 4096, 3)
        except OSError:
            return
        if not data:
            return  # the client is gone; hosts already forked keep serving their clients
        request = _request(data)
        if request.get("op") == "spawn" and len(fds) == 3:
            _reply(sock, {"op": "spawned", "pid": _fork_host(sock, fds, mode, hide, layout)})
        elif request.get("op") == "helper" and len(fds) == 1:
            _reply(sock, {"op": "spawned", "pid": _fork_helper(sock, fds[0], request)})
        else:
            _reply(sock, {"op": "error", "message": "expected a spawn or a helper request"})
        for fd in fds:
            os.close(fd)


def _fork_host(
    sock: socket.socket, fds: list[int], mode: str, hide: list[str], layout: housing.Layout
) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            sock.close()  # the host keeps no line to the master
            os.setsid()  # one process group per student: a signal to one never reaches another
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            serve_forked(fds[0], fds[1], mode, hide, layout, fds[2])
        finally:
            os._exit(0)
    return pid


def _fork_helper(sock: socket.socket, fd: int, request: dict[str, Any]) -> int:
    master = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            sock.close()
            sandbox.die_with_parent(master)  # a helper never outlives its master
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            module_name, _, function_name = str(request.get("entry", "")).partition(":")
            function = getattr(importlib.import_module(module_name), function_name)
            function(fd, request.get("args"))
        except BaseException:  # the helper reports its own errors; its client sees the EOF
            os._exit(1)
        os._exit(0)
    return pid


def serve_forked(
    in_fd: int,
    out_fd: int,
    mode: str,
    hide: list[str],
    layout: housing.Layout,
    fd_channel: int = -1,
) -> None:
    """A host forked by the master (``master_main``) for one student: same loop as ``main``,
    minus the hello, whose work the master already did."""
    sandbox.prctl(sandbox.PR_SET_CHILD_SUBREAPER, 1)  # not inherited across fork
    try:
        server = host.Host(in_fd, out_fd, mode, hide, layout)
        server.fd_channel = fd_channel  # the client's descriptors for its runs (``passfd``)
    except BaseException:
        write_all(out_fd, encode({"op": "fatal", "message": traceback.format_exc()}))
        return
    server.announce_and_serve()


def _request(data: bytes) -> dict[str, Any]:
    try:
        message = json.loads(data)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def _reply(sock: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        sock.send(json.dumps(message).encode())
