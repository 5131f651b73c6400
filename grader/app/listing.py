"""``grader list``: every exercise with the student's current status.

Fast by construction: an untouched starter is recognised by its fingerprint, prose is
scored in process, and a code exercise whose file has not changed since the last check
comes from the ``.grader/`` cache. The remaining probes run in ONE student session of the
grading service (they are all this student's).
"""

from __future__ import annotations

from grader.app import cache
from grader.app.course import submission_path
from grader.app.service import GradingService
from grader.errors import GraderError
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import CodeExercise, Exercise
from grader.judge.results import ListEntry
from grader.judge.starters import is_untouched_starter
from grader.judge.submission import Submission, load_submission

NOT_STARTED = "not_started"


def list_exercises(service: GradingService, *, run_missing: bool = True) -> list[ListEntry]:
    """Every exercise with the student's status (``grader list``); raises
    ``CourseRootNotFound`` outside a course."""
    root = service.course_root()
    assert root is not None  # required: raises CourseRootNotFound otherwise
    entries: dict[str, ListEntry] = {}
    pending: list[tuple[Exercise, Submission]] = []
    use_cache = service.settings.use_cache
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        path = submission_path(root, exercise)
        try:
            submission = load_submission(exercise, path)
        except GraderError:
            missing = not path.exists()
            entries[exercise_id] = _entry(exercise, NOT_STARTED if missing else "error", 0.0)
            continue
        hit = None
        if use_cache and isinstance(exercise, CodeExercise):
            hit = cache.lookup(root, exercise, submission.text)
        if is_untouched_starter(exercise.id, submission.text):
            entries[exercise_id] = _entry(exercise, NOT_STARTED, 0.0)
        elif hit is not None:
            entries[exercise_id] = _entry(exercise, str(hit["status"]), float(hit["score"]))
        elif run_missing or not isinstance(exercise, CodeExercise):  # prose: scored in process
            pending.append((exercise, submission))
        else:
            entries[exercise_id] = _entry(exercise, "unchecked", 0.0)
    if pending:
        with service.student([exercise for exercise, _ in pending]) as session:
            for exercise, submission in pending:
                report = session.judge(exercise, submission)
                if use_cache and isinstance(exercise, CodeExercise):
                    cache.store(root, exercise, report, submission.text)
                entries[exercise.id] = _entry(exercise, report.status, report.score)
    return [entries[exercise_id] for exercise_id in exercise_ids()]


def _entry(exercise: Exercise, status: str, score: float) -> ListEntry:
    return ListEntry(exercise.id, exercise.kind, exercise.title, exercise.max_score, status, score)
