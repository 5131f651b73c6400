"""Integrity on the review page: each reported pair side by side (``/pair/EX/A/B``), the
lines both hand-ins hold marked, with the report's reasons; and on a submission's page,
a note naming whoever it was reported with.

The report is ``grader integrity``'s own (``integrity_report``), computed per exercise from
the class the page shows and kept while that exercise's hand-ins stay the same: a decision
changes the snapshot, not the contents, so it does not recompute the report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from threading import Lock
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from grader.app.course import find_course_root
from grader.errors import CourseRootNotFound
from grader.instructor.gradebook import ResultView
from grader.instructor.review.data import Snapshot
from grader.instructor.review.site import Site
from grader.instructor.term.integrity import Base, IntegrityReport, base_texts, integrity_report
from grader.instructor.term.reasons import pair_path, reason
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.sanitize import clean

Contents = frozenset[tuple[str, str, str, str]]


@dataclass(frozen=True)
class Line:
    number: int
    text: str
    #: Held by the other hand-in too (leading and trailing spaces aside).
    shared: bool


def side_by_side(left: str, right: str) -> tuple[list[Line], list[Line]]:
    """Both texts as numbered lines, each marked when the other holds the same line
    (leading and trailing spaces aside), wherever it is: a copy with its cases reordered
    is marked as much as one in order. Blank lines are never marked."""
    a, b = clean(left).splitlines(), clean(right).splitlines()
    in_a = {line.strip() for line in a if line.strip()}
    in_b = {line.strip() for line in b if line.strip()}
    return (
        [Line(i + 1, text, text.strip() in in_b) for i, text in enumerate(a)],
        [Line(i + 1, text, text.strip() in in_a) for i, text in enumerate(b)],
    )


def _bases() -> dict[str, Base]:
    try:
        root: Path | None = find_course_root(None)
    except CourseRootNotFound:
        root = None
    return base_texts(root)


class PairRoutes(Site):
    #: exercise -> (its hand-ins as read, its report)
    _integrity: dict[str, tuple[Contents, IntegrityReport]]
    _integrity_lock = Lock()

    def integrity(self, snapshot: Snapshot, exercise: str) -> IntegrityReport:
        """``exercise``'s report, computed once per set of its hand-ins (thread-safe): a
        submission page costs one exercise's comparison, once, never the class's."""
        results = [r for r in snapshot.results if r.exercise == exercise]
        contents: Contents = frozenset(
            (r.student, r.exercise, r.content_sha256, r.status) for r in results
        )
        with self._integrity_lock:
            cache = self.__dict__.setdefault("_integrity", {})
            if exercise not in cache or cache[exercise][0] != contents:
                kinds = {e: get_exercise(e).kind for e in exercise_ids()}
                cache[exercise] = (contents, integrity_report(results, _bases(), {}, kinds))
            report: IntegrityReport = cache[exercise][1]
            return report

    def _result_context(self, snapshot: Snapshot, result: ResultView) -> dict[str, Any]:
        context = super()._result_context(snapshot, result)
        partners = self.integrity(snapshot, result.exercise).partners(
            result.student, result.exercise
        )
        context["integrity_pairs"] = [
            (other, pair_path(result.exercise, *sorted((result.student, other))))
            for other in partners
        ]
        return context

    async def pair(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        exercise = request.path_params["exercise"]
        first, second = sorted((request.path_params["first"], request.path_params["second"]))
        left, right = snapshot.result(first, exercise), snapshot.result(second, exercise)
        if left is None or right is None or first == second:
            return self._not_found(request)
        if hit := self._cached(request, snapshot):
            return hit
        report = await run_in_threadpool(self.integrity, snapshot, exercise)
        near = report.pair(exercise, first, second)
        identical = any(first in g and second in g for g in report.identical.get(exercise, []))
        lines_left, lines_right = side_by_side(left.content or "", right.content or "")
        context = {
            "snapshot": snapshot,
            "exercise": exercise,
            "left": left,
            "right": right,
            "lines_left": lines_left,
            "lines_right": lines_right,
            "reason": reason(near, self._lang(request)) if near else None,
            "identical": identical,
            "shared_lines": sum(line.shared for line in lines_left),
        }
        return self._page(request, "pair.html.j2", context)
