"""One student's grading into a real gradebook (prose exercises: judged in process, no
sandbox needed): missing, malformed, unchanged on a re-run, and a grader failure that is
recorded but retried by the next run."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.app.service import StudentSession
from grader.errors import RunnerFailure
from grader.instructor.batch.layout import StudentSource
from grader.instructor.batch.plan import BatchPlan, StudentOutcome, summarize
from grader.instructor.batch.student import FAILED_SUFFIX, grade_student
from grader.instructor.gradebook import Gradebook
from tests.support.classroom import ENGLISH, zip_bytes

PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")


@pytest.fixture
def book(tmp_path: Path) -> Gradebook:
    return Gradebook(f"sqlite:///{tmp_path / 'g.db'}")


def _plan(tmp_path: Path) -> BatchPlan:
    return BatchPlan(PROSE, tuple((e, "fp") for e in PROSE), weak=False, hide=(str(tmp_path),))


def _student(tmp_path: Path, files: dict[str, bytes]) -> StudentSource:
    root = tmp_path / "subs" / "alice"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    root.mkdir(parents=True, exist_ok=True)
    return StudentSource("alice", root, "folder")


def _statuses(outcome: StudentOutcome) -> dict[str, tuple[str, str]]:
    return {r.exercise: (r.status, r.action) for r in outcome.results}


def test_missing_malformed_and_graded_then_unchanged(tmp_path: Path, book: Gradebook) -> None:
    answer = (ENGLISH / "EX-11-02-answer-en.md").read_bytes()
    source = _student(
        tmp_path, {"EX-11-02/answer.md": answer, "EX-12-02/answer.md": b"\xff\xfe not utf-8"}
    )
    first = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert _statuses(first) == {
        "EX-11-02": ("needs_review", "graded"),
        "EX-12-02": ("error", "graded"),
        "EX-13-02": ("missing", "graded"),
    }
    error = book.result("alice", "EX-12-02")
    assert error is not None and error.reason is not None
    assert error.reason.id == "error.submission_unreadable"
    assert error.reason.params["path"] == "EX-12-02/answer.md"  # relative: stable across runs
    again = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert {action for _, action in _statuses(again).values()} == {"unchanged"}
    assert summarize([first, again], 1.0) == {
        "graded": 3, "unchanged": 3, "passed": 0, "failed": 0, "needs_review": 2,
        "errors": 2, "missing": 2, "seconds": 1.0,
    }  # fmt: skip


def test_a_zip_student_is_graded_like_a_folder(tmp_path: Path, book: Gradebook) -> None:
    answer = (ENGLISH / "EX-13-02-answer-en.md").read_bytes()
    archive = tmp_path / "bob.zip"
    archive.write_bytes(zip_bytes([("EX-13-02/answer.md", answer)]))
    outcome = grade_student(StudentSource("bob", archive, "zip"), _plan(tmp_path), book, tmp_path)
    assert _statuses(outcome)["EX-13-02"] == ("needs_review", "graded")
    assert list(tmp_path.glob("s-*")) == []  # the unpacked copy is gone


@pytest.mark.parametrize("failure", [RunnerFailure(detail="host died"), RuntimeError("bug")])
def test_a_grader_failure_is_recorded_and_retried_next_run(
    tmp_path: Path, book: Gradebook, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    answer = (ENGLISH / "EX-11-02-answer-en.md").read_bytes()
    source = _student(tmp_path, {"EX-11-02/answer.md": answer})

    def broken(*_: object) -> None:
        raise failure

    monkeypatch.setattr(StudentSession, "judge", broken)
    failed = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert _statuses(failed)["EX-11-02"] == ("error", "graded")
    row = book.result("alice", "EX-11-02")
    assert row is not None and row.verdict_fingerprint == "fp" + FAILED_SUFFIX
    assert row.reason is not None and row.reason.id == "batch.grading_failed"
    assert "host died" in str(row.reason.params["detail"]) or "RuntimeError: bug" in str(
        row.reason.params["detail"]
    )
    monkeypatch.undo()
    retried = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert _statuses(retried)["EX-11-02"] == ("needs_review", "graded")


def test_plan_travels_as_json() -> None:
    plan = BatchPlan(("EX-11-01",), (("EX-11-01", "abc+rlimits"),), weak=True, hide=("/a", "/b"))
    assert plan.fingerprint("EX-11-01") == "abc+rlimits"
    assert BatchPlan.from_json(plan.to_json()) == plan


def test_a_long_answer_cut_by_the_budget_is_final(tmp_path: Path, book: Gradebook) -> None:
    """The rubric's budget counts windows, not seconds: an answer too long to read is cut
    the same way on every run, so its row is final, and the next run leaves it alone."""
    long = "".join(f"第 {n} 句：worker 在 ACK 之前被 kill，消息会重新投递。" for n in range(260))
    source = _student(tmp_path, {"EX-11-02/answer.md": long.encode()})
    plan = BatchPlan(("EX-11-02",), (("EX-11-02", "fp"),), weak=False, hide=())
    grade_student(source, plan, book, tmp_path)
    row = book.result("alice", "EX-11-02")
    assert row is not None and row.verdict_fingerprint == "fp"
    again = grade_student(source, plan, book, tmp_path)
    assert [o.action for o in again.results] == ["unchanged"]


def test_a_prefix_clash_zip_is_that_students_error_rows(tmp_path: Path, book: Gradebook) -> None:
    archive = tmp_path / "eve.zip"
    archive.write_bytes(zip_bytes([("EX-11-02", b"f"), ("EX-11-02/answer.md", b"text\n")]))
    outcome = grade_student(StudentSource("eve", archive, "zip"), _plan(tmp_path), book, tmp_path)
    assert _statuses(outcome) == {e: ("error", "graded") for e in PROSE}
    for exercise in PROSE:
        row = book.result("eve", exercise)
        assert row is not None and row.reason is not None
        assert row.reason.id == "batch.archive_prefix_clash"


def test_a_folder_and_a_zip_of_one_id_are_one_error_row_each(
    tmp_path: Path, book: Gradebook
) -> None:
    outcome = grade_student(
        StudentSource("carol", tmp_path, "clash"), _plan(tmp_path), book, tmp_path
    )
    assert _statuses(outcome) == {e: ("error", "graded") for e in PROSE}
    row = book.result("carol", "EX-11-02")
    assert row is not None and row.reason is not None
    assert (row.reason.id, row.reason.params["student"]) == ("batch.folder_and_zip", "carol")


def test_any_exception_while_unpacking_is_that_students_rows_and_retried(
    tmp_path: Path, book: Gradebook, monkeypatch: pytest.MonkeyPatch
) -> None:
    import grader.instructor.batch.student as student_module

    archive = tmp_path / "dan.zip"
    archive.write_bytes(zip_bytes([("EX-11-02/answer.md", b"text\n")]))

    def unexpected(*_: object) -> None:
        raise FileExistsError(17, "File exists")

    monkeypatch.setattr(student_module, "extract", unexpected)
    source = StudentSource("dan", archive, "zip")
    outcome = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert _statuses(outcome) == {e: ("error", "graded") for e in PROSE}
    row = book.result("dan", "EX-11-02")
    assert row is not None and row.reason is not None
    assert row.reason.id == "batch.grading_failed"
    assert "FileExistsError" in str(row.reason.params["detail"])
    assert row.verdict_fingerprint == "fp" + FAILED_SUFFIX  # the next run tries again
    monkeypatch.undo()
    again = grade_student(source, _plan(tmp_path), book, tmp_path)
    assert _statuses(again)["EX-11-02"] == ("failed", "graded")
