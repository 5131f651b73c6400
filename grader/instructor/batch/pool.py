"""Grading a class on this machine: ``--jobs N`` worker processes under a master.

The master imports everything once (the grader, the exercise specs, SQLAlchemy) and forks
the workers, so they start warm; it lists the submissions folder but never opens a
submission. Each worker opens its own gradebook connection and grades one student at a
time, with a fresh fork server per student (``sessions``), recording each result in
its own transaction. A worker dies with the master (``PR_SET_PDEATHSIG``), so a killed run
leaves no orphan behind; the next run finds the recorded rows and grades the rest.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from grader.instructor.batch.interrupt import GRACE_SECONDS, StopRequest
from grader.instructor.batch.layout import StudentSource
from grader.instructor.batch.plan import BatchPlan, StudentOutcome

_PR_SET_PDEATHSIG = 1
#: How many times a student whose worker process died is tried again.
_RETRIES = 2
#: How often the dispatcher looks at a stop request while students are in flight.
_TICK = 0.2

_worker: dict[str, Any] = {}


def preload() -> None:
    """What the master imports before forking (workers inherit it, warm)."""
    import grader.instructor.batch.student
    import grader.judge.exercises
    import grader.judge.grading
    import grader.judge.rubric  # else each worker imports it for its first prose answer
    import grader.judge.verdict
    from grader.judge.exercises import exercise_ids, get_exercise

    for exercise_id in exercise_ids():
        get_exercise(exercise_id)
    del grader


def _init_worker(db_url: str, scratch: str) -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the master handles Ctrl-C
    from grader.instructor.gradebook import Gradebook

    _worker["book"] = Gradebook(db_url)
    _worker["scratch"] = Path(scratch)


def _grade(source: StudentSource, plan: BatchPlan) -> dict[str, Any]:
    from grader.instructor.batch.student import grade_student

    outcome = grade_student(source, plan, _worker["book"], _worker["scratch"])
    return outcome.to_json()


def grade_locally(
    sources: Sequence[StudentSource],
    plan: BatchPlan,
    *,
    db_url: str,
    scratch: Path,
    jobs: int,
    on_done: Callable[[StudentOutcome], None],
    on_failed: Callable[[StudentSource, BaseException], StudentOutcome],
    stop: StopRequest,
) -> list[StudentOutcome]:
    """Grade ``sources`` with ``jobs`` processes; ``on_done`` after each student.

    At most ``jobs`` students are handed out at a time, so a stop request (``stop``) only
    has the runs in flight to wait for. A student whose grading raised, or whose worker
    died more than ``_RETRIES`` times, is ``on_failed`` (the master records their rows):
    one student never ends the batch.
    """
    preload()
    context = multiprocessing.get_context("fork")
    outcomes: list[StudentOutcome] = []
    pending = list(sources)
    tries = {source.student: 0 for source in sources}

    def finish(outcome: StudentOutcome) -> None:
        outcomes.append(outcome)
        on_done(outcome)

    while pending and not stop.requested:
        # after a worker died, each student then in flight runs alone: the one whose own
        # code kills its worker is found, and the others are not blamed for it
        suspect = next((s for s in pending if tries[s.student]), None)
        batch = [suspect] if suspect else pending
        rest = [s for s in pending if s is not suspect] if suspect else []
        width = max(1, min(jobs, len(batch)))
        executor = ProcessPoolExecutor(
            max_workers=width,
            mp_context=context,
            initializer=_init_worker,
            initargs=(db_url, str(scratch)),
        )
        stop.kill = functools.partial(_kill_workers, executor)
        try:
            again = _drive(executor, batch, plan, width, tries, finish, on_failed, stop)
        finally:
            stop.kill = lambda: None
            if stop.requested:
                _kill_workers(executor)
            executor.shutdown(wait=not stop.requested, cancel_futures=True)
        pending = again + rest
    return outcomes


def _drive(
    executor: ProcessPoolExecutor,
    queue: list[StudentSource],
    plan: BatchPlan,
    jobs: int,
    tries: dict[str, int],
    finish: Callable[[StudentOutcome], None],
    on_failed: Callable[[StudentSource, BaseException], StudentOutcome],
    stop: StopRequest,
) -> list[StudentSource]:
    """Run ``queue`` on ``executor``; the students to try again on a fresh pool."""
    waiting = list(reversed(queue))
    retry: list[StudentSource] = []
    running: dict[Future[dict[str, Any]], StudentSource] = {}
    stopped_at: float | None = None
    while running or (waiting and not retry and stopped_at is None):
        if stop.requested and stopped_at is None:
            stopped_at = time.monotonic()
        while waiting and not retry and stopped_at is None and len(running) < jobs:
            source = waiting.pop()
            running[executor.submit(_grade, source, plan)] = source
        if stopped_at is not None and time.monotonic() - stopped_at > GRACE_SECONDS:
            return []  # cancelled: the caller kills the workers
        done, _ = wait(running, timeout=_TICK, return_when=FIRST_COMPLETED)
        for future in done:
            source = running.pop(future)
            try:
                finish(StudentOutcome.from_json(future.result()))
            except BrokenProcessPool as error:
                tries[source.student] += 1
                if tries[source.student] > _RETRIES:
                    finish(on_failed(source, error))
                else:
                    retry.append(source)
            except Exception as error:  # raised outside grade_student's own guard
                finish(on_failed(source, error))
    return [] if stop.requested else retry + list(reversed(waiting))


def _kill_workers(executor: ProcessPoolExecutor) -> None:
    """SIGKILL every worker of ``executor`` (their students' fork servers die with them)."""
    for process in list((executor._processes or {}).values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
