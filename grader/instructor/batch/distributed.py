"""``grader grade --broker URL``: send one Celery task per student, then wait, watching the
gradebook (not a result backend) for the students the workers finished."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from grader.errors import UsageError
from grader.instructor.batch.interrupt import StopRequest
from grader.instructor.batch.layout import StudentSource
from grader.instructor.batch.plan import BatchPlan, StudentOutcome

if TYPE_CHECKING:
    from grader.instructor.gradebook import Gradebook

POLL_SECONDS = 0.5
#: After this long without any finished student, say whether any worker answers.
WORKER_CHECK_SECONDS = 5.0


def shown_url(url: str) -> str:
    from kombu.utils.url import maybe_sanitize_url

    return str(maybe_sanitize_url(url))


def check_broker(app: Any, url: str) -> None:
    """Exit 2, naming the broker, when it cannot be reached."""
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=5)
    except Exception as error:
        detail = (
            str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
        )
        raise UsageError("error.broker_unreachable", url=shown_url(url), detail=detail) from None


def workers_answering(app: Any) -> int:
    try:
        return len(app.control.ping(timeout=1.0) or [])
    except Exception:
        return 0


def grade_distributed(
    students: Sequence[StudentSource],
    plan: BatchPlan,
    *,
    broker: str,
    db_url: str,
    wait_timeout: float,
    on_done: Callable[[StudentOutcome], None],
    note: Callable[[str, dict[str, str | int]], None],
    stop: StopRequest,
) -> list[StudentOutcome]:
    """Queue every student, then wait for them. A stop request (Ctrl-C) or ``wait_timeout``
    without progress ends the wait, and the run's unanswered tasks are revoked and taken off
    the queue, so no worker grades them later; a student a worker is grading already is
    finished and recorded (a re-run records nothing twice)."""
    from grader.instructor.batch.celery_app import QUEUE, TASK_NAME, create_batch_app
    from grader.instructor.gradebook import Gradebook

    app = create_batch_app(broker)
    check_broker(app, broker)
    run_id = str(uuid.uuid4())
    inbox = _Inbox(app, run_id)  # before any student is queued: no refusal is missed
    try:
        task_ids: dict[str, str] = {}
        for source in students:
            sent = app.send_task(
                TASK_NAME,
                args=[run_id, source.student, str(source.path), source.kind, plan.to_json()],
                kwargs={"published": time.time()},
                queue=QUEUE,
            )
            task_ids[source.student] = sent.id
        note("batch.queued", {"count": len(students), "url": shown_url(broker), "run_id": run_id})
        outcomes: dict[str, StudentOutcome] = {}
        last_progress = started = time.monotonic()
        warned = False
        with Gradebook(db_url) as book:
            while len(outcomes) < len(students) and not stop.requested:
                if _collect(book, run_id, outcomes, on_done):
                    last_progress = time.monotonic()
                if len(outcomes) == len(students):
                    break
                now = time.monotonic()
                if not warned and not outcomes and now - started > WORKER_CHECK_SECONDS:
                    warned = True
                    if not workers_answering(app):
                        note("batch.waiting_workers", {"url": shown_url(broker)})
                refused = inbox.refused()
                if refused is not None:  # a worker on another gradebook: it wrote nothing
                    _abandon_rest(app, run_id, task_ids, outcomes, note, "batch.revoked")
                    raise refused
                if now - last_progress > wait_timeout:
                    _abandon_rest(app, run_id, task_ids, outcomes, note, "batch.revoked")
                    raise UsageError(
                        "error.no_worker",
                        url=shown_url(broker),
                        seconds=round(wait_timeout),
                        done=len(outcomes),
                        total=len(students),
                        workers=workers_answering(app),
                    )
                time.sleep(POLL_SECONDS)
            if len(outcomes) < len(students):  # stopped: what finished meanwhile still counts
                _collect(book, run_id, outcomes, on_done)
                _abandon_rest(app, run_id, task_ids, outcomes, note, "batch.revoked_on_stop")
    finally:
        inbox.close()
    return [outcomes[source.student] for source in students if source.student in outcomes]


class _Inbox:
    """Where a worker on another gradebook says it refused this run (``refusal_queue``)."""

    def __init__(self, app: Any, run: str) -> None:
        from grader.instructor.batch.celery_app import refusal_queue

        self._connection = app.connection_for_write()
        self._queue = refusal_queue(run)(self._connection.default_channel)
        self._queue.declare()

    def refused(self) -> UsageError | None:
        message = self._queue.get(no_ack=True)
        if message is None:
            return None
        said = dict(message.payload)
        return UsageError(
            "error.grade_worker_other_gradebook",
            worker=str(said.get("worker", "?")),
            worker_db=str(said.get("worker_db", "?")),
            grade_db=str(said.get("grade_db", "?")),
        )

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._queue.delete()
        self._connection.release()


def _collect(
    book: Gradebook,
    run_id: str,
    outcomes: dict[str, StudentOutcome],
    on_done: Callable[[StudentOutcome], None],
) -> bool:
    """Add the students the workers finished since the last look; True if there were any."""
    finished = book.finished_tasks(run_id)
    new = sorted(set(finished) - set(outcomes))
    for student in new:
        outcomes[student] = StudentOutcome.from_json(finished[student])
        on_done(outcomes[student])
    return bool(new)


def _abandon_rest(
    app: Any,
    run_id: str,
    task_ids: dict[str, str],
    outcomes: dict[str, StudentOutcome],
    note: Callable[[str, dict[str, str | int]], None],
    message_id: str,
) -> None:
    """Revoke the run's tasks no worker finished and purge them from the queue; say so."""
    from grader.instructor.batch.abandon import abandon
    from grader.instructor.batch.celery_app import QUEUE

    unanswered = [task for student, task in task_ids.items() if student not in outcomes]
    revoked, purged = abandon(app, QUEUE, run_id, unanswered)
    note(message_id, {"count": revoked, "purged": purged})
