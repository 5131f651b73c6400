"""The term's tables in the gradebook: roster, receipts (received time, lateness,
penalty), extensions and runs. Each function is one short transaction on ``book``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.models import (
    CurrentResult,
    Extension,
    Grading,
    Receipt,
    RosterEntry,
)
from grader.instructor.term.roster import FIELDS, Student, unique


def import_roster(book: Gradebook, students: Iterable[Student]) -> tuple[int, int]:
    """Insert or update each student; (added, changed). Re-importing a file: (0, 0). A
    field the file leaves empty keeps what the roster holds (a Canvas export has no emails,
    a Moodle one no SIS login). Two students sharing an identity afterwards is refused,
    and then nothing is written."""
    added = changed = 0
    now = datetime.now(UTC)
    with book.sessions.begin() as session:
        for student in students:
            row = session.get(RosterEntry, student.student)
            values = {field: getattr(student, field) for field in FIELDS}
            if row is None:
                session.add(RosterEntry(student=student.student, imported_at=now, **values))
                added += 1
                continue
            given = {key: value for key, value in values.items() if value}
            if any(getattr(row, k) != v for k, v in given.items()):
                for key, value in given.items():
                    setattr(row, key, value)
                row.imported_at = now
                changed += 1
        session.flush()
        merged = [_student(row) for row in session.scalars(select(RosterEntry))]
        unique(merged, "roster", [s.student for s in merged])  # raises: rolled back
    return added, changed


def _student(row: RosterEntry) -> Student:
    return Student(row.student, **{field: getattr(row, field) for field in FIELDS})


def roster(book: Gradebook) -> list[Student]:
    with book.sessions() as session:
        rows = session.scalars(select(RosterEntry).order_by(RosterEntry.student))
        return [_student(row) for row in rows]


@dataclass(frozen=True)
class ReceiptView:
    received_at: datetime
    source: str
    due_at: datetime | None
    late_by_seconds: float
    penalty: float
    manifest_student: str | None = None


def receipts(book: Gradebook) -> dict[tuple[str, str, str], ReceiptView]:
    """(student, exercise, content sha256) -> its receipt."""
    with book.sessions() as session:
        return {
            (r.student, r.exercise, r.content_sha256): _view(r)
            for r in session.scalars(select(Receipt))
        }


def receipt_of(
    book: Gradebook, student: str, exercise: str, content_sha256: str
) -> ReceiptView | None:
    """The receipt of one hand-in (None: received before the term's receipts existed)."""
    with book.sessions() as session:
        row = session.scalar(
            select(Receipt).where(
                Receipt.student == student,
                Receipt.exercise == exercise,
                Receipt.content_sha256 == content_sha256,
            )
        )
        return None if row is None else _view(row)


def _view(row: Receipt) -> ReceiptView:
    return ReceiptView(
        _aware(row.received_at), row.source, _aware(row.due_at) if row.due_at else None,
        row.late_by_seconds, row.penalty, row.manifest_student,
    )  # fmt: skip


def record_receipts(
    book: Gradebook,
    rows: Iterable[tuple[str, str, str, datetime, str]],
    claimed: dict[str, str] | None = None,
) -> int:
    """Receipts for contents not yet received (a received time is never changed);
    ``claimed``: student -> the other student their zip's manifest names."""
    claimed = claimed or {}
    have = set(receipts(book))
    added = 0
    with book.sessions.begin() as session:
        for student, exercise, sha, received_at, source in rows:
            if (student, exercise, sha) in have:
                continue
            have.add((student, exercise, sha))
            session.add(
                Receipt(
                    student=student, exercise=exercise, content_sha256=sha,
                    received_at=_utc(received_at), source=source, due_at=None,
                    late_by_seconds=0.0, penalty=0.0, manifest_student=claimed.get(student),
                )
            )  # fmt: skip
            added += 1
    return added


def set_lateness(
    book: Gradebook, values: dict[tuple[str, str, str], tuple[datetime | None, float, float]]
) -> None:
    """(student, exercise, sha) -> (due_at, late_by_seconds, penalty), recomputed per run."""
    with book.sessions.begin() as session:
        for row in session.scalars(select(Receipt)):
            found = values.get((row.student, row.exercise, row.content_sha256))
            if found is not None:
                due, row.late_by_seconds, row.penalty = found
                row.due_at = None if due is None else _utc(due)


def known_students(book: Gradebook) -> set[str]:
    """Every id the gradebook knows: on the roster, graded, or with a received hand-in."""
    with book.sessions() as session:
        known = set(session.scalars(select(RosterEntry.student)))
        known |= set(session.scalars(select(CurrentResult.student)))
        known |= set(session.scalars(select(Receipt.student)))
    return known


@dataclass(frozen=True)
class ExtensionView:
    student: str
    exercise: str
    until: datetime
    reason: str
    granted_by: str


def grant_extension(
    book: Gradebook, student: str, exercise: str, until: datetime, reason: str, by: str
) -> None:
    with book.sessions.begin() as session:
        row = session.get(Extension, (student, exercise)) or Extension(
            student=student, exercise=exercise
        )
        row.until, row.reason, row.granted_by = _utc(until), reason, by[:120]
        row.granted_at = datetime.now(UTC)
        session.add(row)


def extensions(book: Gradebook) -> list[ExtensionView]:
    with book.sessions() as session:
        rows = session.scalars(select(Extension).order_by(Extension.student, Extension.exercise))
        return [
            ExtensionView(r.student, r.exercise, _aware(r.until), r.reason, r.granted_by)
            for r in rows
        ]


def revoke_extension(book: Gradebook, student: str, exercise: str) -> bool:
    with book.sessions.begin() as session:
        done = session.execute(
            delete(Extension).where(Extension.student == student, Extension.exercise == exercise)
        )
        return bool(getattr(done, "rowcount", 0))


def current_contents(book: Gradebook) -> list[tuple[str, str, str, str, str | None]]:
    """(student, exercise, content sha256, status, file name) of every current result: a
    light query (no checks, no content)."""
    query = select(
        CurrentResult.student,
        CurrentResult.exercise,
        Grading.content_sha256,
        Grading.status,
        Grading.file_name,
    ).join(Grading, Grading.id == CurrentResult.grading_id)
    with book.sessions() as session:
        return [tuple(row) for row in session.execute(query)]  # type: ignore[misc]


def _utc(moment: datetime) -> datetime:
    """Stored in UTC: SQLite keeps a datetime's wall time and drops its offset."""
    return moment.astimezone(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
