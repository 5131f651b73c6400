"""The class matrix: students x exercises, filtered by status and sorted by total."""

from __future__ import annotations

from dataclasses import dataclass

from grader.instructor.grade import State
from grader.instructor.gradebook import ResultView
from grader.instructor.gradebook.entries import SHOWN_STATUSES
from grader.instructor.review.data import Snapshot

SORTS = ("student", "total_desc", "total_asc")


@dataclass(frozen=True)
class Cell:
    """One cell, formatted once in Python (1,200 of them must render in milliseconds). The
    score is the grade's final score (late penalty in); an answer awaiting review shows its
    provisional score in parentheses; the penalty is marked beside it."""

    status: str
    href: str
    score: str
    max_score: str
    reviewed: bool
    changed: bool
    #: The grade's final score as a plain number ("" when there is none).
    final: str = ""
    #: "-20%" when a late penalty applies.
    penalty: str = ""


@dataclass(frozen=True)
class Row:
    student: str
    total: float
    cells: tuple[Cell | None, ...]


def _cell(result: ResultView | None) -> Cell | None:
    if result is None:
        return None
    grade = result.grade
    if grade.final_score is not None:
        shown = f"{grade.final_score:g}"
    elif grade.provisional_score is not None:
        shown = f"({grade.provisional_score:g})"
    else:
        shown = "–"
    return Cell(
        result.shown_status,
        f"/s/{result.student}/{result.exercise}",
        shown,
        "" if grade.state is State.NOT_HANDED_IN else f"/{result.max_score:g}",
        result.reviewed,
        grade.stale_decision,
        "" if grade.final_score is None else f"{grade.final_score:g}",
        f"-{grade.penalty * 100:g}%" if grade.penalty > 0 else "",
    )


@dataclass(frozen=True)
class Matrix:
    exercises: tuple[str, ...]
    rows: tuple[Row, ...]
    maximum: float
    status: str | None
    sort: str
    counts: dict[str, int]


def build_matrix(snapshot: Snapshot, status: str | None, sort: str) -> Matrix:
    status = status if status in SHOWN_STATUSES else None
    sort = sort if sort in SORTS else "student"
    exercises = snapshot.exercises
    rows = []
    for student in snapshot.students:
        results = [snapshot.result(student, e) for e in exercises]
        if status is not None and not any(
            r is not None and r.shown_status == status for r in results
        ):
            continue
        rows.append(Row(student, snapshot.total(student), tuple(map(_cell, results))))
    if sort == "total_desc":
        rows.sort(key=lambda row: (-row.total, row.student))
    elif sort == "total_asc":
        rows.sort(key=lambda row: (row.total, row.student))
    maxima = {r.exercise: r.max_score for r in snapshot.results}
    counts = {name: 0 for name in SHOWN_STATUSES}
    for result in snapshot.results:
        counts[result.shown_status] = counts.get(result.shown_status, 0) + 1
    return Matrix(
        exercises,
        tuple(rows),
        round(sum(maxima.get(e, 0.0) for e in exercises), 2),
        status,
        sort,
        counts,
    )
