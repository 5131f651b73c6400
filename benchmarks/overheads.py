"""Where a batch's time goes besides the student's code: each cost measured on its own.

Every figure comes from the grader's own parts (a ``Master`` with the exercise's preload,
its fork servers in the batch's isolation mode, the oracle, the gradebook), timed with
``perf_counter`` spans around exactly that part:

* ``sandbox_ms``: one run of ``pass`` in a fork server (the run's process tree, its
  namespaces and mounts, the prelude's set-up and the report), median; ``sandbox_cpu_ms``:
  the machine's CPU time per such run (``MachineCpu``: user and kernel, every process and
  kernel thread, so a namespace's teardown and every copy-on-write fault count too);
* ``oracle``: the reference probe's runs answered by oracles on threads of this process,
  (``run_with_oracles``' default source), whose ``Link.operate`` is timed: the round trips
  per run (operations the oracle asks of the run, and the run's calls) and the seconds per
  run the oracle waits for its operations (the run's side of each one included; a call's
  own round trip, the only kind EX-11-01 has, is not timed here);
* ``oracle_start_ms``: starting one submission's oracle process and closing it, median;
  ``oracle_warm_cpu_ms``: the machine's CPU time per submission's oracle process, started,
  warmed up for its target (what it does before its first conversation) and closed;
* ``gradebook_write_ms``: ``Gradebook.record`` of one grading (with its checks) into SQLite.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class MachineCpu:
    """CPU seconds the whole machine spent (user + kernel; ``/proc/stat``) while inside:
    meaningful on a machine doing nothing else, as a benchmark's should be."""

    def __enter__(self) -> MachineCpu:
        self._started = _busy()
        self.user = self.system = self.idle = 0.0
        return self

    def __exit__(self, *_: object) -> None:
        ended = _busy()
        self.user, self.system, self.idle = (
            b - a for a, b in zip(self._started, ended, strict=True)
        )

    @property
    def seconds(self) -> float:
        return self.user + self.system


def _busy() -> tuple[float, float, float]:
    """(user, system, idle) seconds of the machine since boot, from ``/proc/stat``."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq = fields[:7]
    tick = float(os.sysconf("SC_CLK_TCK"))
    return (user + nice) / tick, (system + irq + softirq) / tick, (idle + iowait) / tick


def _cpu_ms(action: Callable[[], object], repeat: int) -> float:
    with MachineCpu() as cpu:
        for _ in range(repeat):
            action()
    return round(1000 * cpu.seconds / repeat, 2)


def _median_ms(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return round(1000 * statistics.median(samples), 2)


@contextmanager
def timed_links() -> Iterator[dict[str, float]]:
    """While inside: every ``Link`` of this process adds its round trips to the totals."""
    from grader.proxy.oracle import link

    totals = {"operations": 0.0, "calls": 0.0, "seconds": 0.0, "conversations": 0.0}
    lock = threading.Lock()
    operate, serve = link.Link.operate, link.Link.serve

    def timed_operate(self: Any, message: dict[str, Any]) -> Any:
        started = time.perf_counter()
        try:
            return operate(self, message)
        finally:
            with lock:
                totals["seconds"] += time.perf_counter() - started

    def counted_serve(self: Any) -> None:
        try:
            serve(self)
        finally:
            with lock:
                totals["operations"] += self.operations
                totals["calls"] += self.calls
                totals["conversations"] += 1

    link.Link.operate = timed_operate  # type: ignore[method-assign]
    link.Link.serve = counted_serve  # type: ignore[method-assign]
    try:
        yield totals
    finally:
        link.Link.operate = operate  # type: ignore[method-assign]
        link.Link.serve = serve  # type: ignore[method-assign]


def per_exercise(exercise_id: str, reference: str, repeat: int = 10) -> dict[str, Any]:
    """The sandbox, oracle and oracle-start costs of ``exercise_id``'s runs."""
    from grader.app.service import merged_preload
    from grader.judge.exercises import get_exercise
    from grader.judge.exercises.spec import CodeExercise
    from grader.judge.grading import PRELUDE
    from grader.proxy.oracle.remote import OracleProcess
    from grader.proxy.oracle.session import run_with_oracles
    from grader.runner import Master, RunRequest

    exercise = get_exercise(exercise_id)
    assert isinstance(exercise, CodeExercise)
    target = exercise.function_under_test
    request = RunRequest(
        source=reference,
        filename=exercise.student_file,
        prelude=PRELUDE,
        prelude_args={"target": target.to_json()},
    )
    with Master(preload=merged_preload([exercise]), isolation="auto") as master:
        with master.server() as server:
            trivial = RunRequest("pass", exercise.student_file)
            server.run(trivial)
            sandbox_ms = _median_ms(lambda: server.run(trivial), repeat)
            sandbox_cpu_ms = _cpu_ms(lambda: server.run(trivial), 5 * repeat)
            run_with_oracles(server, request, target, ["real"], max_parallel=1)
            with timed_links() as totals:
                for _ in range(repeat):
                    found = run_with_oracles(server, request, target, ["real"], max_parallel=1)
                    if not all(run is not None and run.ok for run in found):
                        raise RuntimeError(f"the reference of {exercise_id} failed: {found}")
        start_ms = _median_ms(lambda: OracleProcess.start(master, target).close(), repeat)

        def warmed() -> None:
            oracles = OracleProcess.start(master, target)
            oracles.oracle(target, "real").close()  # its report comes after the warm-up
            oracles.close()

        warm_cpu_ms = _cpu_ms(warmed, repeat)
        isolation = master.isolation
    conversations = max(1.0, totals["conversations"])
    return {
        "isolation": isolation,
        "sandbox_ms": sandbox_ms,
        "sandbox_cpu_ms": sandbox_cpu_ms,
        "oracle": {
            "operations_per_run": round(totals["operations"] / conversations, 1),
            "calls_per_run": round(totals["calls"] / conversations, 1),
            "round_trip_ms_per_run": round(1000 * totals["seconds"] / conversations, 2),
        },
        "oracle_start_ms": start_ms,
        "oracle_warm_cpu_ms": warm_cpu_ms,
    }


def gradebook_write_ms(repeat: int = 200) -> float:
    """Median time of one ``Gradebook.record`` into a fresh SQLite file."""
    from grader.instructor.gradebook import Gradebook

    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        url = f"sqlite:///{Path(folder) / 'book.db'}"
        with Gradebook(url) as book:
            book.record(sample_entry(0))
            numbers = iter(range(1, repeat + 1))
            return _median_ms(lambda: book.record(sample_entry(next(numbers))), repeat)


def sample_entry(number: int) -> Any:
    """A distinct passed code grading (its checks as a real one's), for write timings."""
    from tests.unit.grader.instructor.gradebook.factories import code_entry

    return code_entry(f"s{number:06d}", f"print({number})\n")


def _tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children, own and reaped (``cpu_ledger.proc_cpu``)."""
    from benchmarks.cpu_ledger import children, proc_cpu

    return sum(sum(proc_cpu(p)) for p in (pid, *children(pid)))


def isolation_cpu(exercise_id: str, repeat: int = 40) -> dict[str, float]:
    """Per run and per submission, in CPU time of the processes involved (not the machine's):

    * ``sandbox_run_ms``: a run of ``pass`` through a fork server of the batch's kind (the
      server, its zygote and the run: fresh fork, namespaces, report), mean;
    * ``bare_run_ms``: ``pass`` forked bare from a preloaded interpreter (``floor``);
    * ``isolation_ms``: their difference, what the isolation adds to each run;
    * ``warm_up_ms``: one submission's oracle process, started and warmed up for its target
      (what it spends before its first conversation), mean.
    """
    from benchmarks import floor
    from grader.app.service import merged_preload
    from grader.judge.exercises import get_exercise
    from grader.judge.exercises.spec import CodeExercise
    from grader.proxy.oracle.remote import OracleProcess
    from grader.runner import Master, RunRequest

    exercise = get_exercise(exercise_id)
    assert isinstance(exercise, CodeExercise)
    target = exercise.function_under_test
    with Master(preload=merged_preload([exercise]), isolation="auto") as master:
        with master.server() as server:
            trivial = RunRequest("pass", exercise.student_file)
            server.run(trivial)
            host = server._proc.pid
            before = _tree_cpu(host)
            for _ in range(repeat):
                server.run(trivial)
            sandbox = (_tree_cpu(host) - before) / repeat
        warm = 0.0
        for _ in range(repeat // 8):
            oracles = OracleProcess.start(master, target)
            oracles.oracle(target, "real").close()  # its report comes after the warm-up
            warm += _tree_cpu(oracles._process.pid)
            oracles.close()
        warm /= repeat // 8
    bare = floor.measure(exercise_id, ["pass"] * 4, jobs=1, parent="preloaded")
    bare_ms = 1000 * bare["cpu_seconds"] / bare["runs"]
    return {
        "sandbox_run_ms": round(1000 * sandbox, 2),
        "bare_run_ms": round(bare_ms, 2),
        "isolation_ms": round(1000 * sandbox - bare_ms, 2),
        "warm_up_ms": round(1000 * warm, 2),
    }
