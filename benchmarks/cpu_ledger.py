"""Every CPU-second of one ``grader grade``, by the process that spent it (kernel figures).

    python benchmarks/cpu_ledger.py LEDGER.json -- grade FOLDER --db URL --jobs 2 --json

Run it with the Python of the tree under test (its ``grader`` is what runs: this file
imports nothing of its own tree, so ``/work/wt/base/.venv/bin/python`` measures that tree).

This process becomes a child subreaper (``PR_SET_CHILD_SUBREAPER``) and forks the grader's
CLI; after it exits, every process of its tree that outlived its parent is reaped here. So
``getrusage(RUSAGE_CHILDREN)`` here is the CPU (user + kernel) of EVERY process of the
batch, whatever else runs on the machine: ``total``. The parts, each from the kernel:

* ``runs``: each run's ``cpu_time`` as its fork server reported it (``wait4`` of the run);
* ``fork_servers``: each student's fork server and its zygote, their own CPU (forking,
  reading reports), read from ``/proc/<pid>/stat`` just before the server is closed;
* ``oracle_processes``: each submission's oracle process (warm-up and answers), read from
  ``/proc/<pid>/stat`` just before it is closed;
* ``masters``: the pool workers' masters (preload, forking), read after each student;
* ``workers`` and ``main``: the grading processes' own CPU (``RUSAGE_SELF``): the parent's
  work per result, with ``gradebook`` (``Gradebook.record_all`` and ``mark_current``,
  per-thread CPU) and ``judge`` (``StudentSession.judge`` on the worker's thread) inside it.

A run's namespaces torn down by a kernel thread are not any process's CPU: they are not here.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PR_SET_CHILD_SUBREAPER = 36
TICK = float(os.sysconf("SC_CLK_TCK"))
_ledger: dict[str, Any] = {"pid": 0, "dir": "", "parts": {}}


def proc_cpu(pid: int) -> tuple[float, float]:
    """(own, reaped children's) CPU seconds of a live process; (0, 0) if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0, 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return (utime + stime) / TICK, (cutime + cstime) / TICK


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _parts() -> dict[str, float]:
    if _ledger["pid"] != os.getpid():  # a forked child keeps its own ledger
        _ledger["pid"], _ledger["parts"] = os.getpid(), {}
    parts: dict[str, float] = _ledger["parts"]
    return parts


def add(name: str, value: float) -> None:
    parts = _parts()
    parts[name] = parts.get(name, 0.0) + value


def save(role: str) -> None:
    parts = dict(_parts())
    parts[role] = own_cpu()
    path = Path(_ledger["dir"]) / f"{os.getpid()}.json"
    path.write_text(json.dumps(parts))


def _thread_timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            add(name, time.thread_time() - started)

    return timed


def install(folder: str) -> None:
    """Patch the grader's parts (inherited by the pool's forked workers)."""
    from grader.app import service
    from grader.instructor.batch import pool, sessions
    from grader.instructor.gradebook import Gradebook
    from grader.proxy.oracle import remote, session

    _ledger["dir"] = folder
    grade = pool._grade

    profiler = None
    if os.environ.get("CPU_LEDGER_PROFILE"):  # a folder: each worker's cProfile, by pid
        import cProfile

        profiler = cProfile.Profile(time.process_time)

    def _grade(source: Any, plan: Any) -> Any:
        if profiler is not None:
            profiler.enable()
        try:
            return grade(source, plan)
        finally:
            if profiler is not None:
                profiler.disable()
                profile = Path(os.environ["CPU_LEDGER_PROFILE"]) / f"{os.getpid()}.prof"
                profiler.dump_stats(str(profile))
            masters = [m for s in sessions._services.values() for m in s._masters.values()]
            _parts()["masters"] = sum(proc_cpu(master.pid)[0] for master in masters)
            save("workers")

    _grade.__module__, _grade.__qualname__ = grade.__module__, grade.__qualname__
    pool._grade = _grade  # type: ignore[assignment]
    for name in ("record_all", "mark_current"):
        setattr(Gradebook, name, _thread_timed("gradebook", getattr(Gradebook, name)))
    service.StudentSession.judge = _thread_timed("judge", service.StudentSession.judge)  # type: ignore[method-assign]

    runs = session.run_with_oracles

    def run_with_oracles(*args: Any, **kwargs: Any) -> Any:
        found = runs(*args, **kwargs)
        done = [run for run in found if run is not None]
        add("runs", sum(float(run.cpu_time or 0.0) for run in done))
        add("run_count", len(done))
        add("submissions", 1)
        return found

    session.run_with_oracles = run_with_oracles

    oracle_close = remote.OracleProcess.close

    def close_oracle(self: Any) -> None:
        add("oracle_processes", sum(proc_cpu(self._process.pid)))
        oracle_close(self)

    remote.OracleProcess.close = close_oracle  # type: ignore[method-assign]
    student_close = service.StudentSession.close

    def close_student(self: Any) -> None:
        proc = getattr(self._server, "_proc", None)
        if proc is not None:
            tree = [proc_cpu(pid) for pid in (proc.pid, *children(proc.pid))]
            add("fork_servers", sum(own for own, _ in tree))
            add("fork_servers_reaped", sum(reaped for _, reaped in tree))
        student_close(self)

    service.StudentSession.close = close_student  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    out, separator, *args = argv
    assert separator == "--", "usage: cpu_ledger.py LEDGER.json -- grade ..."
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    folder = tempfile.mkdtemp(prefix="cpu-ledger-")
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        code: Any = 1
        try:
            install(folder)
            from grader.frontends.cli import run

            sys.argv = ["grader", *args]
            code = run()
        except SystemExit as exc:
            code = exc.code
        finally:
            with contextlib.suppress(Exception):
                save("main")
            sys.stdout.flush()
            os._exit(code if isinstance(code, int) else 1)
    _, status = os.waitpid(pid, 0)
    wall = time.perf_counter() - started
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the orphans of the tree are ours to reap
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                time.sleep(0.05)
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    ledger: dict[str, float] = {}
    for path in Path(folder).glob("*.json"):
        for name, value in json.loads(path.read_text()).items():
            ledger[name] = ledger.get(name, 0.0) + value
        path.unlink()
    os.rmdir(folder)
    ledger["chain"] = usage.ru_utime + usage.ru_stime  # main, workers, masters
    trees = ("fork_servers", "fork_servers_reaped", "oracle_processes")
    ledger["total"] = ledger["chain"] + sum(ledger.get(name, 0.0) for name in trees)
    ledger["wall"] = wall
    Path(out).write_text(json.dumps({k: round(v, 3) for k, v in ledger.items()}, indent=1))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
