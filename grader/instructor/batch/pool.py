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
import multiprocessing
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from grader.instructor.batch.layout import StudentSource
from grader.instructor.batch.plan import BatchPlan, StudentOutcome

_PR_SET_PDEATHSIG = 1
#: How many times a student whose worker process died is tried again.
_RETRIES = 2

_worker: dict[str, Any] = {}


def preload() -> None:
    """What the master imports before forking (workers inherit it, warm)."""
    import grader.instructor.batch.student
    import grader.judge.exercises
    import grader.judge.grading
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
) -> list[StudentOutcome]:
    """Grade ``sources`` with ``jobs`` processes; ``on_done`` after each student."""
    preload()
    context = multiprocessing.get_context("fork")
    outcomes: list[StudentOutcome] = []
    pending = list(sources)
    tries = {source.student: 0 for source in sources}
    while pending:
        with ProcessPoolExecutor(
            max_workers=max(1, min(jobs, len(pending))),
            mp_context=context,
            initializer=_init_worker,
            initargs=(db_url, str(scratch)),
        ) as executor:
            futures: dict[Future[dict[str, Any]], StudentSource] = {
                executor.submit(_grade, source, plan): source for source in pending
            }
            pending = []
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    source = futures.pop(future)
                    try:
                        outcome = StudentOutcome.from_json(future.result())
                    except BrokenProcessPool:
                        tries[source.student] += 1
                        if tries[source.student] > _RETRIES:
                            raise
                        pending.append(source)
                        continue
                    outcomes.append(outcome)
                    on_done(outcome)
    return outcomes
