"""The class matrix: students x exercises, filtered by status and sorted by total."""

from __future__ import annotations

from dataclasses import dataclass

from grader.gradebook import ResultView
from grader.gradebook.entries import STATUSES
from grader.review.data import Snapshot

SORTS = ("student", "total_desc", "total_asc")


@dataclass(frozen=True)
class Row:
    student: str
    total: float
    cells: tuple[ResultView | None, ...]


@dataclass(frozen=True)
class Matrix:
    exercises: tuple[str, ...]
    rows: tuple[Row, ...]
    maximum: float
    status: str | None
    sort: str
    counts: dict[str, int]


def build_matrix(snapshot: Snapshot, status: str | None, sort: str) -> Matrix:
    status = status if status in STATUSES else None
    sort = sort if sort in SORTS else "student"
    exercises = snapshot.exercises
    rows = []
    for student in snapshot.students:
        cells = tuple(snapshot.result(student, e) for e in exercises)
        if status is not None and not any(c is not None and c.status == status for c in cells):
            continue
        rows.append(Row(student, snapshot.total(student), cells))
    if sort == "total_desc":
        rows.sort(key=lambda row: (-row.total, row.student))
    elif sort == "total_asc":
        rows.sort(key=lambda row: (row.total, row.student))
    maxima = {r.exercise: r.max_score for r in snapshot.results}
    counts = {name: 0 for name in STATUSES}
    for result in snapshot.results:
        counts[result.status] = counts.get(result.status, 0) + 1
    return Matrix(
        exercises,
        tuple(rows),
        round(sum(maxima.get(e, 0.0) for e in exercises), 2),
        status,
        sort,
        counts,
    )
