"""The class as the page sees it: every current result, read once and kept until the
gradebook changes.

A page asks ``ClassData.current()``; it costs one small query (the gradebook's revision:
row counts and the newest change of gradings, current pointers and reviews). Only when
that differs, after a re-grade or a decision, are the results read again. So 1,200 results
with their checks are not re-read for every click.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlalchemy import func, select

from grader.exercises import exercise_ids
from grader.gradebook import Gradebook, ResultView
from grader.gradebook.models import CurrentResult, Grading, Review
from grader.gradebook.stats import ExerciseStats, class_stats


@dataclass(frozen=True)
class Snapshot:
    results: tuple[ResultView, ...]

    @cached_property
    def by_key(self) -> dict[tuple[str, str], ResultView]:
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
    def stats(self) -> list[ExerciseStats]:
        return class_stats(list(self.results))

    @cached_property
    def queue(self) -> tuple[ResultView, ...]:
        """Every ``needs_review`` answer, by student then exercise (a stable walk)."""
        waiting = [r for r in self.results if r.status == "needs_review"]
        return tuple(sorted(waiting, key=lambda r: (r.student, r.exercise)))

    @cached_property
    def left(self) -> int:
        """Answers in the queue with no final score yet."""
        return sum(1 for r in self.queue if not r.reviewed)

    def result(self, student: str, exercise: str) -> ResultView | None:
        return self.by_key.get((student, exercise))

    def total(self, student: str) -> float:
        cells = (self.by_key.get((student, e)) for e in self.exercises)
        return round(sum((c.final_score or 0.0) for c in cells if c is not None), 2)


class ClassData:
    """Thread-safe cache of the gradebook's current results (the server's threads share it)."""

    def __init__(self, book: Gradebook) -> None:
        self.book = book
        self._lock = threading.Lock()
        self._revision: Sequence[Any] | None = None
        self._snapshot = Snapshot(())

    def revision(self) -> tuple[Any, ...]:
        with self.book.engine.connect() as connection:
            gradings = connection.execute(select(func.count(), func.max(Grading.id))).one()
            currents = connection.execute(
                select(func.count(), func.max(CurrentResult.updated_at), func.sum(CurrentResult.grading_id))
            ).one()
            reviews = connection.execute(select(func.count(), func.max(Review.reviewed_at))).one()
        return (*gradings, *currents, *reviews)

    def current(self) -> Snapshot:
        revision = self.revision()
        with self._lock:
            if revision != self._revision:
                self._snapshot = Snapshot(tuple(self.book.results()))
                self._revision = revision
            return self._snapshot
