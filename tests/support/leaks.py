"""The end-of-run check: a test run fails if a process it started is still alive.

A pytest plugin (``tests/conftest.py`` loads it; ``-p tests.support.leaks`` loads it
anywhere else). When the session starts, the test process becomes a child subreaper, so
whatever the tests start stays in its tree even when the process that started it dies first:
a ``grader.runner.master_main`` master of a killed ``grader grade``, a fork server, an
oracle process, a ``grader worker`` / ``grader review`` subprocess, a Celery worker, a
browser. "Started by the tests" is exactly "a descendant of this pytest process", read
from ``/proc``: another engineer's run on the same machine, or a second run in the same
checkout, is never counted.

After every fixture has been torn down, the descendants get a grace period to exit; any
still alive fail the run (exit code 1) with one line each (pid, parent, which test was
running when it started, command line), and are then killed, so the machine is left clean.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from dataclasses import dataclass

import pytest

PR_SET_CHILD_SUBREAPER = 36
#: How long processes that are on their way out (a master that just read EOF) may take.
GRACE_SECONDS = float(os.environ.get("TICKETFLOW_TEST_LEAK_GRACE", "10"))
_CMDLINE_CHARS = 240
#: The interpreter's own helpers, started on demand by ``multiprocessing`` (a "spawn" Queue
#: starts the resource tracker): each holds a pipe from this process and exits with it, so
#: a direct child of ours running one is not a leak.
_INTERPRETER_HELPERS = (
    "from multiprocessing.resource_tracker import main",
    "from multiprocessing.forkserver import main",
)


@dataclass(frozen=True)
class Leftover:
    pid: int
    ppid: int
    started: float  # seconds since boot
    command: str


@dataclass
class _Run:
    leftovers: list[Leftover]
    tests: list[tuple[float, str]]  # (seconds since boot at its start, node id)


_RUN = pytest.StashKey[_Run]()


def set_child_subreaper(on: bool) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _boot_seconds() -> float:
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def _stat(pid: int) -> tuple[str, int, float] | None:
    """(state, parent pid, start time in seconds since boot) of ``pid``; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return fields[0].decode(), int(fields[1]), int(fields[19]) / ticks


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return "?"
    text = raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    return text if len(text) <= _CMDLINE_CHARS else text[: _CMDLINE_CHARS - 3] + "..."


def descendants(root: int) -> list[Leftover]:
    """Every live (not zombie) process below ``root``, parents before their children."""
    parents: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None and stat[0] != "Z":
                parents[int(name)] = (stat[1], stat[2])
    found: list[Leftover] = []
    level = [root]
    while level:
        level = [pid for pid, (ppid, _) in parents.items() if ppid in level]
        found += [Leftover(pid, parents[pid][0], parents[pid][1], _command(pid)) for pid in level]
    return found


def reap_zombies(parent: int) -> None:
    """Collect the exit status of ``parent``'s dead children (orphans it adopted)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None and stat[0] == "Z" and stat[1] == parent:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(int(name), os.WNOHANG)


def _interpreter_helper(process: Leftover) -> bool:
    return process.ppid == os.getpid() and any(h in process.command for h in _INTERPRETER_HELPERS)


def still_running(grace: float = GRACE_SECONDS) -> list[Leftover]:
    """This process's descendants that are still alive after ``grace`` seconds (but for the
    interpreter's own ``multiprocessing`` helpers)."""
    me = os.getpid()
    deadline = time.monotonic() + grace
    while True:
        reap_zombies(me)
        left = [p for p in descendants(me) if not _interpreter_helper(p)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.1)


def kill_all(leftovers: list[Leftover]) -> None:
    for process in leftovers:
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while descendants(os.getpid()) and time.monotonic() < deadline:
        reap_zombies(os.getpid())
        time.sleep(0.05)
    reap_zombies(os.getpid())


def _started_during(run: _Run, started: float) -> str:
    tick = 1 / os.sysconf("SC_CLK_TCK")  # /proc gives the start time in whole ticks
    during = [nodeid for at, nodeid in run.tests if at <= started + tick]
    return f"during {during[-1]}" if during else "before the first test"


def report(run: _Run) -> list[str]:
    return [
        f"pid {p.pid} (parent {p.ppid}), started {_started_during(run, p.started)}: {p.command}"
        for p in run.leftovers
    ]


def pytest_configure(config: pytest.Config) -> None:
    set_child_subreaper(True)
    config.stash[_RUN] = _Run([], [])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.config.stash[_RUN].tests.append((_boot_seconds(), item.nodeid))


@pytest.hookimpl(trylast=True)  # after the runner tore down the session-scoped fixtures
def pytest_sessionfinish(session: pytest.Session) -> None:
    run = session.config.stash[_RUN]
    run.leftovers = still_running()
    if run.leftovers:
        kill_all(run.leftovers)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    run = terminalreporter.config.stash[_RUN]
    if not run.leftovers:
        return
    terminalreporter.write_sep(
        "=", f"{len(run.leftovers)} process(es) started by the tests still running", red=True
    )
    for line in report(run):
        terminalreporter.write_line(line)
    terminalreporter.write_line(
        f"They were alive {GRACE_SECONDS:.0f} s after the last fixture was torn down, so the run "
        "fails (exit code 1); they have been killed now. Close what the named test (or its "
        "fixtures) opens: Master / GradingService.close(), ForkServer.close(), wait for the "
        "subprocess it starts."
    )
