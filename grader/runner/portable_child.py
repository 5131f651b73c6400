"""One portable run: a fresh interpreter that runs the student's source once, then exits.

Started by ``grader.runner.portable`` as ``python -X utf8 -I -c BOOTSTRAP``, with the run's
workdir as its working directory, often before its run is known. Its stdin holds one line
of hello (``sys.path`` and the modules to import ahead, which it imports at once), then its
request (one JSON document, to EOF). Then, in the order a forking run uses
(``grader.runner.child``):

connects to the caller's loopback socket and sends its one-time secret (that socket is the
run's channel, ``grader.runner.passed``) -> prelude -> the source written into the workdir
-> the limits this platform offers (``resource``, where it exists) -> the grader's modules
dropped from ``sys.modules`` -> the start token on stdout (the wall limit starts there; the
interpreter's start-up and the imports are not the student's) -> the student's code as
``__main__``.

Standard library only, and nothing that exists on one platform alone: no ``fork``, no
namespaces, no seccomp, no ``prctl``, no ``fcntl``. The exit status contract is
``grader.runner.child``'s: 0 at a normal end, ``sys.exit(n)`` -> ``n & 0xFF``, an uncaught
exception -> 1 with an ``uncaught`` report on the channel, ``os._exit(n)`` -> n.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib
import io
import json
import linecache
import os
import signal
import socket
import sys
import threading
import traceback
import types
from collections.abc import Mapping
from typing import Any, NoReturn

#: Exit status when the runner's own setup failed (its stderr then holds the reason).
SETUP_FAILED = 125
#: First line of stderr when the setup failed in the prelude (the exercise's fault).
PRELUDE_FAILED = "grader-portable: the prelude failed"
_MAX_TRACEBACK = 64 * 1024
_exit = os._exit
_write = os.write
_TracebackException = traceback.TracebackException


def main() -> NoReturn:
    stage = "setup"
    try:
        hello = json.loads(sys.stdin.buffer.readline().decode("utf-8"))
        sys.path[:] = [str(entry) for entry in hello["sys_path"]]
        for name in hello.get("preload", ()):
            with contextlib.suppress(Exception):  # the prelude reports what really fails
                importlib.import_module(str(name))
        request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        workdir = str(request["workdir"])
        os.chdir(workdir)
        _stdin_from_devnull()
        from grader.runner import passed
        from grader.runner.channel import Recorder

        recorder = Recorder(_open_channel(str(request["channel_file"])))
        passed.hand(_connect(int(request["port"]), bytes.fromhex(request["secret"])))
        atexit._clear()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stage = "prelude"
        if request.get("prelude"):
            _run_prelude(str(request["prelude"]), recorder, request.get("prelude_args") or {})
        stage = "setup"
        os.chdir(workdir)
        source, filename = str(request["source"]), str(request["filename"])
        path = os.path.join(workdir, filename)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(source)
        _apply_limits(request.get("limits") or {})
        _prepare_interpreter(source, path, workdir)
        _fresh_stdio()
        _raw(1, str(request["start_token"]))
        del request
    except BaseException:
        head = PRELUDE_FAILED + "\n" if stage == "prelude" else ""
        _raw(2, head + traceback.format_exc())
        _exit(SETUP_FAILED)
    _finish(_execute(source, path, filename, recorder))


def _stdin_from_devnull() -> None:
    null = os.open(os.devnull, os.O_RDONLY)
    if null != 0:
        os.dup2(null, 0)
        os.close(null)


def _open_channel(path: str) -> int:
    """The observation channel: a file of the run's folder (outside its workdir), read by
    the caller after the run. A file works on every platform; what the run writes there is
    a claim, as on the forking modes' pipe."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    return os.open(path, flags | getattr(os, "O_NOINHERIT", 0), 0o600)


def _connect(port: int, secret: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30.0)
    sock.settimeout(None)
    sock.sendall(secret)
    return sock


def _run_prelude(spec: str, recorder: Any, args: Mapping[str, Any]) -> None:
    module_name, _, attr = spec.partition(":")
    target: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        target = getattr(target, part)
    target(recorder, **dict(args))


def _apply_limits(limits: Mapping[str, Any]) -> None:
    """What the platform offers: on POSIX, CPU, file size and open files; memory on Linux
    (RLIMIT_AS, what the forking modes use; macOS does not enforce it). Windows has no
    ``resource`` module: the caller's wall limit is all there is."""
    try:
        import resource
    except ImportError:
        return

    def cap(name: str, soft: int, hard: int | None = None) -> None:
        which = getattr(resource, name, None)
        if which is None:
            return
        hard = soft if hard is None else hard
        _, current = resource.getrlimit(which)
        if current != resource.RLIM_INFINITY:  # cannot raise a hard limit
            soft, hard = min(soft, current), min(hard, current)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (soft, hard))

    cpu = int(limits.get("cpu_seconds", 10))
    cap("RLIMIT_CPU", cpu, cpu + 1)
    cap("RLIMIT_FSIZE", int(limits.get("file_size_bytes", 8 << 20)))
    cap("RLIMIT_NOFILE", int(limits.get("open_files", 256)))
    cap("RLIMIT_CORE", 0)
    if sys.platform.startswith("linux"):
        cap("RLIMIT_AS", int(limits.get("memory_bytes", 1 << 30)))


def _prepare_interpreter(source: str, path: str, workdir: str) -> None:
    """As ``grader.runner.child``: no grader module left loaded, the source in linecache
    (tracebacks), argv and the path of a script run from its folder, no bytecode written."""
    for name in [name for name in sys.modules if name == "grader" or name.startswith("grader.")]:
        del sys.modules[name]
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    sys.argv = [os.path.basename(path)]
    sys.path[0:0] = [workdir]
    sys.dont_write_bytecode = True


def _stream(fd: int, mode: str, errors: str, line: bool) -> io.TextIOWrapper:
    raw = io.FileIO(fd, mode, closefd=False)
    buffered: io.BufferedIOBase
    buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding="utf-8", errors=errors, line_buffering=line)


def _fresh_stdio() -> None:
    """UTF-8 streams whatever the console's code page (a Windows console may be GBK);
    stdout line-buffered, so every complete line printed before a kill is captured."""
    streams = (
        _stream(0, "r", "strict", False),
        _stream(1, "w", "strict", True),
        _stream(2, "w", "backslashreplace", True),
    )
    for name, stream in zip(("stdin", "stdout", "stderr"), streams, strict=True):
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _execute(source: str, path: str, display: str, recorder: Any) -> int:
    main_module = types.ModuleType("__main__")
    main_module.__file__ = path
    main_module.__dict__.update(__builtins__=builtins, __cached__=None)
    sys.modules["__main__"] = main_module
    me = os.getpid()
    try:
        code = compile(source, path, "exec", dont_inherit=True)
        exec(code, main_module.__dict__)
    except SystemExit as exc:
        return _exit_code(exc.code)
    except BaseException as exc:
        _report(exc, path, display, recorder, report=os.getpid() == me)
        return 1
    return 0


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        text = str(code)
    except BaseException:
        text = "<unprintable exit value>"
    _raw(2, text + "\n")
    return 1


def _raw(fd: int, text: str) -> None:
    data = text.encode("utf-8", "backslashreplace")
    try:
        while data:
            data = data[_write(fd, data) :]
    except OSError:
        pass


def trimmed_traceback(exc: BaseException, path: str, display: str) -> tuple[str, int | None]:
    """Traceback text with only the student's frames (renamed to ``display``), and the line:
    the same text ``grader.runner.child`` reports."""
    te = _TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    _trim(te, path, display, set())
    text = "".join(te.format())
    if len(text) > _MAX_TRACEBACK:
        text = text[:4096] + "\n[... traceback trimmed ...]\n" + text[-(_MAX_TRACEBACK - 4096) :]
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None and isinstance(exc, SyntaxError) and exc.filename == path:
        line = exc.lineno
    return text, line


def _trim(te: traceback.TracebackException, path: str, display: str, seen: set[int]) -> None:
    if id(te) in seen:
        return
    seen.add(id(te))
    kept = [frame for frame in te.stack if frame.filename == path]
    for frame in kept:
        frame.filename = display
    te.stack = traceback.StackSummary.from_list(kept)
    if getattr(te, "filename", None) == path:
        te.filename = display
    for nested in (te.__cause__, te.__context__, *(getattr(te, "exceptions", None) or ())):
        if nested is not None:
            _trim(nested, path, display, seen)


def _report(exc: BaseException, path: str, display: str, recorder: Any, report: bool) -> None:
    try:
        text, line = trimmed_traceback(exc, path, display)
    except BaseException:
        text, line = f"{type(exc).__name__}: <traceback unavailable>\n", None
    _raw(2, text)
    if not report:  # a process the student forked (POSIX) ends here too: only ours reports
        return
    try:
        message = str(exc)
    except BaseException:
        message = "<unprintable>"
    kind = type(exc)
    recorder._report_uncaught(
        {
            "type": kind.__qualname__,
            "module": kind.__module__,
            "message": message[:8192],
            "traceback": text,
            "line": line,
        }
    )


def _finish(code: int) -> NoReturn:
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # wait for non-daemon threads
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            with contextlib.suppress(BaseException):
                stream.flush()  # type: ignore[union-attr]
    except BaseException:
        pass
    finally:
        _exit(code)
