"""The gradebook's columns and maxima for the exports, and the plain CSV / JSON of the
current results (no roster, no lateness): the LMS formats and their rules are
``grader.instructor.term.lms``, which these call."""

from __future__ import annotations

from typing import Any

from grader.instructor.gradebook.views import ResultView
from grader.judge.exercises import exercise_ids, get_exercise


def columns_of(results: list[ResultView]) -> list[str]:
    """The exercises present, in the course's order (unknown ones after, sorted)."""
    present = {result.exercise for result in results}
    known = [exercise_id for exercise_id in exercise_ids() if exercise_id in present]
    return known + sorted(present - set(known))


def max_score_of(exercise_id: str, results: list[ResultView]) -> float:
    """The exercise's maximum from its spec; from the rows for an exercise no longer known."""
    from grader.errors import UnknownExercise

    try:
        return get_exercise(exercise_id).max_score
    except UnknownExercise:
        return max((r.max_score for r in results if r.exercise == exercise_id), default=0.0)


def to_csv(results: list[ResultView]) -> str:
    from grader.instructor.term import lms

    return lms.to_csv(lms.build_table(results, (), {}), results, lms.ExportOptions())


def to_json(results: list[ResultView]) -> dict[str, Any]:
    from grader.instructor.term import lms

    return lms.to_json(lms.build_table(results, (), {}), results, lms.ExportOptions())


def awaiting_review(results: list[ResultView]) -> int:
    """Prose answers whose score is still provisional."""
    return sum(1 for result in results if result.status == "needs_review" and not result.reviewed)
