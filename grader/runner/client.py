"""Caller side: start the host, send run requests, collect :class:`Observations`."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from grader.runner import cgroups, passfd
from grader.runner.forked import HostProcess
from grader.runner.model import (
    ISOLATION_MODES,
    Observations,
    PreludeError,
    RunnerError,
    RunRequest,
)
from grader.runner.protocol import FrameDecoder, encode, read_messages, write_all
from grader.runner.spare import GRADER_ROOT, start_interpreter
from grader.runner.turns import Turns, Waiting

_GRADER_ROOT = GRADER_ROOT
_BOOTSTRAP = (
    f"import sys; sys.path.insert(0, {_GRADER_ROOT!r}); from grader.runner.host import main; main()"
)
#: Added to the longest wall limit in flight before the client gives up on the host.
_ANSWER_SLACK = 15.0


class ForkServer:
    """A warm host process that forks one sandboxed child per run. Thread-safe (serialised).

    ``preload``: modules imported once in the host (e.g. ``"sqlalchemy.orm"``), or
    ``"module:function"`` entries also called there once (a warm-up), so runs skip
    their import cost. ``hide``: paths covered in every run (namespaces mode only; in rlimits
    mode they stay readable). ``isolation``: "auto" (strongest available), "namespaces"
    (RunnerError if unavailable) or "rlimits". The chosen mode is ``self.isolation``.
    """

    #: The client's end of the descriptor channel to the host (``passfd``).
    _fd_channel: socket.socket | None = None
    #: This user's turn on the machine, when the host's runs share its devices (``turns``).
    _turns: Turns | None = None
    #: Told who holds this user's turn when a run has waited for it a while (``turns``).
    turn_waiting: Waiting | None = None

    def __init__(
        self,
        *,
        preload: Sequence[str] = (),
        hide: Sequence[str | Path] = (),
        isolation: str = "auto",
        startup_timeout: float = 120.0,
    ) -> None:
        if isolation not in (*ISOLATION_MODES, "auto"):
            raise ValueError(f"isolation must be 'auto', 'namespaces' or 'rlimits': {isolation!r}")
        self._setup(preload, hide)
        self._fd_channel, host_channel = passfd.pair()
        try:
            self._proc: HostProcess = start_interpreter(
                _BOOTSTRAP,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                pass_fds=(host_channel.fileno(),),
            )
        except OSError as exc:
            self._fd_channel.close()
            raise RunnerError(f"could not start the runner host: {exc}") from exc
        finally:
            host_fd = host_channel.fileno()
            host_channel.close()
        sys_path = host_sys_path()
        hello = {
            "op": "hello",
            "preload": list(self.preload),
            "hide": list(self.hide),
            "isolation": isolation,
            "sys_path": sys_path,
            "fd_channel": host_fd,
        }
        try:
            self._send(hello)
        except RunnerError:
            self.close()
            raise
        self._await_ready(startup_timeout)

    @classmethod
    def _attached(
        cls,
        proc: HostProcess,
        *,
        preload: Sequence[str],
        hide: Sequence[str | Path],
        startup_timeout: float,
        fd_channel: socket.socket | None = None,
    ) -> ForkServer:
        """A server whose host already exists and announces itself (forked by a ``Master``;
        ``fd_channel``: the client's end of its descriptor channel, see ``passfd``)."""
        self = cls.__new__(cls)
        self._setup(preload, hide)
        self._fd_channel = fd_channel
        self._proc = proc
        self._await_ready(startup_timeout)
        return self

    def _setup(self, preload: Sequence[str], hide: Sequence[str | Path]) -> None:
        self.preload = tuple(preload)
        self.hide = tuple(str(Path(p).absolute()) for p in hide)
        self._lock = threading.Lock()
        self._decoder = FrameDecoder()
        self._owner = os.getpid()
        self._broken: str | None = None
        self.cleanup: dict[str, str] = {}
        self._fd_channel = None

    def _await_ready(self, startup_timeout: float) -> None:
        try:
            ready = self._receive(startup_timeout)[0]
        except RunnerError:
            self.close()
            raise
        if ready.get("op") != "ready":
            self.close()
            raise RunnerError(f"runner host failed to start: {ready.get('message', ready)}")
        self.isolation: str = str(ready["isolation"])
        self.pid: int = int(ready["pid"])
        #: Whether student code runs as uid 65534 (always in "namespaces" mode; in "rlimits"
        #: mode only when the host is root and nobody can reach the Python installation).
        self.runs_as_nobody: bool = bool(ready.get("as_nobody"))
        #: Whether its runs see the machine's device nodes (a user's grader: ``userns``): a
        #: lock on one is seen by a run executing at the same time, so they run one by one.
        self.one_at_a_time: bool = bool(ready.get("shared_devices"))
        if self.one_at_a_time:  # and take turns with every other host of this user
            try:
                self._turns = Turns()
            except RunnerError:
                self.close()
                raise
        #: What the host leaves behind if it dies before its own cleanup ("rlimits").
        self.cleanup = _cleanup_of(ready)

    # -- public API --------------------------------------------------------------------

    def run(self, request: RunRequest) -> Observations:
        return self.run_many([request], max_parallel=1)[0]

    def run_many(
        self, requests: Sequence[RunRequest], *, max_parallel: int = 2
    ) -> list[Observations]:
        """Run all requests (at most ``max_parallel`` at once); results in request order.

        Raises :class:`PreludeError` / :class:`RunnerError` after every started run ended if
        any run could not be set up (the first such error).
        """
        return [r for r in self.run_until(requests, max_parallel=max_parallel) if r is not None]

    def run_until(
        self,
        requests: Sequence[RunRequest],
        *,
        max_parallel: int = 2,
        stop: Callable[[int, Observations], bool] | None = None,
        pass_fd_for: Callable[[int], int] | None = None,
        promote: Callable[[int, Observations], int | None] | None = None,
    ) -> list[Observations | None]:
        """``run_many``, but once ``stop(index, observations)`` is true for a result, the runs
        in flight are cancelled (killed) and the rest are never started: their places in
        the result are None, and so is a cancelled run's. ``promote(index, observations)``
        may name a request not started yet: it starts next.

        ``pass_fd_for(index)``: called just before the run at ``index`` is sent, it makes
        the descriptor that run is passed (``passfd``: so that it is made at the run's own
        start, next to the run's pipes). If it raises, nothing more starts, the runs in
        flight are cancelled, and once they have ended a ``RunnerError`` is raised (its own,
        if it raised one)."""
        if max_parallel < 1:
            raise ValueError("max_parallel must be >= 1")
        if self.one_at_a_time:
            max_parallel = 1
        payloads = []
        for request in requests:
            try:
                payloads.append(json.loads(json.dumps(request.to_json(), allow_nan=False)))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"request is not JSON-serialisable: {exc}") from None
        with self._lock:
            self._check_usable()
            results: list[Observations | None] = [None] * len(requests)
            errors: list[RunnerError] = []
            queue = list(enumerate(requests))
            queue.reverse()
            inflight: dict[int, tuple[int, RunRequest]] = {}
            stopped = False
            try:
                while queue or inflight:
                    while queue and len(inflight) < max_parallel:
                        index, request = queue.pop()
                        try:
                            request = _passing(request, index, pass_fd_for)
                        except RunnerError as exc:  # the runs in flight still report
                            errors.append(exc)
                            queue.clear()
                            stopped = True
                            self._cancel(inflight)
                            break
                        if self._turns is not None:  # one run at a time: it is in flight alone
                            self._turns.take(self.turn_waiting)
                        rid = self._new_id(inflight)
                        inflight[rid] = (index, request)
                        self._send_run(rid, request, payloads[index])
                    if not inflight:
                        break
                    wall = max(r.limits.wall_ceiling for _, r in inflight.values())
                    for message in self._receive(wall + _ANSWER_SLACK):
                        slot = inflight.pop(int(message.get("id", -1)), None)
                        if slot is None:
                            raise RunnerError(f"protocol broken: unexpected message {message}")
                        index = slot[0]
                        if message.get("op") == "cancelled":  # it never started
                            continue
                        if message.get("op") != "result":
                            cls = PreludeError if message.get("kind") == "prelude" else RunnerError
                            errors.append(cls(str(message.get("message", "run failed"))))
                        elif not stopped:
                            observed = Observations.from_json(message["observations"])
                            results[index] = observed
                            stopped = stop is not None and stop(index, observed)
                            if stopped:
                                queue.clear()
                                self._cancel(inflight)
                            elif promote is not None:
                                _to_front(queue, promote(index, observed))
                    if self._turns is not None and not inflight:
                        self._turns.give()  # the run, every process of it, is over
            except (RunnerError, KeyError, TypeError, ValueError) as exc:
                self._fail(f"{exc}")
                raise exc if isinstance(exc, RunnerError) else RunnerError(str(exc)) from exc
            finally:
                if self._turns is not None and not inflight:
                    self._turns.give()
            if errors:
                raise errors[0]
            return results

    @property
    def alive(self) -> bool:
        return self._broken is None and self._proc.poll() is None and os.getpid() == self._owner

    def close(self) -> None:
        proc = self._proc
        if proc.stdin and not proc.stdin.closed:
            with contextlib.suppress(RunnerError, OSError, ValueError):
                write_all(proc.stdin.fileno(), encode({"op": "shutdown"}))
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout and not proc.stdout.closed:
            proc.stdout.close()
        if self._fd_channel is not None:
            self._fd_channel.close()
        _clean_after_host(self.cleanup)
        if self._turns is not None:  # after the host is gone: its runs with it
            self._turns.close()
        self._broken = self._broken or "closed"

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- plumbing ------------------------------------------------------------------------

    def _check_usable(self) -> None:
        if os.getpid() != self._owner:
            raise RunnerError("this ForkServer belongs to another process (used after fork)")
        if self._broken is not None:
            raise RunnerError(f"runner host is not usable: {self._broken}")
        if self._proc.poll() is not None:
            raise RunnerError(f"runner host exited with status {self._proc.returncode}")

    def _send_run(self, rid: int, request: RunRequest, payload: dict[str, Any]) -> None:
        """The run's frame, preceded by its descriptors (``passfd``): its pipes, made here
        right after the caller made its passed descriptor, and that one if it has one."""
        if self._fd_channel is None:
            raise RunnerError("this runner host cannot receive descriptors (no channel)")
        pipes = passfd.make_pipes()
        try:
            passfd.send(self._fd_channel, rid, pipes, request.pass_fd)
        except OSError as exc:
            raise RunnerError(f"could not pass descriptors to the runner host: {exc}") from exc
        finally:
            passfd.close_pipes(pipes)
        self._send(
            {"op": "run", "id": rid, "request": payload, "pass_fd": request.pass_fd is not None}
        )

    @staticmethod
    def _new_id(inflight: dict[int, Any]) -> int:
        """A run's id: random, never a count. The host and the zygote hold it, and a run
        can read what the process that forked it holds (H14, tests/hostile/FINDINGS.md): a
        count would tell the run its place in the batch."""
        while (rid := secrets.randbits(52)) in inflight:
            pass
        return rid

    def _cancel(self, inflight: dict[int, Any]) -> None:
        for rid in inflight:
            self._send({"op": "cancel", "id": rid})

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        write_all(self._proc.stdin.fileno(), encode(message))

    def _receive(self, timeout: float) -> list[dict[str, Any]]:
        assert self._proc.stdout is not None
        return read_messages(self._proc.stdout.fileno(), self._decoder, timeout)

    def _fail(self, reason: str) -> None:
        self._broken = reason
        if self._proc.poll() is None:
            self._proc.kill()
        self.close()


def _passing(
    request: RunRequest, index: int, pass_fd_for: Callable[[int], int] | None
) -> RunRequest:
    """``request`` with the descriptor ``pass_fd_for`` makes for it; any failure of that is
    a ``RunnerError``."""
    if pass_fd_for is None:
        return request
    try:
        return dataclasses.replace(request, pass_fd=pass_fd_for(index))
    except RunnerError:
        raise
    except Exception as exc:
        raise RunnerError(f"could not make a run's descriptor: {exc!r}") from exc


def _cleanup_of(ready: dict[str, Any]) -> dict[str, str]:
    found = ready.get("cleanup")
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if k in ("cgroup", "scratch") and isinstance(v, str)}


def _to_front(queue: list[tuple[int, RunRequest]], index: int | None) -> None:
    """The request at ``index`` starts next, if it has not started (``queue`` pops from its
    end)."""
    at = next((i for i, (number, _) in enumerate(queue) if number == index), None)
    if at is not None:
        queue.append(queue.pop(at))


def _clean_after_host(cleanup: dict[str, str]) -> None:
    """The host is gone; if it died before cleaning up (killed by a run with its uid, in
    "rlimits" mode), kill what is left in its cgroup and remove its scratch directory."""
    if "cgroup" in cleanup:
        cgroups.clean(cleanup["cgroup"])
    scratch = cleanup.get("scratch", "")
    if os.path.basename(scratch).startswith("grader-host-") and os.path.isdir(scratch):
        shutil.rmtree(scratch, ignore_errors=True)


def host_sys_path() -> list[str]:
    """The caller's ``sys.path`` for the host (which imports ``preload`` and preludes as root),
    without the current directory: ``''``, relative entries and the cwd itself are dropped, so a
    stray ``sqlite3.py`` wherever the caller happens to stand is neither imported by the root
    host nor exposed to the student. The grader package's own root always comes first."""
    cwd = os.getcwd()
    kept = [_GRADER_ROOT]
    for entry in sys.path:
        if entry and os.path.isabs(entry) and os.path.normpath(entry) != cwd and entry not in kept:
            kept.append(entry)
    return kept


def run_once(
    request: RunRequest,
    *,
    preload: Sequence[str] = (),
    hide: Sequence[str | Path] = (),
    isolation: str = "auto",
) -> Observations:
    """Start a host, run one request, stop the host."""
    with ForkServer(preload=preload, hide=hide, isolation=isolation) as server:
        return server.run(request)
