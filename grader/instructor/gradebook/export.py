"""The gradebook's columns and maxima for the exports, and the plain CSV / JSON of the
current results (no roster, no lateness): the LMS formats and their rules are
``grader.instructor.term.lms``, which these call."""

from __future__ import annotations

from typing import Any

from grader.instructor.grade import State
from grader.instructor.gradebook.columns import columns_of, max_score_of
from grader.instructor.gradebook.views import ResultView
from grader.instructor.term import lms

__all__ = ["awaiting_review", "columns_of", "max_score_of", "to_csv", "to_json"]


def to_csv(results: list[ResultView]) -> str:
    return lms.to_csv(lms.build_table(results, (), {}), results, lms.ExportOptions())


def to_json(results: list[ResultView]) -> dict[str, Any]:
    return lms.to_json(lms.build_table(results, (), {}), results, lms.ExportOptions())


def awaiting_review(results: list[ResultView]) -> int:
    """Prose answers awaiting the instructor (their grade has no final score yet)."""
    return sum(1 for result in results if result.grade.state is State.AWAITING_REVIEW)
