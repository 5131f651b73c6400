"""``batch.identity``: a task's run must be in the worker's own gradebook, token and all."""

from __future__ import annotations

from pathlib import Path

from grader.instructor.batch.identity import other_gradebook
from grader.instructor.batch.plan import BatchPlan
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.runs import start_run

PLAN = BatchPlan(("EX-11-01",), (("EX-11-01", "fp"),), weak=False, hide=())


def test_the_run_grade_recorded_is_accepted_and_any_other_is_refused(tmp_path: Path) -> None:
    with (
        Gradebook(f"sqlite:///{tmp_path / 'a.db'}") as mine,
        Gradebook(f"sqlite:///{tmp_path / 'b.db'}") as other,
    ):
        run = start_run(mine, {"submissions": "s", "token": "t1"})
        start_run(other, {"submissions": "s", "token": "t2"})  # the same id, another run
        shown = mine.url.render_as_string(hide_password=True)
        plan = BatchPlan(PLAN.exercises, PLAN.fingerprints, False, (), run, "t1", shown)
        assert other_gradebook(mine, plan) is None
        refused = other_gradebook(other, plan)
        assert refused is not None and refused.message_id == "error.worker_other_gradebook"
        assert refused.params["grade_db"] == shown
        assert refused.params["worker_db"] == other.url.render_as_string(hide_password=True)
        missing = BatchPlan(PLAN.exercises, PLAN.fingerprints, False, (), 99, "t1", shown)
        assert other_gradebook(mine, missing) is not None  # no such run here
        assert other_gradebook(other, PLAN) is None  # a local plan carries no identity


def test_the_identity_travels_in_the_plans_json() -> None:
    plan = BatchPlan(("EX-11-01",), (("EX-11-01", "fp"),), False, (), 3, "tok", "sqlite:///g")
    assert BatchPlan.from_json(plan.to_json()) == plan
