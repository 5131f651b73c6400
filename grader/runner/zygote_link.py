"""The host's end of its zygote (``grader.runner.zygote``): start, kill, and hear of ends.

One message per SOCK_SEQPACKET packet; a start waits for its answer, and the ends of other
runs that arrive first are handed on (``on_ended``) in order. Without its zygote the host
cannot run anything: it exits (``GONE``), its client sees EOF, and every run's PID 1, whose
lifeline the zygote held, ends its run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from grader.runner import spawn, zygote
from grader.runner.model import RunnerError, RunRequest
from grader.runner.passfd import Pipes, close_pipes
from grader.runner.protocol import write_all
from grader.runner.view import View

#: Exit status of a host whose zygote is gone (or that could not leave a run's namespaces).
GONE = spawn.SETNS_FAILED
Ended = Callable[[int, int, tuple[float, int]], None]


class ZygoteLink:
    def __init__(self, hide: Sequence[str], plan: View | None, on_ended: Ended):
        self.pid, self._sock = zygote.fork(hide, plan)
        self._sock.setblocking(False)
        self._on_ended = on_ended

    def fileno(self) -> int:
        return self._sock.fileno()

    def start(self, rid: int, request: RunRequest, pipes: Pipes) -> spawn.Launched:
        """Run ``request``; the read ends of ``pipes`` (out, err, chan, stat) are ours once
        this returns, and all are closed if it raises (the passed fd stays the caller's)."""
        ours = [r for r, _ in pipes]
        try:
            request_r, request_w = os.pipe()  # C closes it before the student's code starts
        except BaseException:
            close_pipes(pipes)
            raise
        theirs = [w for _, w in pipes] + [request_r]
        try:
            self._send({"op": "start", "rid": rid}, [*theirs, *spawn.passed_fds([request])])
            reply = self._answer(rid)
        except BaseException:
            for fd in (*ours, request_w):
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        if reply.get("op") != "started" or type(reply.get("pid")) is not int:
            for fd in (*ours, request_w):
                os.close(fd)
            raise RunnerError(f"the zygote refused the run: {reply.get('message')}")
        try:  # C reads it whole first thing; if C is already gone, its end says so
            write_all(request_w, json.dumps(request.to_json()).encode("utf-8", "surrogatepass"))
        except OSError:
            pass
        finally:
            os.close(request_w)
        return spawn.Launched(reply["pid"], ours[0], ours[1], ours[2], ours[3], None)

    def kill(self, rid: int) -> None:
        self._send({"op": "kill", "rid": rid})

    def close(self) -> None:
        """The zygote sees EOF, ends any run left and exits; we reap it (2 s, then SIGKILL)."""
        self._sock.close()
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                    time.sleep(0.005)
                    continue
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)

    def read(self) -> None:
        """Everything the zygote has said (the selector found it readable)."""
        while True:
            try:
                message = self._message()
            except BlockingIOError:
                return
            self._heard(message)

    def _answer(self, rid: int) -> dict[str, Any]:
        self._sock.setblocking(True)
        try:
            while True:
                message = self._message()
                if message.get("op") in ("started", "refused") and message.get("rid") == rid:
                    return message
                self._heard(message)
        finally:
            self._sock.setblocking(False)

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("op") == "ended":
            usage = (float(message["cpu"]), int(message["maxrss"]))
            self._on_ended(int(message["rid"]), int(message["status"]), usage)

    def _message(self) -> dict[str, Any]:
        message, fds = zygote.receive(self._sock)
        for fd in fds:
            os.close(fd)
        if message is None:
            gone()
        return message

    def _send(self, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
        """Waits for room if need be (the zygote reads at once; a start or one kill per run)."""
        self._sock.setblocking(True)
        try:
            zygote.send(self._sock, message, fds)
        except OSError:
            gone()
        finally:
            self._sock.setblocking(False)


def gone() -> NoReturn:
    os._exit(GONE)
