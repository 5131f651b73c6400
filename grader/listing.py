"""``grader list``: every exercise with the student's current status.

Fast by construction: an untouched starter is recognised by its fingerprint, prose is
scored in process, and a code exercise whose file has not changed since the last check
comes from the ``.grader/`` cache. The remaining probes run together in ONE fork server.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader import cache
from grader.course import submission_path
from grader.errors import GraderError
from grader.exercises import exercise_ids, get_exercise
from grader.exercises.spec import CodeExercise, Exercise
from grader.results import Message
from grader.starters import is_untouched_starter
from grader.submission import Submission, load_submission

NOT_STARTED = "not_started"


@dataclass(frozen=True)
class ListEntry:
    exercise: str
    kind: str
    title: Message
    max_score: float
    status: str  # not_started | passed | failed | needs_review | error
    score: float


def list_exercises(root: Path, *, run_missing: bool = True) -> list[ListEntry]:
    from grader.grading import code_report, observe, prose_report, start_server

    entries: dict[str, ListEntry] = {}
    pending: list[tuple[CodeExercise, Submission]] = []
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        path = submission_path(root, exercise)
        try:
            submission = load_submission(exercise, path)
        except GraderError:
            missing = not path.exists()
            entries[exercise_id] = _entry(exercise, NOT_STARTED if missing else "error", 0.0)
            continue
        if is_untouched_starter(exercise.id, submission.text):
            entries[exercise_id] = _entry(exercise, NOT_STARTED, 0.0)
        elif not isinstance(exercise, CodeExercise):
            report = prose_report(exercise, submission.text, "en")
            entries[exercise_id] = _entry(exercise, report.status, report.score)
        elif (hit := cache.lookup(root, exercise.id, submission.text)) is not None:
            entries[exercise_id] = _entry(exercise, str(hit["status"]), float(hit["score"]))
        elif run_missing:
            pending.append((exercise, submission))
        else:
            entries[exercise_id] = _entry(exercise, "unchecked", 0.0)
    if pending:
        preload = tuple(dict.fromkeys(m for ex, _ in pending for m in ex.all_preload))
        with start_server(preload, root) as server:
            for exercise, submission in pending:
                observed = observe(exercise, submission, root=root, server=server)
                report = code_report(exercise, observed, submission.display_name, "en")
                cache.store(root, report, submission.text)
                entries[exercise.id] = _entry(exercise, report.status, report.score)
    return [entries[exercise_id] for exercise_id in exercise_ids()]


def _entry(exercise: Exercise, status: str, score: float) -> ListEntry:
    return ListEntry(exercise.id, exercise.kind, exercise.title, exercise.max_score, status, score)
