"""Is this worker's gradebook the one ``grade`` was given? Checked before a Celery worker
grades (and so writes) anything for a task.

``grade`` records its run in its gradebook with a random token (the run's description) and
sends the run's id and token, and its gradebook's URL, with every task. A worker started
with another ``--db`` finds no such run in its own gradebook, or another run under that id:
it refuses the task (dropped, not put back: the run is over), tells ``grade`` through the
broker (``celery_app.refusal_queue``), which names both gradebooks and takes its run's other
tasks back, and stops (``grader worker`` exits 2, naming both too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grader.errors import UsageError
from grader.instructor.batch.plan import BatchPlan
from grader.instructor.gradebook.runs import runs

if TYPE_CHECKING:
    from grader.instructor.gradebook import Gradebook


def other_gradebook(book: Gradebook, plan: BatchPlan) -> UsageError | None:
    """The refusal, when ``book`` does not hold the run ``plan`` belongs to (None: it does,
    or the plan carries no identity: a local run, where there is one gradebook)."""
    if plan.run_id is None or plan.run_token is None:
        return None
    held = next((run for run in runs(book) if run.id == plan.run_id), None)
    if held is not None and held.description.get("token") == plan.run_token:
        return None
    return UsageError(
        "error.worker_other_gradebook",
        worker_db=book.url.render_as_string(hide_password=True),
        grade_db=plan.gradebook or "?",
        run_id=plan.run_id,
    )
