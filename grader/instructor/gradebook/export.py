"""The gradebook as an LMS import (CSV) or as JSON.

CSV: ``student,EX-11-01,...,total``, then a ``Points Possible`` row, then one row per
student. A cell holds the instructor's final score where one is set, else the automatic
score (provisional for prose); blank where the exercise is missing.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

from grader.instructor.gradebook.views import ResultView
from grader.judge.exercises import exercise_ids, get_exercise

POINTS_POSSIBLE = "Points Possible"


def _columns(results: list[ResultView]) -> list[str]:
    present = {result.exercise for result in results}
    known = [exercise_id for exercise_id in exercise_ids() if exercise_id in present]
    return known + sorted(present - set(known))


def _max_score(exercise_id: str, results: list[ResultView]) -> float:
    """The exercise's maximum from its spec; from the rows for an exercise no longer known."""
    from grader.errors import UnknownExercise

    try:
        return get_exercise(exercise_id).max_score
    except UnknownExercise:
        return max((r.max_score for r in results if r.exercise == exercise_id), default=0.0)


def _by_student(results: list[ResultView]) -> dict[str, dict[str, ResultView]]:
    table: dict[str, dict[str, ResultView]] = defaultdict(dict)
    for result in results:
        table[result.student][result.exercise] = result
    return dict(sorted(table.items()))


def _number(value: float) -> str:
    return f"{value:g}"


def to_csv(results: list[ResultView]) -> str:
    columns = _columns(results)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", *columns, "total"])
    maxima = [_max_score(column, results) for column in columns]
    writer.writerow([POINTS_POSSIBLE, *map(_number, maxima), _number(sum(maxima))])
    for student, row in _by_student(results).items():
        cells, total = [], 0.0
        for column in columns:
            score = row[column].final_score if column in row else None
            cells.append("" if score is None else _number(score))
            total += score or 0.0
        writer.writerow([student, *cells, _number(round(total, 2))])
    return out.getvalue()


def to_json(results: list[ResultView]) -> dict[str, Any]:
    columns = _columns(results)
    students = []
    for student, row in _by_student(results).items():
        cells = {}
        for exercise_id, result in row.items():
            cells[exercise_id] = {
                "status": result.shown_status,
                "graded_status": result.status,
                "score": result.score,
                "max_score": result.max_score,
                "final_score": result.final_score,
                "reviewed": result.reviewed,
                "content_sha256": result.content_sha256,
                "isolation": result.isolation,
                "reason": None if result.reason is None else result.reason.id,
            }
        total = sum(result.final_score or 0.0 for result in row.values())
        students.append({"student": student, "total": round(total, 2), "results": cells})
    return {
        "exercises": [{"id": c, "max_score": _max_score(c, results)} for c in columns],
        "students": students,
    }


def awaiting_review(results: list[ResultView]) -> int:
    """Prose answers whose score is still provisional."""
    return sum(1 for result in results if result.status == "needs_review" and not result.reviewed)
