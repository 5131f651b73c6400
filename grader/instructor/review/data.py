"""The class as the page sees it: every current result, read once, then kept in step with
the gradebook incrementally.

Reading 1,200 results with their checks through the ORM takes seconds, far over a page's
budget, so it happens once, when the server starts. Each page then asks ``current()``,
which costs one small query (the gradebook's revision: counts and newest changes of the
current pointers and the reviews). When that moved, after a re-grade or a decision, only
what changed is read again: the results whose current grading is another one, and the
results whose review is new or different.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from sqlalchemy import func, select

from grader.instructor.gradebook import Gradebook, ResultView
from grader.instructor.gradebook.groups import Groups, group_answers
from grader.instructor.gradebook.models import CurrentResult, Receipt, Review, RosterEntry
from grader.instructor.gradebook.stats import ExerciseStats, class_stats, stray_ids
from grader.judge.exercises import exercise_ids

Key = tuple[str, str]
K = TypeVar("K")
#: More changed results than this are read in one pass over the whole class.
BULK = 40


@dataclass(frozen=True)
class Snapshot:
    results: tuple[ResultView, ...]
    #: The roster's ids (empty: no roster), for telling stray ids from students.
    roster: frozenset[str] = frozenset()
    #: id -> "name · section" from the roster, shown beside the id on every page.
    names: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def by_key(self) -> dict[Key, ResultView]:
        return {(r.student, r.exercise): r for r in self.results}

    @cached_property
    def students(self) -> tuple[str, ...]:
        return tuple(sorted({r.student for r in self.results}))

    @cached_property
    def exercises(self) -> tuple[str, ...]:
        present = {r.exercise for r in self.results}
        known = [e for e in exercise_ids() if e in present]
        return (*known, *sorted(present - set(known)))

    @cached_property
    def strays(self) -> list[str]:
        """Ids not on the roster with no valid submission: listed apart, not students."""
        return stray_ids(self.results, self.roster)

    @cached_property
    def stats(self) -> list[ExerciseStats]:
        return class_stats(self.results, self.roster)

    @cached_property
    def queue(self) -> tuple[ResultView, ...]:
        """Every answer the grader left for review (``ResultView.in_queue``: waiting, or
        too short), decided or not, one question across the class at a time: by exercise,
        then by answer group (largest first, so alike answers come together), then by
        student."""
        order = {exercise: index for index, exercise in enumerate(self.exercises)}
        groups = self.groups
        waiting = [r for r in self.results if r.in_queue]

        def place(result: ResultView) -> tuple[int, int, str, str]:
            group = groups.of_member.get((result.student, result.exercise))
            size = group.size if group else 1
            first = group.members[0].student if group else result.student
            return (order.get(result.exercise, len(order)), -size, first, result.student)

        return tuple(sorted(waiting, key=place))

    def queue_for(self, exercise: str | None) -> tuple[ResultView, ...]:
        """The queue of one question (None: all of them)."""
        if exercise is None:
            return self.queue
        return tuple(r for r in self.queue if r.exercise == exercise)

    @cached_property
    def left(self) -> int:
        """Answers in the queue with no final score yet (every page shows it: counted
        without ordering the queue)."""
        return sum(self.left_by_exercise.values())

    @cached_property
    def left_by_exercise(self) -> dict[str, int]:
        """Per question in the queue (course order), the answers with no final score yet."""
        counts = {e: 0 for e in self.exercises}
        for result in self.results:
            if result.in_queue and not result.reviewed:
                counts[result.exercise] += 1
        present = {r.exercise for r in self.results if r.in_queue}
        return {e: n for e, n in counts.items() if e in present}

    @cached_property
    def groups(self) -> Groups:
        return Groups(tuple(group_answers(self.results)))

    @cached_property
    def totals(self) -> dict[str, float]:
        """Each student's final scores summed (the grade's: penalties in, nothing
        provisional)."""
        sums: dict[str, float] = {}
        for result in self.results:
            final = result.grade.final_score
            sums[result.student] = sums.get(result.student, 0.0) + (final or 0.0)
        return {student: round(total, 2) for student, total in sums.items()}

    def result(self, student: str, exercise: str) -> ResultView | None:
        return self.by_key.get((student, exercise))

    def total(self, student: str) -> float:
        return self.totals.get(student, 0.0)


class ClassData:
    """Thread-safe, incrementally refreshed copy of the gradebook's current results."""

    def __init__(self, book: Gradebook) -> None:
        self.book = book
        self._lock = threading.Lock()
        self._revision: tuple[Any, ...] | None = None
        self._views: dict[Key, ResultView] = {}
        self._pointers: dict[Key, int] = {}
        self._reviews: dict[Key, tuple[Any, ...]] = {}
        self._lateness: dict[tuple[str, str, str], tuple[float, float]] = {}
        self._snapshot = Snapshot(())

    def revision(self) -> tuple[Any, ...]:
        with self.book.engine.connect() as connection:
            currents = connection.execute(
                select(
                    func.count(),
                    func.sum(CurrentResult.grading_id),
                    func.max(CurrentResult.updated_at),
                )
            ).one()
            reviews = connection.execute(select(func.count(), func.max(Review.reviewed_at))).one()
            late = connection.execute(  # ``grader extend`` moves lateness, not results
                select(func.count(), func.sum(Receipt.late_by_seconds), func.sum(Receipt.penalty))
            ).one()
            listed = connection.execute(
                select(func.count(), func.max(RosterEntry.imported_at))
            ).one()
        return (*currents, *reviews, *late, *listed)

    def current(self) -> Snapshot:
        revision = self.revision()
        with self._lock:
            if revision != self._revision:
                self._refresh()
                self._revision = revision
            return self._snapshot

    def _refresh(self) -> None:
        with self.book.engine.connect() as connection:
            pointers: dict[Key, int] = {
                (row.student, row.exercise): row.grading_id
                for row in connection.execute(
                    select(CurrentResult.student, CurrentResult.exercise, CurrentResult.grading_id)
                )
            }
            reviews: dict[Key, tuple[Any, ...]] = {
                (row.student, row.exercise): tuple(row)
                for row in connection.execute(
                    select(
                        Review.student,
                        Review.exercise,
                        Review.final_score,
                        Review.comment,
                        Review.reviewer,
                        Review.reviewed_at,
                        Review.content_sha256,
                    )
                )
            }
            people = connection.execute(
                select(RosterEntry.student, RosterEntry.name, RosterEntry.section)
            ).all()
            listed = frozenset(row.student for row in people)
            names = {
                row.student: " · ".join(part for part in (row.name, row.section) if part)
                for row in people
            }
            lateness: dict[tuple[str, str, str], tuple[float, float]] = {
                (row.student, row.exercise, row.content_sha256): (row.penalty, row.late_by_seconds)
                for row in connection.execute(
                    select(
                        Receipt.student,
                        Receipt.exercise,
                        Receipt.content_sha256,
                        Receipt.penalty,
                        Receipt.late_by_seconds,
                    )
                )
            }
        changed = {key for key, grading in pointers.items() if self._pointers.get(key) != grading}
        changed |= _moved(self._reviews, reviews)
        changed |= {
            (student, exercise) for student, exercise, _ in _moved(self._lateness, lateness)
        }
        views = {key: view for key, view in self._views.items() if key in pointers}
        if len(changed) > BULK:
            views = {(r.student, r.exercise): r for r in self.book.results()}
        else:
            for student, exercise in changed:
                fresh = self.book.result(student, exercise)
                if fresh is not None:
                    views[(student, exercise)] = fresh
        self._views, self._pointers, self._reviews = views, pointers, reviews
        self._lateness = lateness
        ordered = sorted(views.items())
        self._snapshot = Snapshot(tuple(view for _, view in ordered), listed, names)


def _moved(before: Mapping[K, object], after: Mapping[K, object]) -> set[K]:
    """The keys whose value differs (added, removed or changed)."""
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
