"""The exercises an export has columns for, and their maxima."""

from __future__ import annotations

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
