"""The portable runner: the same runs, wherever CPython runs (Windows, macOS, a container
without namespaces), for a student's own check. Never official.

``PortableServer`` has the ``ForkServer`` API the grading flow uses (``run``, ``run_many``,
``run_until``, ``isolation``, ``close``), without a fork server: every run is a fresh
interpreter started with ``subprocess`` (``python -X utf8 -I -c BOOTSTRAP``, see
``portable_child``), so nothing of one run is in another's memory, and nothing here calls
``fork``, ``unshare``, ``prctl`` or seccomp.

What it keeps of the forking modes: the request, the prelude, the exit status contract, the
uncaught report, the output caps, the wall limit, the records' parsing limits
(``channel``). What it gives up: every isolation property (a run can read the solutions,
the grader and other files of the user, and the network), fair wall time where there is no
``/proc`` (``fairwall``: on Linux a run is not charged the time it waited for a CPU, as in
the forking modes; elsewhere its wall limit is plain), the process limit, and on Windows
every limit but the wall and the output (no ``resource`` module) and the end of processes a
run leaves behind.

**The private channel.** A forking run gets its conversation socket as a descriptor
(``passfd``), which Windows cannot pass. Here the server listens on 127.0.0.1 (a random
port; loopback only, so no firewall prompt and nothing reachable from elsewhere) and each
run gets a one-time secret (32 random bytes) in its request, on its stdin: the first 32
bytes on a connection must be a run's secret (compared in constant time), else the
connection is dropped; a secret is forgotten once used or once its run ended. The
authenticated socket is handed to ``run_until``'s ``serve_channel(index, sock)``, on a
thread of its own, for the length of the run.

**Records** go to a file in the run's folder, outside its workdir (a file works on every
platform; what a run writes there is a claim, as on the forking modes' pipe).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from grader.runner import fairwall
from grader.runner.channel import MAX_LINE, ChannelReader
from grader.runner.model import (
    RUN_ENVIRONMENT,
    Limits,
    Observations,
    PreludeError,
    RunnerError,
    RunRequest,
)
from grader.runner.spare import GRADER_ROOT

PORTABLE = "portable"
BOOTSTRAP = (
    f"import sys; sys.path.insert(0, {GRADER_ROOT!r}); "
    "from grader.runner.portable_child import main; main()"
)
#: From the interpreter's start to the student's first line (imports, prelude): never
#: charged to the run's wall limit, but bounded.
STARTUP_SECONDS = 120.0
#: After the run's main process ended, how long its output may still take to arrive.
DRAIN_SECONDS = 2.0
SECRET_BYTES = 32
#: How long a connection may take to send its secret.
AUTH_SECONDS = 10.0
#: Serves one run's channel: called on a thread of its own with the run's index and its
#: authenticated socket; returns when the conversation is over (the socket is closed after).
ServeChannel = Callable[[int, socket.socket], None]
#: What a run's thread reports: its observations, the runner's error, or None (cancelled
#: before it started).
_Outcome = Observations | RunnerError | None


class PortableServer:
    """A student's runs, each in a fresh interpreter (see the module docstring)."""

    isolation = PORTABLE
    runs_as_nobody = False

    def __init__(self, *, preload: Sequence[str] = (), python: str | None = None) -> None:
        """``preload``: modules each run's interpreter imports before its request arrives
        (entries ``"module:function"`` import the module; the warm-up is a fork server's)."""
        self._python = python or sys.executable
        self._preload = tuple(preload)
        self._lock = threading.Lock()
        self._secrets: dict[bytes, _Channel] = {}
        self._secrets_lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._closed = False

    # -- the ForkServer API -------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return not self._closed

    def run(self, request: RunRequest) -> Observations:
        return self.run_many([request], max_parallel=1)[0]

    def run_many(
        self, requests: Sequence[RunRequest], *, max_parallel: int = 2
    ) -> list[Observations]:
        return [r for r in self.run_until(requests, max_parallel=max_parallel) if r is not None]

    def run_until(
        self,
        requests: Sequence[RunRequest],
        *,
        max_parallel: int = 2,
        stop: Callable[[int, Observations], bool] | None = None,
        pass_fd_for: Callable[[int], int] | None = None,
        serve_channel: ServeChannel | None = None,
        promote: Callable[[int, Observations], int | None] | None = None,
    ) -> list[Observations | None]:
        """As ``ForkServer.run_until``; a run's channel is served by ``serve_channel``
        (``pass_fd_for``, a descriptor, cannot be passed here: it is refused)."""
        if pass_fd_for is not None:
            raise RunnerError("the portable runner passes no descriptor: use serve_channel")
        if max_parallel < 1:
            raise ValueError("max_parallel must be >= 1")
        with self._lock:
            if self._closed:
                raise RunnerError("this portable runner is closed")
            results: list[Observations | None] = [None] * len(requests)
            errors: list[RunnerError] = []
            done: queue.Queue[tuple[int, _Outcome]] = queue.Queue()
            waiting = list(enumerate(requests))
            waiting.reverse()
            inflight: dict[int, _Run] = {}
            spares: list[_Child] = []
            stopped = False
            try:
                while waiting or inflight:
                    while waiting and len(inflight) < max_parallel and not stopped:
                        index, request = waiting.pop()
                        child = spares.pop(0) if spares else self._child()
                        inflight[index] = self._start(child, index, request, serve_channel, done)
                    while len(spares) < min(len(waiting), max_parallel) and not stopped:
                        spares.append(self._child())  # warming up while the others run
                    if not inflight:
                        break
                    stopped, index = self._collect(done, inflight, results, errors, stop, stopped)
                    outcome = results[index]
                    if promote is not None and not stopped and outcome is not None:
                        wanted = promote(index, outcome)  # it starts next, if not started
                        at = next((i for i, (n, _) in enumerate(waiting) if n == wanted), None)
                        if at is not None:
                            waiting.append(waiting.pop(at))
                    if stopped:
                        waiting.clear()
                        for run in inflight.values():
                            run.cancel()
            finally:
                for spare in spares:
                    spare.discard()
            if errors:
                raise errors[0]
            return results

    def _collect(
        self,
        done: queue.Queue[tuple[int, _Outcome]],
        inflight: dict[int, _Run],
        results: list[Observations | None],
        errors: list[RunnerError],
        stop: Callable[[int, Observations], bool] | None,
        stopped: bool,
    ) -> tuple[bool, int]:
        """Wait for one run to end and record it (unless ``stopped`` already): whether the
        rest is not wanted, and the run's index."""
        index, outcome = done.get()
        inflight.pop(index)
        if isinstance(outcome, RunnerError):
            errors.append(outcome)
            return True, index
        if outcome is None or stopped:
            return stopped, index
        results[index] = outcome
        return stop is not None and stop(index, outcome), index

    def close(self) -> None:
        self._closed = True
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()

    def __enter__(self) -> PortableServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------

    def _child(self) -> _Child:
        return _Child(self._python, self._preload)

    def _start(
        self,
        child: _Child,
        index: int,
        request: RunRequest,
        serve_channel: ServeChannel | None,
        done: queue.Queue[tuple[int, _Outcome]],
    ) -> _Run:
        channel = _Channel(index, serve_channel)
        secret = secrets.token_bytes(SECRET_BYTES)
        with self._secrets_lock:
            self._secrets[secret] = channel
        run = _Run(child, request, self._port(), secret)

        def body() -> None:
            outcome: _Outcome
            try:
                outcome = run.execute()
            except _Cancelled:
                outcome = None
            except RunnerError as exc:
                outcome = exc
            except Exception as exc:  # the runner's own fault: never a verdict
                outcome = RunnerError(f"portable run failed: {exc!r}")
            finally:
                with self._secrets_lock:
                    self._secrets.pop(secret, None)
                channel.end()
            done.put((index, outcome))

        threading.Thread(target=body, name="grader-portable-run", daemon=True).start()
        return run

    def _port(self) -> int:
        if self._listener is None:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.bind(("127.0.0.1", 0))
            listener.listen(16)
            listener.settimeout(0.2)  # so that the accepting thread notices ``close``
            self._listener = listener
            threading.Thread(
                target=self._accept, args=(listener,), name="grader-portable-accept", daemon=True
            ).start()
        return int(self._listener.getsockname()[1])

    def _accept(self, listener: socket.socket) -> None:
        while not self._closed:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(
                target=self._authenticate, args=(conn,), name="grader-portable-auth", daemon=True
            ).start()

    def _authenticate(self, conn: socket.socket) -> None:
        """The connection's first bytes must be the secret of a run in flight."""
        conn.settimeout(AUTH_SECONDS)
        try:
            given = _exactly(conn, SECRET_BYTES)
        except OSError:
            given = b""
        channel = None
        with self._secrets_lock:
            for secret in list(self._secrets):
                if hmac.compare_digest(secret, given):
                    channel = self._secrets.pop(secret)
        if channel is None or not channel.serve(conn):
            conn.close()


class _Channel:
    """One run's private channel: served once, on a thread, until the run ends."""

    def __init__(self, index: int, serve: ServeChannel | None) -> None:
        self.index, self._serve = index, serve
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._ended = False

    def serve(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._ended or self._serve is None:
                return False
            self._sock = sock
            self._thread = threading.Thread(
                target=self._body, args=(sock,), name="grader-portable-channel", daemon=True
            )
            self._thread.start()
            return True

    def _body(self, sock: socket.socket) -> None:
        try:
            assert self._serve is not None
            self._serve(self.index, sock)
        finally:
            sock.close()

    def end(self) -> None:
        """The run is over: so is its conversation (whoever was waiting on it sees EOF)."""
        with self._lock:
            self._ended = True
            sock, thread = self._sock, self._thread
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if thread is not None:
            thread.join(10.0)


class _Child:
    """A fresh interpreter waiting for its run, in a folder of its own (workdir, scratch,
    channel file). Started ahead of its run (``PortableServer`` keeps spares), it imports
    the preload while the runs before it are still going: its start-up then overlaps them
    instead of following them."""

    def __init__(self, python: str, preload: Sequence[str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="grader-portable-"))
        self.workdir, scratch = self.folder / "work", self.folder / "tmp"
        self.channel_file = self.folder / "channel.jsonl"
        self.token = secrets.token_hex(16)
        try:
            self.workdir.mkdir()
            scratch.mkdir()
            self.proc = subprocess.Popen(
                [python, "-X", "utf8", "-I", "-c", BOOTSTRAP],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=_child_env(self.workdir, scratch),
                **_new_group(),
            )
        except OSError as exc:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise RunnerError(f"could not start a portable run: {exc}") from exc
        self.out = _Reader(self.proc.stdout, self.token.encode())
        self.err = _Reader(self.proc.stderr)
        hello = {"sys_path": _child_sys_path(), "preload": [p.partition(":")[0] for p in preload]}
        self._send(json.dumps(hello).encode("utf-8") + b"\n", close=False)

    def start(self, request: bytes) -> None:
        """Its run's request: the rest of its stdin."""
        self._send(request, close=True)

    def _send(self, data: bytes, *, close: bool) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except OSError:
            pass  # it died: its status and stderr say why
        finally:
            if close:
                with contextlib.suppress(OSError):
                    stdin.close()

    def discard(self) -> None:
        """Ended, its pipes drained, its folder removed (a spare no run needed, or after
        its run)."""
        _kill_group(self.proc)
        with contextlib.suppress(OSError):
            self.proc.wait(timeout=10.0)
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        self.out.join(DRAIN_SECONDS)
        self.err.join(DRAIN_SECONDS)
        shutil.rmtree(self.folder, ignore_errors=True)


class _Run:
    """One run in its own ``_Child``: the request, the limits, the output, the end."""

    def __init__(self, child: _Child, request: RunRequest, port: int, secret: bytes) -> None:
        self.request, self.limits, self.child = request, request.limits, child
        self._port, self._secret = port, secret
        self._kill_reason: str | None = None
        self._lock = threading.Lock()

    def cancel(self) -> None:
        self._kill("cancelled")

    def execute(self) -> Observations:
        try:
            return self._execute()
        finally:
            self.child.discard()

    def _execute(self) -> Observations:
        child, proc = self.child, self.child.proc
        payload = {
            **self.request.to_json(),
            "workdir": str(child.workdir),
            "channel_file": str(child.channel_file),
            "port": self._port,
            "secret": self._secret.hex(),
            "start_token": child.token,
        }
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")
        out, err = child.out, child.err
        for reader in (out, err):
            reader.cap = self.limits.output_bytes
            reader.on_overflow = lambda: self._kill("output")
        begun = time.monotonic()
        if self._kill_reason is None:
            child.start(data)
        status = self._wait(proc, out, begun)
        ended = time.monotonic()
        _kill_group(proc)  # its main process ended; so does what it started (POSIX)
        out.join(DRAIN_SECONDS)
        err.join(DRAIN_SECONDS)
        if not out.started:
            self._setup_failed(status, err.text())
        records = ChannelReader(self.limits.record_bytes)
        records.feed(_read_capped(child.channel_file, self.limits.record_bytes + MAX_LINE))
        records.close()
        return _observations(
            status,
            self._kill_reason,
            out,
            err,
            records,
            wall=ended - (out.started or begun),
        )

    def _wait(self, proc: subprocess.Popen[bytes], out: _Reader, begun: float) -> int:
        """The exit status; kills the run at its wall limit, counted from its start token
        and, where ``/proc`` tells (Linux), without the time it waited for a CPU
        (``fairwall``, as the forking modes), or when its start takes longer than
        ``STARTUP_SECONDS``."""
        fair: float | None = None  # seconds after the start when the wall limit is due
        baseline: float | None = None  # its run-queue wait when the student's code began
        while True:
            if out.started is None:
                deadline, reason = begun + STARTUP_SECONDS, "startup"
            else:
                if baseline is None:
                    baseline = _cpu_wait(proc.pid) or 0.0
                fair = self.limits.wall_seconds if fair is None else fair
                deadline, reason = out.started + fair, "wall"
            try:
                return proc.wait(timeout=max(0.0, min(deadline - time.monotonic(), 0.05)))
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if now < deadline:
                continue
            if reason == "wall" and out.started is not None:
                waited = max(0.0, (_cpu_wait(proc.pid) or 0.0) - (baseline or 0.0))
                elapsed = now - out.started
                fair = fairwall.next_deadline(self.limits, elapsed=elapsed, waited=waited)
                if fair is not None:
                    continue
            self._kill(reason)
            return proc.wait()

    def _kill(self, reason: str) -> None:
        with self._lock:
            if self._kill_reason is None:
                self._kill_reason = reason
        if self.child.proc.poll() is None:
            _kill_group(self.child.proc)

    def _setup_failed(self, status: int, stderr: str) -> None:
        if self._kill_reason == "cancelled":
            raise _Cancelled
        if stderr.startswith(_prelude_failed()):
            raise PreludeError(stderr[len(_prelude_failed()) :].strip() or "prelude failed")
        detail = stderr.strip()[-2000:] or f"exit status {status}"
        if self._kill_reason == "startup":
            detail = f"a run did not start within {STARTUP_SECONDS:.0f} s"
        raise RunnerError(f"a portable run could not start: {detail}")


class _Cancelled(RunnerError):
    """The run was cancelled before it started (its result is not wanted)."""


def _prelude_failed() -> str:
    from grader.runner.portable_child import PRELUDE_FAILED

    return PRELUDE_FAILED + "\n"


class _Reader:
    """Reads one of the run's pipes on a thread, keeping at most ``cap`` bytes (then it
    calls ``on_overflow``). With a ``token``, the bytes before the token are the runner's
    (dropped) and the time it arrives is ``started``."""

    def __init__(self, pipe: Any, token: bytes | None = None) -> None:
        self._pipe, self._token = pipe, token
        self.cap = Limits().output_bytes
        self.data = bytearray()
        self.truncated = False
        self.started: float | None = None if token else time.monotonic()
        self._pending = bytearray()
        self.on_overflow: Callable[[], None] = lambda: None
        self._thread = threading.Thread(target=self._body, name="grader-portable-pipe")
        self._thread.daemon = True
        self._thread.start()

    def _body(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := self._pipe.read1(1 << 16):
                self._take(chunk)
        with contextlib.suppress(OSError):
            self._pipe.close()

    def _take(self, chunk: bytes) -> None:
        if self.started is None:
            assert self._token is not None
            self._pending += chunk
            at = self._pending.find(self._token)
            if at < 0:
                return
            self.started = time.monotonic()
            chunk = bytes(self._pending[at + len(self._token) :])
            self._pending.clear()
        room = max(0, self.cap - len(self.data))
        self.data += chunk[:room]
        if len(chunk) > room and not self.truncated:
            self.truncated = True
            self.on_overflow()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def text(self) -> str:
        return bytes(self.data or self._pending).decode("utf-8", "replace")


def _read_capped(path: Path, cap: int) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(cap)
    except OSError:
        return b""


def _observations(
    status: int,
    kill_reason: str | None,
    out: _Reader,
    err: _Reader,
    channel: ChannelReader,
    *,
    wall: float,
) -> Observations:
    exit_code: int | None = None
    sig: int | None = None
    if kill_reason is not None:
        sig = int(getattr(signal, "SIGKILL", 9))
    elif status < 0:  # POSIX: ended by a signal
        sig = -status
    else:
        exit_code = status & 0xFF if os.name != "nt" else status
    uncaught = channel.uncaught if exit_code == 1 else None
    return Observations(
        exit_code=exit_code,
        signal=sig,
        timed_out=kill_reason == "wall",
        limit_hit=_limit_hit(kill_reason, sig, uncaught),
        stdout=bytes(out.data).decode("utf-8", "replace"),
        stderr=bytes(err.data).decode("utf-8", "replace"),
        stdout_truncated=out.truncated,
        stderr_truncated=err.truncated,
        records=tuple(channel.records),
        uncaught=uncaught,
        wall_seconds=round(wall, 6),
        isolation=PORTABLE,
        records_dropped=channel.dropped,
        records_truncated=channel.truncated,
    )


def _limit_hit(kill_reason: str | None, sig: int | None, uncaught: Any) -> str | None:
    """As ``report.classify``, with the signals this platform has."""
    if kill_reason in ("output", "wall"):
        return kill_reason
    if sig is not None and sig == getattr(signal, "SIGXCPU", None):
        return "cpu"
    if sig is not None and sig == getattr(signal, "SIGXFSZ", None):
        return "file_size"
    if isinstance(uncaught, dict):
        kind, message = str(uncaught.get("type")), str(uncaught.get("message"))
        if kind == "MemoryError":
            return "memory"
        if "[Errno 27]" in message:
            return "file_size"
        if "can't start new thread" in message:
            return "processes"
    return None


def _cpu_wait(pid: int) -> float | None:
    """The run's longest run-queue wait so far, where ``/proc`` exists (else None)."""
    try:
        return fairwall.cpu_wait(pid)
    except OSError:
        return None


def _child_sys_path() -> list[str]:
    """The caller's absolute ``sys.path``, the grader's root first, never its cwd."""
    from grader.runner.client import host_sys_path

    return host_sys_path()


def _child_env(workdir: Path, scratch: Path) -> dict[str, str]:
    """The run's whole environment: a fixed one (as the forking modes' ``scrub_environ``),
    plus what Windows needs to start a process and open a socket."""
    bindir = str(Path(sys.executable).parent)
    env = {
        **RUN_ENVIRONMENT,
        "PATH": os.pathsep.join([bindir, os.environ.get("PATH", os.defpath)]),
        "HOME": str(workdir),
        "PYTHONUTF8": "1",
        "TMPDIR": str(scratch),
        "TEMP": str(scratch),
        "TMP": str(scratch),
    }
    for name in ("SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT"):  # Windows: Winsock needs these
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def _new_group() -> dict[str, Any]:
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    if os.name != "nt" and hasattr(os, "killpg"):
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    else:
        with contextlib.suppress(OSError):
            proc.kill()


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks, missing = [], size
    while missing:
        chunk = sock.recv(missing)
        if not chunk:
            break
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)
