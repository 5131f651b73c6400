"""Grading one student: the unit of work of the local pool and of a Celery task.

For each exercise of the plan: find the file (``layout.locate``), read it once
(``load_submission``: no links, regular UTF-8, size cap), hash what was read, and judge it
only when that (student, exercise, sha256, fingerprint) is not in the gradebook yet. Every
outcome, including a bad archive, a malformed file or a failure of the grader itself, is a
gradebook row with its reason: nothing here stops the batch. A student's rows are recorded
together once they are all judged (one transaction: one commit per student, not per row).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.exc import InterfaceError, OperationalError

from grader.app.archive import ArchiveProblem, extract, read_archive
from grader.errors import GraderError, SubmissionError
from grader.instructor.batch.layout import StudentSource, locate
from grader.instructor.batch.plan import BatchPlan, ExerciseOutcome, StudentOutcome, pid_label
from grader.instructor.batch.sessions import Session, student_session
from grader.instructor.gradebook import Gradebook, GradingEntry, GradingKey
from grader.instructor.gradebook.entries import (
    MISSING,
    entry_from_report,
    error_entry,
    missing_entry,
    sha256_text,
)
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import Exercise
from grader.judge.results import ParamValue
from grader.judge.submission import load_submission

#: Appended to the fingerprint of a row recording a failure of the grader itself, so the
#: next run does not take it for a finished grading and tries again.
FAILED_SUFFIX = "+failed"


def grade_student(
    source: StudentSource, plan: BatchPlan, book: Gradebook, scratch: Path
) -> StudentOutcome:
    """Grade every exercise of ``plan`` for one student into ``book``."""
    exercises = [get_exercise(exercise_id) for exercise_id in plan.exercises]
    book.run_id = plan.run_id
    try:
        return _grade_source(source, exercises, plan, book, scratch)
    except (OperationalError, InterfaceError):
        raise  # the gradebook itself is gone: not this student's doing
    except Exception as error:  # never the batch: this student's rows say what happened
        return record_failure(source.student, plan, book, error)


def record_failure(
    student: str, plan: BatchPlan, book: Gradebook, error: BaseException
) -> StudentOutcome:
    """An ``error`` row per exercise naming ``error``, keyed to be tried again next run."""
    detail = (f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)[:300]
    problem = ArchiveProblem("batch.grading_failed", detail=detail)
    exercises = [get_exercise(exercise_id) for exercise_id in plan.exercises]
    digest = _problem_digest(problem.message_id, problem.params)
    return _all_errors(student, exercises, plan, book, digest, problem, suffix=FAILED_SUFFIX)


def _grade_source(
    source: StudentSource,
    exercises: list[Exercise],
    plan: BatchPlan,
    book: Gradebook,
    scratch: Path,
) -> StudentOutcome:
    if source.kind == "clash":
        problem = ArchiveProblem("batch.folder_and_zip", student=source.student)
        digest = _problem_digest(problem.message_id, problem.params)
        return _all_errors(source.student, exercises, plan, book, digest, problem)
    if source.kind == "folder":
        return _grade_tree(source.student, source.path, exercises, plan, book)
    unpacked = Path(tempfile.mkdtemp(prefix="s-", dir=scratch))
    try:
        try:
            data = read_archive(source.path)
            digest = hashlib.sha256(data).hexdigest()
            claimed = extract(data, source.path.name, unpacked)
        except ArchiveProblem as problem:
            digest = _problem_digest(problem.message_id, problem.params)
            return _all_errors(source.student, exercises, plan, book, digest, problem)
        outcome = _grade_tree(source.student, unpacked, exercises, plan, book)
        if claimed is not None and claimed != source.student:
            return StudentOutcome(outcome.student, outcome.results, manifest_student=claimed)
        return outcome
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)


def _grade_tree(
    student: str, root: Path, exercises: list[Exercise], plan: BatchPlan, book: Gradebook
) -> StudentOutcome:
    hide = [Path(path) for path in plan.hide]
    with student_session(hide) as session:
        graded = [
            _grade_one(student, root, exercise, plan, book, session) for exercise in exercises
        ]
    return StudentOutcome(student, _store_all(book, graded))


def _grade_one(
    student: str,
    root: Path,
    exercise: Exercise,
    plan: BatchPlan,
    book: Gradebook,
    session: Session,
) -> ExerciseOutcome | GradingEntry:
    """The grading to record (``_store_all``), or the outcome of an unchanged submission."""
    started = time.perf_counter()
    located = locate(root, exercise)
    if located.missing:
        key = GradingKey(student, exercise.id, MISSING, plan.fingerprint(exercise.id))
        return missing_entry(key, exercise.kind, exercise.max_score, pid_label())
    if located.path is None:
        assert located.problem_id is not None
        where = dict(located.problem_params)
        key = GradingKey(
            student,
            exercise.id,
            _problem_digest(located.problem_id, where),
            plan.fingerprint(exercise.id),
        )
        return error_entry(key, exercise.kind, exercise.max_score, located.problem_id, where)
    try:
        submission = load_submission(exercise, located.path)
    except SubmissionError as error:
        params: dict[str, ParamValue] = {k: _relative(v, root) for k, v in error.params.items()}
        digest = _problem_digest(error.message_id, params)
        key = GradingKey(student, exercise.id, digest, plan.fingerprint(exercise.id))
        return error_entry(
            key,
            exercise.kind,
            exercise.max_score,
            error.message_id,
            params,
            file_name=located.path.name,
            seconds=time.perf_counter() - started,
            worker=pid_label(),
        )
    key = GradingKey(
        student, exercise.id, sha256_text(submission.text), plan.fingerprint(exercise.id)
    )
    if book.mark_current(key):
        return ExerciseOutcome(exercise.id, _status_of(book, key), "unchanged")
    try:
        report = session.judge(exercise, submission)
    except Exception as error:  # the grader failed, not the student: record, retry later
        failed = GradingKey(
            key.student, key.exercise, key.content_sha256, key.verdict_fingerprint + FAILED_SUFFIX
        )
        shown = str(error) if isinstance(error, GraderError) else f"{type(error).__name__}: {error}"
        detail = shown.strip()[:300]
        return error_entry(
            failed,
            exercise.kind,
            exercise.max_score,
            "batch.grading_failed",
            {"detail": detail},
            file_name=located.path.name,
            content=submission.text,
            seconds=time.perf_counter() - started,
            worker=pid_label(),
        )
    return entry_from_report(
        key,
        report,
        file_name=located.path.name,
        content=submission.text,
        seconds=time.perf_counter() - started,
        worker=pid_label(),
        weak_isolation=plan.weak,
    )


def _all_errors(
    student: str,
    exercises: list[Exercise],
    plan: BatchPlan,
    book: Gradebook,
    digest: str,
    problem: ArchiveProblem,
    *,
    suffix: str = "",
) -> StudentOutcome:
    """A bad archive: one ``error`` row per exercise, each naming the problem."""
    params: dict[str, ParamValue] = dict(problem.params)
    entries: list[ExerciseOutcome | GradingEntry] = []
    for exercise in exercises:
        key = GradingKey(student, exercise.id, digest, plan.fingerprint(exercise.id) + suffix)
        entries.append(
            error_entry(
                key,
                exercise.kind,
                exercise.max_score,
                problem.message_id,
                params,
                worker=pid_label(),
            )
        )
    return StudentOutcome(student, _store_all(book, entries))


def _store_all(
    book: Gradebook, graded: list[ExerciseOutcome | GradingEntry]
) -> tuple[ExerciseOutcome, ...]:
    """Record the student's gradings together (``Gradebook.record_all``: one transaction,
    one commit), in the order of the plan."""
    entries = [item for item in graded if isinstance(item, GradingEntry)]
    recorded = iter(book.record_all(entries))
    return tuple(
        ExerciseOutcome(item.key.exercise, item.status, "graded" if next(recorded) else "unchanged")
        if isinstance(item, GradingEntry)
        else item
        for item in graded
    )


def _status_of(book: Gradebook, key: GradingKey) -> str:
    current = book.result(key.student, key.exercise)
    return current.status if current is not None else "error"


def _problem_digest(message_id: str, params: Mapping[str, object]) -> str:
    """A stable stand-in for the content hash of something that could not be read."""
    material = json.dumps([message_id, params], sort_keys=True, default=str)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _relative(value: ParamValue, root: Path) -> ParamValue:
    """Paths in messages relative to the student's folder (no scratch folder names)."""
    if isinstance(value, str) and value.startswith(str(root) + "/"):
        return value[len(str(root)) + 1 :]
    return value
