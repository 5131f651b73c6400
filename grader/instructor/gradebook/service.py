"""``Gradebook``: the one object every front end uses to read and write grades.

Like nbgrader's ``api.py``, it hides the ORM: callers pass and get the small dataclasses of
``entries`` and ``views``. Opening applies the migrations. Every write is its own short
transaction, so a process killed at any moment leaves whole rows or none.
"""

from __future__ import annotations

import getpass
import os
import socket
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, lazyload, sessionmaker

from grader.errors import UsageError
from grader.instructor.grade import Late
from grader.instructor.gradebook.database import (
    create_gradebook_engine,
    database_files,
    resolve_url,
)
from grader.instructor.gradebook.decisions import Decision, save
from grader.instructor.gradebook.entries import GradingEntry, GradingKey
from grader.instructor.gradebook.models import (
    BatchTask,
    CurrentResult,
    Grading,
    Receipt,
    Review,
)
from grader.instructor.gradebook.rows import grading_row, result_view
from grader.instructor.gradebook.views import ResultView, ReviewView


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:120]


def default_reviewer() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "instructor"


class Gradebook:
    """``with Gradebook(url) as book: ...`` (``url`` None: ``$GRADER_DB_URL`` or the default)."""

    def __init__(self, url: str | None = None, *, must_exist: bool = False) -> None:
        """Open (creating and migrating) the gradebook at ``url``; ``must_exist`` for
        read-only commands: a path that does not exist is refused, not created. A database
        the grader did not make is refused before anything is written (``guard``)."""
        from grader.instructor.gradebook.guard import check_gradebook
        from grader.instructor.gradebook.migrate import known_revisions, upgrade

        self.url = resolve_url(url)
        self.engine = create_gradebook_engine(self.url)
        try:
            check_gradebook(self.url, self.engine, known_revisions(), must_exist=must_exist)
        except UsageError:
            self.engine.dispose()
            raise
        try:
            upgrade(self.engine)
        except OperationalError as error:
            self.engine.dispose()
            shown = self.url.render_as_string(hide_password=True)
            detail = str(error.orig).strip().splitlines()[0][:200] if error.orig else ""
            raise UsageError("error.db_unreachable", url=shown, detail=detail) from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: Seconds spent so far in ``record``, ``mark_current`` and ``finish_task`` (the
        #: batch's cost of recording, reported per Celery task).
        self.write_seconds = 0.0
        #: The ``grade`` run whose gradings this process records (``runs``), if any.
        self.run_id: int | None = None

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.engine.dispose()

    @property
    def sessions(self) -> sessionmaker[Session]:
        """Short transactions for the term's stores (``term_store``): roster, receipts,
        extensions, runs."""
        return self._sessions

    @property
    def files(self) -> tuple[str, ...]:
        """The gradebook's own files (SQLite), for the sandbox to hide from every run."""
        return tuple(str(path) for path in database_files(self.url))

    # -- recording (idempotent) ------------------------------------------------------------

    def has(self, key: GradingKey) -> bool:
        with self._sessions() as session:
            return _grading_id(session, key) is not None

    def record(self, entry: GradingEntry) -> bool:
        """Insert the grading with its checks and make it current, in one transaction.

        Returns False when the key was already recorded (a redelivery, a concurrent worker,
        a resumed run): the unique constraint refused the duplicate, and only the current
        pointer is set. Never two rows for one key.
        """
        started = time.perf_counter()
        try:
            with self._sessions.begin() as session:
                _insert(session, [entry], self.run_id)
            return True
        except IntegrityError:
            if not self.mark_current(entry.key):
                raise
            return False
        finally:
            self.write_seconds += time.perf_counter() - started

    def record_all(self, entries: Sequence[GradingEntry]) -> list[bool]:
        """``record`` each entry, in ONE transaction (one commit for a student's gradings);
        when any key was already recorded the transaction is undone and each entry goes
        through ``record``, so the result is ``record``'s for each, exactly once each."""
        if not entries:
            return []
        started = time.perf_counter()
        try:
            with self._sessions.begin() as session:
                _insert(session, entries, self.run_id)
            return [True] * len(entries)
        except IntegrityError:
            pass
        finally:
            self.write_seconds += time.perf_counter() - started
        return [self.record(entry) for entry in entries]

    def mark_current(self, key: GradingKey) -> bool:
        """Make the already recorded grading of ``key`` the current one (an unchanged
        submission); False when ``key`` was never recorded."""
        started = time.perf_counter()
        try:
            with self._sessions.begin() as session:
                grading_id = _grading_id(session, key)
                if grading_id is None:
                    return False
                _point(session, key, grading_id)
                return True
        finally:
            self.write_seconds += time.perf_counter() - started

    def finish_task(self, run_id: str, student: str, summary: Mapping[str, Any]) -> None:
        """Note that ``student`` is done in distributed run ``run_id`` (once; repeats ignored)."""
        started = time.perf_counter()
        try:
            with self._sessions.begin() as session:
                row = BatchTask(
                    run_id=run_id,
                    student=student,
                    finished_at=datetime.now(UTC),
                    summary=dict(summary),
                )
                session.add(row)
        except IntegrityError:
            pass
        finally:
            self.write_seconds += time.perf_counter() - started

    def finished_tasks(self, run_id: str) -> dict[str, dict[str, Any]]:
        with self._sessions() as session:
            rows = session.scalars(select(BatchTask).where(BatchTask.run_id == run_id))
            return {row.student: dict(row.summary) for row in rows}

    # -- reading -------------------------------------------------------------------------

    def results(
        self,
        *,
        student: str | None = None,
        exercise: str | None = None,
        status: str | None = None,
    ) -> list[ResultView]:
        """Current results, sorted by student then exercise."""
        query = select(CurrentResult)
        if student is not None:
            query = query.where(CurrentResult.student == student)
        if exercise is not None:
            query = query.where(CurrentResult.exercise == exercise)
        query = query.order_by(CurrentResult.student, CurrentResult.exercise)
        with self._sessions() as session:
            currents = list(session.scalars(query).unique())
            reviews = _reviews(session, student, exercise)
            late = _lateness(session, student, exercise)
            views = [
                result_view(
                    c.grading,
                    reviews.get((c.student, c.exercise)),
                    late.get((c.student, c.exercise, c.grading.content_sha256)),
                )
                for c in currents
            ]
        return [view for view in views if status is None or view.status == status]

    def result(self, student: str, exercise: str) -> ResultView | None:
        found = self.results(student=student, exercise=exercise)
        return found[0] if found else None

    def current_keys(self) -> set[tuple[str, str]]:
        """Every (student, exercise) that has a current result (a cheap query: no checks)."""
        with self._sessions() as session:
            rows = session.execute(select(CurrentResult.student, CurrentResult.exercise))
            return {(student, exercise) for student, exercise in rows}

    def students(self) -> list[str]:
        with self._sessions() as session:
            query = select(CurrentResult.student).distinct().order_by(CurrentResult.student)
            return list(session.scalars(query))

    def exercises(self) -> list[str]:
        with self._sessions() as session:
            query = select(CurrentResult.exercise).distinct().order_by(CurrentResult.exercise)
            return list(session.scalars(query))

    def grading_count(self) -> int:
        """Every grading ever recorded (history included)."""
        from sqlalchemy import func

        with self._sessions() as session:
            return int(session.scalar(select(func.count()).select_from(Grading)) or 0)

    def review_queue(self) -> list[ResultView]:
        """Every prose answer for the instructor (``ResultView.in_queue``: waiting for
        review, too short among them): not yet scored first, then by student."""
        waiting = [result for result in self.results() if result.in_queue]
        return sorted(waiting, key=lambda view: (view.reviewed, view.student, view.exercise))

    # -- the instructor's decisions ------------------------------------------------------

    def set_review(
        self,
        student: str,
        exercise: str,
        *,
        final_score: float | None,
        comment: str = "",
        reviewer: str | None = None,
        grading_id: int | None = None,
        version: int | None = None,
    ) -> ReviewView:
        """Store the instructor's decision (replacing an earlier one). ``final_score`` must
        be within 0..max; None keeps the automatic score. ``grading_id`` and ``version``
        bind it to what the reviewer read (see ``decisions``): ``StaleDecision`` when that
        submission is no longer current, ``ConflictingDecision`` when another reviewer
        saved meanwhile."""
        decision = Decision(student, exercise, final_score, comment, grading_id, version)
        self.decide([decision], reviewer)
        stored = self.result(student, exercise)
        assert stored is not None and stored.review is not None
        return stored.review

    def decide(self, decisions: Sequence[Decision], reviewer: str | None = None) -> None:
        """Store several decisions (an answer group's) in one transaction: all or none."""
        save(self._sessions, decisions, reviewer or default_reviewer())

    def grading(self, grading_id: int) -> ResultView | None:
        """One recorded grading (current or history), without a review."""
        with self._sessions() as session:
            row = session.get(Grading, grading_id)
            return None if row is None else result_view(row, None)


# -- queries -------------------------------------------------------------------------------


def _insert(session: Session, entries: Sequence[GradingEntry], run_id: int | None) -> None:
    """The gradings' rows (with their checks), each made the current one for its key, in
    order. One flush inserts them all: an INSERT for the gradings and one for their checks,
    then one SELECT for the current pointers, whatever the number of entries."""
    gradings = [grading_row(entry) for entry in entries]
    for grading in gradings:
        grading.run_id = run_id
    session.add_all(gradings)
    session.flush()
    currents = _currents(session, [entry.key for entry in entries])
    for entry, grading in zip(entries, gradings, strict=True):
        _point(session, entry.key, grading.id, currents)


def _currents(
    session: Session, keys: Sequence[GradingKey]
) -> dict[tuple[str, str], CurrentResult | None]:
    """The current pointers of ``keys``' (student, exercise) pairs, None where there is none."""
    pairs = {(key.student, key.exercise) for key in keys}
    query = (
        select(CurrentResult)
        .where(CurrentResult.student.in_({student for student, _ in pairs}))
        .where(CurrentResult.exercise.in_({exercise for _, exercise in pairs}))
        .options(lazyload(CurrentResult.grading))
    )
    found: dict[tuple[str, str], CurrentResult | None] = dict.fromkeys(pairs)
    for row in session.scalars(query):
        if (row.student, row.exercise) in found:
            found[(row.student, row.exercise)] = row
    return found


def _grading_id(session: Session, key: GradingKey) -> int | None:
    query = select(Grading.id).where(
        Grading.student == key.student,
        Grading.exercise == key.exercise,
        Grading.content_sha256 == key.content_sha256,
        Grading.verdict_fingerprint == key.verdict_fingerprint,
    )
    return session.scalar(query)


def _point(
    session: Session,
    key: GradingKey,
    grading_id: int,
    currents: dict[tuple[str, str], CurrentResult | None] | None = None,
) -> None:
    """Make ``grading_id`` current for ``key``; ``currents`` (from ``_currents``) saves the
    lookup and learns the pointers added here."""
    now = datetime.now(UTC)
    pair = (key.student, key.exercise)
    if currents is None:
        currents = {pair: session.get(CurrentResult, pair)}
    current = currents[pair]
    if current is None:
        current = CurrentResult(
            student=key.student, exercise=key.exercise, grading_id=grading_id, updated_at=now
        )
        session.add(current)
        currents[pair] = current
    elif current.grading_id != grading_id:
        current.grading_id = grading_id
        current.updated_at = now


def _lateness(
    session: Session, student: str | None, exercise: str | None
) -> dict[tuple[str, str, str], Late]:
    """(student, exercise, content sha256) -> the lateness its receipt records."""
    query = select(
        Receipt.student,
        Receipt.exercise,
        Receipt.content_sha256,
        Receipt.penalty,
        Receipt.late_by_seconds,
    )
    if student is not None:
        query = query.where(Receipt.student == student)
    if exercise is not None:
        query = query.where(Receipt.exercise == exercise)
    return {
        (row.student, row.exercise, row.content_sha256): Late(row.penalty, row.late_by_seconds)
        for row in session.execute(query)
    }


def _reviews(
    session: Session, student: str | None, exercise: str | None
) -> dict[tuple[str, str], Review]:
    query = select(Review)
    if student is not None:
        query = query.where(Review.student == student)
    if exercise is not None:
        query = query.where(Review.exercise == exercise)
    return {(row.student, row.exercise): row for row in session.scalars(query)}
