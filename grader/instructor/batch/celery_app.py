"""The Celery side of distributed grading: one task per student, configured as lesson 13
teaches.

- ``task_acks_late``: the message is acknowledged only after the student was recorded, so
  a worker lost mid-student leaves it on the queue for another worker;
- ``task_reject_on_worker_lost``: a pool process killed mid-task puts the message back
  instead of acknowledging it;
- ``worker_prefetch_multiplier=1``: a worker holds one student beyond the one it grades,
  so a lost worker strands little work;
- exactly-once *recording*: a redelivered student is graded again, but each
  (student, exercise, content, fingerprint) lands once, under the gradebook's unique
  key, and the task's "finished" row is unique per (run, student);
- one gradebook: a task of a run the worker's gradebook does not hold is refused before
  anything is written, ``grade`` is told, and the worker stops (``batch.identity``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

from grader.errors import UsageError

QUEUE = "grader.batch"
TASK_NAME = "grader.batch.grade_student"
DB_SETTING = "grader_db_url"
WEAK_SETTING = "grader_allow_weak_isolation"
#: A task that failed for a reason outside the student's code (the database went away) is
#: retried this many times, then left for ``grade`` to report.
MAX_RETRIES = 5

_process: dict[str, Any] = {}
#: In ``grader worker``'s main process: the refusal that stopped the worker, if any.
_refused: list[UsageError] = []


def create_batch_app(broker: str, db_url: str | None = None) -> Any:
    from celery import Celery

    app = Celery("grader-batch", broker=broker, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        task_default_queue=QUEUE,
        task_ignore_result=True,
        task_default_delivery_mode="persistent",
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=3,
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        worker_cancel_long_running_tasks_on_connection_loss=True,
    )
    app.conf[DB_SETTING] = db_url

    @app.task(name=TASK_NAME, bind=True, max_retries=MAX_RETRIES, shared=False)  # type: ignore[untyped-decorator]
    def grade_student_task(
        self: Any,
        run_id: str,
        student: str,
        path: str,
        kind: str,
        plan: dict[str, Any],
        published: float | None = None,
    ) -> None:
        db_url = self.app.conf[DB_SETTING]
        refusal = _other_gradebook(db_url, plan)
        if refusal is not None:  # nothing written; grade hears of it and ends the run
            from celery.exceptions import Reject

            raise Reject(_text(refusal), requeue=False)
        try:
            run_student(db_url, run_id, student, path, kind, plan, published=published)
        except Exception as error:  # not the student's fault: try again, then give up
            raise self.retry(exc=error, countdown=2) from error

    return app


def run_student(
    db_url: str,
    run_id: str,
    student: str,
    path: str,
    kind: str,
    plan_json: dict[str, Any],
    *,
    published: float | None = None,
) -> None:
    """Grade one student in this worker process and note it finished for ``run_id``.

    The "finished" row's summary carries the task's ``timings`` (``task_timings``)."""
    from grader.instructor.batch.layout import SourceKind, StudentSource
    from grader.instructor.batch.plan import BatchPlan
    from grader.instructor.batch.student import grade_student

    started = time.time()
    book, scratch = _process_state(db_url)
    writes = book.write_seconds
    plan = BatchPlan.from_json(plan_json)
    hide = (*plan.hide, str(scratch))
    if db_url and book.files:
        hide = (*hide, *book.files)
    plan = dataclasses.replace(plan, hide=tuple(dict.fromkeys(hide)))
    chosen: SourceKind = "zip" if kind == "zip" else "clash" if kind == "clash" else "folder"
    source = StudentSource(student, Path(path), chosen)
    outcome = grade_student(source, plan, book, scratch)
    timings = task_timings(published, started, time.time(), book.write_seconds - writes)
    book.finish_task(run_id, student, {**outcome.to_json(), "timings": timings})


def task_timings(
    published: float | None, started: float, graded: float, gradebook_seconds: float
) -> dict[str, Any]:
    """When the task was published, started and done grading (``time.time()``, one clock
    per machine), the seconds of gradebook writes in between, and which worker process ran
    it: enough to tell the time outside grading from the grading itself."""
    return {
        "published": published,
        "started": started,
        "graded": graded,
        "gradebook_seconds": round(gradebook_seconds, 6),
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }


def refusal_queue(run: str) -> Any:
    """The queue through which a worker tells ``grade``'s run ``run`` that it refused it
    (``grade`` declares it before queueing any student, and deletes it when done)."""
    from kombu.entity import Queue

    name = f"{QUEUE}.refused.{run}"
    return Queue(name, routing_key=name, durable=False)  # type: ignore[no-untyped-call]


def watch_gradebook(app: Any, db_url: str) -> None:
    """In ``grader worker``'s main process: at the first task of a run its gradebook does not
    hold, remember the refusal, tell ``grade`` (``refusal_queue``) and stop the worker with
    exit code 2 (its pool process refuses the task itself, see the task). A run found once
    is not looked up again."""
    from celery.signals import task_received
    from celery.worker import state

    from grader.instructor.batch.identity import other_gradebook
    from grader.instructor.batch.plan import BatchPlan
    from grader.instructor.gradebook import Gradebook

    held: set[tuple[int, str]] = set()

    @task_received.connect(weak=False)  # type: ignore[untyped-decorator]
    def _check(request: Any = None, **_: Any) -> None:
        args: list[Any] = list(getattr(request, "args", None) or ())
        if len(args) < 5 or not isinstance(args[4], dict):
            return
        plan = BatchPlan.from_json(args[4])
        if plan.run_id is None or plan.run_token is None:
            return
        if (plan.run_id, plan.run_token) in held:
            return
        with Gradebook(db_url) as book:
            refusal = other_gradebook(book, plan)
        if refusal is None:
            held.add((plan.run_id, plan.run_token))
            return
        with contextlib.suppress(Exception):  # dropped here too: a prefetched one as well
            request.reject(requeue=False)
        if not _refused:
            _refused.append(refusal)
            _tell_grade(app, str(args[0]), refusal)
        state.should_stop = 2


def _tell_grade(app: Any, run: str, refusal: UsageError) -> None:
    """Best effort: ``grade`` names both gradebooks too (else it finds no worker, and says so)."""
    queue = refusal_queue(run)
    said = {**refusal.params, "worker": f"{socket.gethostname()}:{os.getpid()}"}
    with contextlib.suppress(Exception), app.connection_for_write() as connection:
        connection.Producer().publish(
            said, routing_key=queue.routing_key, declare=[queue], serializer="json"
        )


def refusal() -> UsageError | None:
    """Why the worker stopped itself (``watch_gradebook``), if it did."""
    return _refused[0] if _refused else None


def _other_gradebook(db_url: str, plan_json: dict[str, Any]) -> UsageError | None:
    from grader.instructor.batch.identity import other_gradebook
    from grader.instructor.batch.plan import BatchPlan

    book, _ = _process_state(db_url)
    return other_gradebook(book, BatchPlan.from_json(plan_json))


def _text(error: UsageError) -> str:
    from grader.render.catalog import render_message

    return render_message(error.message_id, error.params, "en")


def _process_state(db_url: str) -> tuple[Any, Path]:
    """This pool process's gradebook connection and scratch folder (made after the fork)."""
    if _process.get("pid") != os.getpid():
        from grader.instructor.batch.plan import scratch_folder
        from grader.instructor.gradebook import Gradebook

        _process.clear()
        _process.update(pid=os.getpid(), book=Gradebook(db_url), scratch=scratch_folder())
        import atexit

        from celery.signals import worker_process_shutdown

        # a prefork pool process ends with os._exit (no atexit): the shutdown signal is
        # how it removes its folder; atexit does it for the solo and threads pools
        worker_process_shutdown.connect(_drop_scratch, weak=False, dispatch_uid=__name__)
        atexit.register(_drop_scratch)
    return _process["book"], _process["scratch"]


def _drop_scratch(**_: Any) -> None:
    """Remove this process's scratch folder (unpacked zips) when it ends."""
    if _process.get("pid") == os.getpid():
        shutil.rmtree(_process["scratch"], ignore_errors=True)
