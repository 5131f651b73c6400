"""The student's process: final setup, the prelude, exec of the source, exit status.

Exit status contract (what the verdict layer sees as ``Observations.exit_code``):

* normal completion -> 0 (after non-daemon threads finished and atexit handlers ran);
* ``SystemExit``: ``None`` -> 0, an int -> that int & 0xFF, anything else -> printed to
  stderr, 1 (like CPython);
* any other uncaught ``BaseException`` (``KeyboardInterrupt`` included) -> the trimmed
  traceback on stderr, an ``uncaught`` report on the channel, exit 1;
* ``os._exit(n)`` by the student -> n; a fatal signal -> ``signal`` set, ``exit_code`` None.

``sys.stdout`` is line-buffered (unlike CPython writing to a pipe), so every complete line
printed before a crash, ``os._exit`` or a timeout kill is captured.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import fcntl  # at import, in the host: a run's import would add to sys.modules
import gc
import io
import linecache
import os
import signal
import sys
import threading
import time
import traceback
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

from grader.runner import sandbox, seccomp, userns
from grader.runner.channel import Recorder
from grader.runner.model import RunRequest, split_prelude
from grader.runner.passfd import PASSED_FD
from grader.runner.protocol import write_status

#: Exit status of the child when the *runner's* setup failed (reported on the status pipe).
SETUP_FAILED = 125
CHANNEL_FD = 3
#: Bound now: the student may replace these module attributes before we need them.
_exit = os._exit
_write = os.write
_TracebackException = traceback.TracebackException
_MAX_TRACEBACK = 64 * 1024


def _arrange_fds(out_w: int, err_w: int, chan_w: int, stat_w: int, passed: int | None) -> int:
    high = [_dup_high(fd) for fd in (out_w, err_w, chan_w, stat_w)]
    passed_high = None if passed is None else _dup_high(passed)
    sandbox.close_fds_except([*high, *(() if passed_high is None else (passed_high,))])
    devnull = os.open("/dev/null", os.O_RDONLY)
    if devnull != 0:
        os.dup2(devnull, 0)
        os.close(devnull)
    os.dup2(high[0], 1)
    os.dup2(high[1], 2)
    os.dup2(high[2], CHANNEL_FD, inheritable=False)
    for fd in high[:3]:
        os.close(fd)
    _settle_passed_fd(passed_high)
    return high[3]


def _settle_passed_fd(fd: int | None) -> None:
    """The caller's passed descriptor (``passfd``) becomes ``PASSED_FD`` in every run."""
    if fd is not None:
        os.dup2(fd, PASSED_FD, inheritable=False)
        os.close(fd)


def _dup_high(fd: int) -> int:
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)


def _stream(fd: int, mode: str, errors: str, line: bool) -> io.TextIOWrapper:
    raw = io.FileIO(fd, mode, closefd=False)
    buffered: io.BufferedIOBase
    buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding="utf-8", errors=errors, line_buffering=line)


def _new_stdio() -> tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper]:
    return (
        _stream(0, "r", "strict", False),
        _stream(1, "w", "strict", True),  # line-buffered: output survives a kill
        _stream(2, "w", "backslashreplace", True),
    )


def _fresh_stdio(ready: _Ready | None) -> None:
    """Unused streams on fds 0-2: the host's ready-made ones, never used in the host."""
    stdio = ready.stdio if ready is not None else _new_stdio()
    for name, stream in zip(("stdin", "stdout", "stderr"), stdio, strict=True):
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


class _Ready:
    """Made in the host before its first run (``prepare``). Building these in each run would
    write to, and so copy, pages of the host's heap that the fork shares: about 5 us each
    here, hundreds of pages per run. Only objects no run has touched: a run takes them."""

    def __init__(self, environment: str | None) -> None:
        self.stdio = _new_stdio()
        #: Copies of the grader's module names (new strings, side by side in memory), and how
        #: to tell that a prelude imported more.
        self.modules = frozenset("".join(name) for name in sys.modules if _is_grader(name))
        self.count, self.last = len(sys.modules), next(reversed(sys.modules))
        #: The student's environment, set in the host already (``environment``: its HOME).
        self.environ: dict[Any, Any] | None = None
        if environment is not None:
            sandbox.scrub_environ(environment)
            self.environ = dict(_environ_data())


_READY: _Ready | None = None


def prepare(workdir: str | None) -> None:
    """In the host, once (``workdir``: the runs' fixed workdir, if they share one; the host's
    own environment is then made the student's)."""
    global _READY
    seccomp.prepare()  # first: it reads the audit switch before the environment is scrubbed
    _READY = _Ready(workdir)


def _environ_data() -> dict[Any, Any]:
    return os.environ._data  # type: ignore[attr-defined,no-any-return]  # the encoded store


def _is_grader(name: str) -> bool:
    return name == "grader" or name.startswith("grader.")


def _run_prelude(spec: str, recorder: Recorder, args: Mapping[str, Any]) -> None:
    import importlib

    module_name, attr = split_prelude(spec)
    target: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        target = getattr(target, part)
    target(recorder, **dict(args))


def main(
    box: list[RunRequest],
    *,
    mode: str,
    fds: tuple[int, int, int, int],
    hide: Sequence[str],
    workdir: str,
    drop: bool,
) -> NoReturn:
    """Entry point in the freshly forked student process; never returns.

    The request travels in ``box`` and is popped here, so that no frame below this one (spawn,
    host loop) still references it once the student runs; this frame drops it before the
    student's code starts. That only defeats walking the stack: the prelude's patches are
    inspectable in-process by design, and freed heap memory is not scrubbed.
    """
    stat_fd, stage = fds[3], "setup"
    request, ready = box.pop(), _READY
    try:
        stat_fd = _arrange_fds(*fds, request.pass_fd)
        _fresh_stdio(ready)
        atexit._clear()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        recorder = Recorder(CHANNEL_FD)
        with contextlib.suppress(FileExistsError):  # its parent: /tmp, or the host's scratch
            os.mkdir(workdir, 0o700)
        os.chdir(workdir)  # the prelude may leave fixture files for the student here
        stage = "prelude"
        if request.prelude:
            _run_prelude(request.prelude, recorder, request.prelude_args)
        stage = "setup"
        os.chdir(workdir)
        path = os.path.join(workdir, request.filename)
        _write_new(path, request.source.encode("utf-8"))
        if mode == "namespaces":
            sandbox.hide(hide)
        if drop:
            if not userns.one_id():  # else the files are ours, and 65534's once dropped
                _give_to_nobody(workdir)
            sandbox.drop_privileges()
        sandbox.apply_rlimits(request.limits)
        _filter_syscalls(mode)
        if ready is None or ready.environ is None or _environ_data() != ready.environ:
            sandbox.scrub_environ(workdir)  # else it is the student's already (``prepare``)
        _prepare_interpreter(request.source, path, workdir, ready)
        _same_start()
        source, filename = request.source, request.filename
        del request
    except BaseException:
        write_status(stat_fd, {"setup_error": traceback.format_exc(), "stage": stage})
        _exit(SETUP_FAILED)
    os.close(stat_fd)
    _finish(_execute(source, path, filename, recorder))


def _same_start() -> None:
    """Nothing the run inherits may count the runs before it (H17, tests/hostile/FINDINGS.md):
    the collector's counts and the free lists of the process that forked it grow with every
    run it started, and logging's start time dates the batch. A full collection empties
    both; logging's clock starts with the run."""
    gc.collect()
    logging = sys.modules.get("logging")
    if logging is not None:
        logging._startTime = time.time()  # type: ignore[attr-defined]


def _filter_syscalls(mode: str) -> None:
    """The seccomp filter (``seccomp``): required in "namespaces" mode, where it is a
    guarantee; best effort in "rlimits" mode, which guarantees nothing between runs."""
    if mode == "namespaces":
        if not seccomp.install():
            raise OSError("no seccomp filter for this machine's architecture")
        return
    with contextlib.suppress(OSError):
        seccomp.install()


def _give_to_nobody(workdir: str) -> None:
    """The workdir and whatever the prelude put there become the student's."""
    for root, dirs, files in os.walk(workdir):
        for name in (root, *(os.path.join(root, n) for n in (*dirs, *files))):
            os.lchown(name, sandbox.NOBODY, sandbox.NOBODY)


def _write_new(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    try:
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)


def _grader_modules(ready: _Ready | None) -> Iterable[str]:
    """The grader's modules now loaded. When nothing was imported since ``prepare`` (same
    count, same last entry: imports append), the host's list, found by lookups: iterating
    sys.modules would touch every one of its ~400 keys' pages."""
    unchanged = ready is not None and len(sys.modules) == ready.count
    if ready is not None and unchanged and next(reversed(sys.modules)) == ready.last:
        return sys.modules.keys() & ready.modules
    return [name for name in list(sys.modules) if _is_grader(name)]


def _prepare_interpreter(source: str, path: str, workdir: str, ready: _Ready | None) -> None:
    for name in _grader_modules(ready):
        del sys.modules[name]
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    sys.argv = [os.path.basename(path)]
    sys.path[0:0] = [workdir]
    sys.dont_write_bytecode = True


def _execute(source: str, path: str, display: str, recorder: Recorder) -> int:
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
    """Traceback text with only the student's frames (renamed to ``display``), and the line."""
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


def _report(exc: BaseException, path: str, display: str, recorder: Recorder, report: bool) -> None:
    try:
        text, line = trimmed_traceback(exc, path, display)
    except BaseException:
        text, line = f"{type(exc).__name__}: <traceback unavailable>\n", None
    _raw(2, text)
    if not report:
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
