"""The local pool never ends the batch for one student: a student whose grading raised, or
whose worker process kept dying, goes to ``on_failed``; the others are graded. A stop
request hands out no further student."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import grader.instructor.batch.pool as pool
from grader.instructor.batch.interrupt import StopRequest
from grader.instructor.batch.layout import StudentSource
from grader.instructor.batch.plan import BatchPlan, ExerciseOutcome, StudentOutcome

PLAN = BatchPlan(("EX-11-02",), (("EX-11-02", "fp"),), weak=False, hide=())


def _fake_grade(source: StudentSource, plan: BatchPlan) -> dict[str, Any]:
    if source.student == "raises":
        raise RuntimeError("unpickled trouble")
    if source.student == "dies":
        os._exit(1)
    return StudentOutcome(
        source.student, (ExerciseOutcome("EX-11-02", "passed", "graded"),)
    ).to_json()


def _run(tmp_path: Path, students: list[str], stop: StopRequest) -> tuple[list[str], list[str]]:
    sources = [StudentSource(s, tmp_path / s, "folder") for s in students]
    failed: list[str] = []

    def on_failed(source: StudentSource, error: BaseException) -> StudentOutcome:
        failed.append(f"{source.student}:{type(error).__name__}")
        return StudentOutcome(source.student, (ExerciseOutcome("EX-11-02", "error", "graded"),))

    outcomes = pool.grade_locally(
        sources, PLAN, db_url=f"sqlite:///{tmp_path / 'g.db'}", scratch=tmp_path, jobs=2,
        on_done=lambda _: None, on_failed=on_failed, stop=stop,
    )  # fmt: skip
    return sorted(o.student for o in outcomes), failed


def test_one_student_raising_or_dying_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pool, "_grade", _fake_grade)
    done, failed = _run(tmp_path, ["a", "raises", "b", "dies", "c"], StopRequest())
    assert done == ["a", "b", "c", "dies", "raises"]
    assert sorted(failed) == ["dies:BrokenProcessPool", "raises:RuntimeError"]


def test_a_stop_request_hands_out_no_student(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pool, "_grade", _fake_grade)
    stop = StopRequest()
    stop.request()
    assert _run(tmp_path, ["a", "b"], stop) == ([], [])
