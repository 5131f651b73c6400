"""The instructor's decisions, checked before they reach the gradebook.

A final score is a number from 0 to the exercise's maximum. On a prose answer waiting for
review the comment is optional; anywhere else (a code exercise, or a prose answer the
rubric already decided) the score overrides the grader's verdict and needs a comment that
says why. The decision is stored with the reviewer and the time by
``Gradebook.set_review``; it is keyed by (student, exercise), so re-grades keep it.
"""

from __future__ import annotations

import math

from grader.instructor.gradebook import Gradebook, ResultView, ReviewView

MAX_COMMENT = 5_000


class Rejected(Exception):
    """A decision the page refuses: a catalogue id and its parameters."""

    def __init__(self, message_id: str, params: dict[str, str | float]) -> None:
        super().__init__(message_id)
        self.message_id = message_id
        self.params = params


def is_override(result: ResultView) -> bool:
    """Scoring anything but a prose answer awaiting review overrides the grader."""
    return result.status != "needs_review"


def parse_score(text: str, maximum: float) -> float:
    cleaned = text.strip().replace(",", ".")
    try:
        score = float(cleaned)
    except ValueError:
        raise Rejected("review.error.score_not_number", {"given": text[:40]}) from None
    if not math.isfinite(score) or not 0 <= score <= maximum:
        raise Rejected("review.error.score_range", {"given": text[:40], "max_score": maximum})
    return round(score, 2)


def decide(
    book: Gradebook, result: ResultView, score_text: str, comment: str, reviewer: str
) -> ReviewView:
    score = parse_score(score_text, result.max_score)
    comment = comment.replace("\r\n", "\n").strip()
    if len(comment) > MAX_COMMENT:
        raise Rejected("review.error.comment_too_long", {"limit": MAX_COMMENT})
    if is_override(result) and not comment:
        raise Rejected("review.error.comment_required", {})
    return book.set_review(
        result.student, result.exercise, final_score=score, comment=comment, reviewer=reviewer
    )
