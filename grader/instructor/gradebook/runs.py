"""What one ``grade`` run recorded, listed and undone; and removing a student.

Each ``grade`` run gets a ``runs`` row; every grading it records carries that ``run_id``.
``undo_run`` deletes the gradings of one run (their checks go with them) and points each
affected (student, exercise) back at its latest earlier grading, or at nothing; the
instructor's reviews are kept (a decision is never thrown away by an undo). Both are one
transaction each: all or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.models import (
    BatchTask,
    CurrentResult,
    Extension,
    Grading,
    Receipt,
    Run,
)


@dataclass(frozen=True)
class RunView:
    id: int
    started_at: datetime
    finished_at: datetime | None
    description: dict[str, Any]
    gradings: int


def start_run(book: Gradebook, description: dict[str, Any]) -> int:
    with book.sessions.begin() as session:
        row = Run(started_at=datetime.now(UTC), finished_at=None, description=description)
        session.add(row)
        session.flush()
        return int(row.id)


def finish_run(book: Gradebook, run_id: int) -> None:
    with book.sessions.begin() as session:
        row = session.get(Run, run_id)
        if row is not None:
            row.finished_at = datetime.now(UTC)


def runs(book: Gradebook) -> list[RunView]:
    with book.sessions() as session:
        counts = dict(
            session.execute(select(Grading.run_id, func.count()).group_by(Grading.run_id)).all()
        )
        return [
            RunView(r.id, r.started_at, r.finished_at, dict(r.description), counts.get(r.id, 0))
            for r in session.scalars(select(Run).order_by(Run.id))
        ]


def undo_run(book: Gradebook, run_id: int) -> int | None:
    """Delete what run ``run_id`` recorded; how many gradings (None: no such run)."""
    with book.sessions.begin() as session:
        if session.get(Run, run_id) is None:
            return None
        ids = set(session.scalars(select(Grading.id).where(Grading.run_id == run_id)))
        for current in session.scalars(
            select(CurrentResult).where(CurrentResult.grading_id.in_(ids))
        ):
            _point_back(session, current, ids)
        session.flush()
        for grading in session.scalars(select(Grading).where(Grading.id.in_(ids))):
            session.delete(grading)  # its checks cascade
        session.execute(delete(Run).where(Run.id == run_id))
        return len(ids)


def _point_back(session: Session, current: CurrentResult, removed: set[int]) -> None:
    earlier = session.scalar(
        select(Grading.id)
        .where(
            Grading.student == current.student,
            Grading.exercise == current.exercise,
            Grading.id.not_in(removed),
        )
        .order_by(Grading.graded_at.desc(), Grading.id.desc())
        .limit(1)
    )
    if earlier is None:
        session.delete(current)
    else:
        current.grading_id = earlier
        current.updated_at = datetime.now(UTC)


def remove_student(book: Gradebook, student: str) -> int:
    """Delete every grading, pointer, receipt, extension and task of ``student`` (the
    instructor's reviews are kept); how many gradings."""
    with book.sessions.begin() as session:
        session.execute(delete(CurrentResult).where(CurrentResult.student == student))
        gradings = list(session.scalars(select(Grading).where(Grading.student == student)))
        for grading in gradings:
            session.delete(grading)
        for model in (Receipt, Extension, BatchTask):
            session.execute(delete(model).where(model.student == student))
        return len(gradings)
