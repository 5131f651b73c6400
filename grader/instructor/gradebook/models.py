"""The gradebook's tables (SQLAlchemy 2 typed models). The schema itself is created and
changed only by the Alembic migrations in ``grader/instructor/gradebook/migrations``.

The idea, from lesson 13: a grading is a message that may be delivered more than once (a
worker lost, a run killed and re-run), so recording it must be idempotent. ``gradings``
holds one row per key (student, exercise, content sha256, verdict fingerprint), enforced
by a unique constraint and written in one transaction with its checks; a duplicate insert
fails on the constraint and is then a no-op. What the class "has now" is a separate,
upserted pointer (``current_results``), and the instructor's decisions live apart
(``reviews``), so no re-grade can ever overwrite them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Stable constraint names, so migrations can refer to them on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

STUDENT_ID_LENGTH = 64
SHA256_LENGTH = 64


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        datetime: DateTime(timezone=True),
    }


class Grading(Base):
    """One automatic grading of one submission of one exercise by one student.

    Never updated after insert: a changed submission or a changed grader gives a new key,
    hence a new row (the old one stays as history).
    """

    __tablename__ = "gradings"
    __table_args__ = (
        UniqueConstraint(
            "student", "exercise", "content_sha256", "verdict_fingerprint", name="uq_gradings_key"
        ),
        Index("ix_gradings_student_exercise", "student", "exercise"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The student id: the submission folder's name or the zip's stem
    #: (see grader.instructor.batch.layout).
    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH))
    #: The exercise id, e.g. "EX-11-01".
    exercise: Mapped[str] = mapped_column(String(16))
    #: sha256 of the text judged (a notebook: its extracted cells). "missing" for an absent
    #: exercise; for an unreadable archive, the archive's own sha256.
    content_sha256: Mapped[str] = mapped_column(String(SHA256_LENGTH))
    #: What decides a verdict (grader + library sources; "+rlimits" when graded weakly).
    verdict_fingerprint: Mapped[str] = mapped_column(String(80))
    #: passed | failed | needs_review | error | missing
    status: Mapped[str] = mapped_column(String(16))
    #: code | prose
    kind: Mapped[str] = mapped_column(String(8))
    #: Automatic score (provisional for prose) and its maximum.
    score: Mapped[float] = mapped_column(Float)
    max_score: Mapped[float] = mapped_column(Float)
    #: The sandbox the runs used: "namespaces", "rlimits", or None when nothing ran.
    isolation: Mapped[str | None] = mapped_column(String(16))
    #: Graded in rlimits mode under --allow-weak-isolation: not an official verdict.
    weak_isolation: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Why the status is error/missing: a catalogue message id and its parameters.
    reason_id: Mapped[str | None] = mapped_column(String(80))
    reason_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The report's one-line summary (catalogue id + parameters).
    summary_id: Mapped[str | None] = mapped_column(String(80))
    summary_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The handed-in file's name and the text judged, for display (never executed from here).
    file_name: Mapped[str | None] = mapped_column(String(255))
    content: Mapped[str | None] = mapped_column(Text)
    #: Wall time of reading and judging this submission, in seconds.
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    graded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Who recorded it: "<host>:<pid>" of the worker process.
    worker: Mapped[str] = mapped_column(String(120), default="")
    grader_version: Mapped[str] = mapped_column(String(32), default="")
    #: The ``grade`` run that recorded it (``runs.id``), for ``gradebook undo-run``;
    #: None for rows recorded before runs were kept.
    run_id: Mapped[int | None] = mapped_column(Integer, default=None)

    checks: Mapped[list[CheckRow]] = relationship(
        back_populates="grading",
        order_by="CheckRow.position",
        cascade="all, delete-orphan",
        lazy="selectin",
    )


class CheckRow(Base):
    """One check of a grading: run, output, calls, equivalents (twins), one per mutant, one
    per rubric concept. ``category``/``subject`` split the name ("mutant:off_by_one_bound"
    -> "mutant", "off_by_one_bound") so class statistics can group by them."""

    __tablename__ = "grading_checks"
    __table_args__ = (UniqueConstraint("grading_id", "name", name="uq_grading_checks_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    grading_id: Mapped[int] = mapped_column(ForeignKey("gradings.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(120))
    category: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str | None] = mapped_column(String(80))
    passed: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[float] = mapped_column(Float)
    max_points: Mapped[float] = mapped_column(Float)
    message_id: Mapped[str] = mapped_column(String(80))
    message_params: Mapped[dict[str, Any]] = mapped_column(JSON)
    hint_id: Mapped[str | None] = mapped_column(String(80))
    hint_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    label_id: Mapped[str | None] = mapped_column(String(80))
    label_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: Untrusted text from the student's run (escaped wherever it is shown).
    evidence: Mapped[str | None] = mapped_column(Text)

    grading: Mapped[Grading] = relationship(back_populates="checks")


class CurrentResult(Base):
    """Which grading each (student, exercise) shows now: set by the latest run that saw it."""

    __tablename__ = "current_results"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    exercise: Mapped[str] = mapped_column(String(16), primary_key=True)
    grading_id: Mapped[int] = mapped_column(ForeignKey("gradings.id"))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    grading: Mapped[Grading] = relationship(lazy="joined")


class Review(Base):
    """The instructor's decision on (student, exercise): a final score and a comment.

    Kept across re-grades. ``content_sha256`` is the submission that was reviewed: when the
    current grading's differs, the decision is flagged "submission changed since review".
    """

    __tablename__ = "reviews"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    exercise: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: None: a comment without a score (the automatic score stands).
    final_score: Mapped[float | None] = mapped_column(Float)
    comment: Mapped[str] = mapped_column(Text, default="")
    reviewer: Mapped[str] = mapped_column(String(120))
    reviewed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    content_sha256: Mapped[str] = mapped_column(String(SHA256_LENGTH))
    #: The grading the reviewer had in front of them (None: a decision older than 0002).
    grading_id: Mapped[int | None] = mapped_column(Integer)
    #: Bumped by every save: a form carries the version it read, so a second reviewer
    #: saving over a decision they never saw is refused (optimistic concurrency).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: The answer group whose one decision set this score; None: decided on its own.
    group_key: Mapped[str | None] = mapped_column(String(40))


class BatchTask(Base):
    """A student finished in one distributed run (``run_id``): how ``grade --broker`` knows
    a Celery task is done. Unique per (run, student), so a redelivered task records once."""

    __tablename__ = "batch_tasks"

    run_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: {"graded": n, "unchanged": n, "statuses": {"EX-11-01": "passed", ...}}
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)


class RosterEntry(Base):
    """One student of the class list (``grader roster import``): who an id is, for the
    LMS exports. Optional: without a roster every command works as before."""

    __tablename__ = "roster"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    email: Mapped[str] = mapped_column(String(200), default="")
    sis_user_id: Mapped[str] = mapped_column(String(100), default="")
    sis_login_id: Mapped[str] = mapped_column(String(100), default="")
    section: Mapped[str] = mapped_column(String(100), default="")
    #: Canvas's user id and Moodle's participant number: how their files name the student.
    canvas_id: Mapped[str] = mapped_column(String(100), default="", server_default="")
    moodle_participant: Mapped[str] = mapped_column(String(100), default="", server_default="")
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Receipt(Base):
    """When the instructor's side received one submission (student, exercise, content):
    from ``--received-at`` or the file's modification time in SUBMISSIONS. Written once
    per content and never changed, so a re-run keeps the first received time; lateness
    and penalty are recomputed on every run (a new extension or due date applies)."""

    __tablename__ = "receipts"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    exercise: Mapped[str] = mapped_column(String(16), primary_key=True)
    content_sha256: Mapped[str] = mapped_column(String(SHA256_LENGTH), primary_key=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: "csv" (--received-at) or "mtime" (the collection time of the file)
    source: Mapped[str] = mapped_column(String(8))
    #: The due time that applied (extension included); None: the exercise has no due date.
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: Seconds after ``due_at`` (0 when on time), and the penalty (a share, 0..1).
    late_by_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    penalty: Mapped[float] = mapped_column(Float, default=0.0)
    #: The student the zip's manifest names when it is not the zip's own name.
    manifest_student: Mapped[str | None] = mapped_column(String(STUDENT_ID_LENGTH))


class Extension(Base):
    """``grader extend STUDENT [EXERCISE] --until TIME``: a later due time, with a reason.
    ``exercise`` is "*" for every exercise of the student."""

    __tablename__ = "extensions"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    exercise: Mapped[str] = mapped_column(String(16), primary_key=True)
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(Text, default="")
    granted_by: Mapped[str] = mapped_column(String(120))
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Run(Base):
    """One ``grader grade`` run: what ``gradebook runs`` lists and ``undo-run`` removes."""

    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: The submissions folder and the options, for the listing.
    description: Mapped[dict[str, Any]] = mapped_column(JSON)


class InboxToken(Base):
    """A roster student's secret for handing in through ``grader inbox``
    (``grader roster tokens``). Kept in the instructor's gradebook only: the student gets it
    by mail merge; the inbox compares it in constant time and never logs it."""

    __tablename__ = "inbox_tokens"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    token: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Handin(Base):
    """One hand-in the inbox accepted: version N of a student's zip, its sha256, size and
    the SERVER's received time, with the manifest's file hashes (so a later version that
    leaves an exercise unchanged keeps that exercise's first received time). Written once;
    the unique key (student, version) decides between two uploads racing for one number."""

    __tablename__ = "handins"

    student: Mapped[str] = mapped_column(String(STUDENT_ID_LENGTH), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(SHA256_LENGTH))
    size: Mapped[int] = mapped_column(Integer)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: {"EX-11-01/retry_policy_probe.py": "<sha256 of the file>", ...} from the manifest
    files: Mapped[dict[str, Any]] = mapped_column(JSON)
