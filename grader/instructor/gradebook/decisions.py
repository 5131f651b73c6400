"""Storing the instructor's decisions, bound to what the reviewer read.

A decision names the grading it was made on and the version of the decision the reviewer
saw (0: none yet). Storing it checks both in the same transaction as the write:

- the submission is no longer the one read (another content was graded since): refused
  with ``StaleDecision``, nothing stored;
- another reviewer saved in between (the stored version is not the one read): refused with
  ``ConflictingDecision``, nothing stored, never a silent overwrite.

A re-grade of the same content (a new grader version, say) is the same submission, so a
decision read on the old grading still lands. Several decisions (an answer group's) are
stored in one transaction: all of them or none.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from grader.errors import UsageError
from grader.instructor.gradebook.models import CurrentResult, Grading, Review

#: One server's threads save one at a time (SQLite's deferred transactions would otherwise
#: fail on the upgrade to a write); other processes are kept out by the versioned UPDATE.
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Decision:
    student: str
    exercise: str
    #: None: a comment only (the automatic score stands).
    final_score: float | None
    comment: str = ""
    #: The grading the reviewer read; None: whatever is current (the Python API).
    grading_id: int | None = None
    #: The decision's version the reviewer read (0: none); None: do not check.
    version: int | None = None
    #: The answer group this decision was made for (None: on its own).
    group_key: str | None = None


class StaleDecision(Exception):
    """The submission decided on is no longer the current one."""

    def __init__(self, decision: Decision, current_grading_id: int) -> None:
        super().__init__(f"{decision.student}/{decision.exercise}: grading changed")
        self.decision = decision
        self.current_grading_id = current_grading_id


class ConflictingDecision(Exception):
    """Another reviewer saved a decision on the same item after this one was read."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(f"{decision.student}/{decision.exercise}: decided meanwhile")
        self.decision = decision


def store(session: Session, decisions: Sequence[Decision], reviewer: str) -> None:
    """Check and write every decision in ``session``'s transaction (raise: nothing kept)."""
    locking = session.get_bind().dialect.name == "postgresql"
    now = datetime.now(UTC)
    for decision in decisions:
        key = (decision.student, decision.exercise)
        query = select(CurrentResult).where(
            CurrentResult.student == decision.student, CurrentResult.exercise == decision.exercise
        )
        current = session.scalars(
            query.with_for_update(of=CurrentResult) if locking else query
        ).first()
        if current is None:
            raise UsageError(
                "error.review_no_result", student=decision.student, exercise=decision.exercise
            )
        grading = current.grading
        if decision.grading_id is not None and decision.grading_id != grading.id:
            read = session.get(Grading, decision.grading_id)
            if (
                read is None
                or (read.student, read.exercise) != key
                or (read.content_sha256 != grading.content_sha256)
            ):
                raise StaleDecision(decision, grading.id)
        score = decision.final_score
        if score is not None and not 0 <= score <= grading.max_score:
            raise UsageError("error.review_score_range", score=score, max_score=grading.max_score)
        _write(session, decision, grading, reviewer[:120], now)


def _write(
    session: Session, decision: Decision, grading: Grading, reviewer: str, now: datetime
) -> None:
    values = {
        "final_score": decision.final_score,
        "comment": decision.comment,
        "reviewer": reviewer,
        "reviewed_at": now,
        "content_sha256": grading.content_sha256,
        "grading_id": grading.id,
        "group_key": decision.group_key,
    }
    have = session.scalar(
        select(Review.version).where(
            Review.student == decision.student, Review.exercise == decision.exercise
        )
    )
    if decision.version is not None and (have or 0) != decision.version:
        raise ConflictingDecision(decision)
    if have is None:
        session.add(
            Review(student=decision.student, exercise=decision.exercise, version=1, **values)
        )
        try:
            session.flush()
        except IntegrityError:  # another process inserted the first decision meanwhile
            raise ConflictingDecision(decision) from None
        return
    changed = session.execute(
        update(Review)
        .where(
            Review.student == decision.student,
            Review.exercise == decision.exercise,
            Review.version == have,
        )
        .values(version=have + 1, **values)
        .execution_options(synchronize_session=False)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise ConflictingDecision(decision)


def save(sessions: sessionmaker[Session], decisions: Sequence[Decision], reviewer: str) -> None:
    """``store`` in one new transaction of ``sessions``."""
    with _LOCK:
        try:
            with sessions.begin() as session:
                store(session, decisions, reviewer)
        except OperationalError as error:  # SQLite: another process wrote in between
            if "locked" not in str(error).lower() and "busy" not in str(error).lower():
                raise
            raise ConflictingDecision(decisions[0]) from None
