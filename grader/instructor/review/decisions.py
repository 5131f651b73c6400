"""The instructor's decisions, checked before they reach the gradebook.

A decision names the grading it was read on (a form without it is refused). A final
score is a number from 0 to the exercise's maximum. On a prose answer waiting for
review the comment is optional; anywhere else (a code exercise, or a prose answer the
rubric already decided) the score overrides the grader's verdict and needs a comment that
says why. The decision is stored with the reviewer and the time by
``Gradebook.set_review``; it is keyed by (student, exercise), so re-grades keep it.
"""

from __future__ import annotations

import math

from grader.instructor.gradebook import Gradebook, ResultView, ReviewView
from grader.instructor.gradebook.decisions import Decision

MAX_COMMENT = 5_000


class Rejected(Exception):
    """A decision the page refuses: a catalogue id and its parameters."""

    def __init__(self, message_id: str, params: dict[str, str | float]) -> None:
        super().__init__(message_id)
        self.message_id = message_id
        self.params = params


def is_override(result: ResultView) -> bool:
    """Scoring anything but a prose answer in the queue (waiting, or too short) overrides
    the grader."""
    return not result.in_queue


def parse_score(text: str, maximum: float) -> float:
    cleaned = text.strip().replace(",", ".")
    try:
        score = float(cleaned)
    except ValueError:
        raise Rejected("review.error.score_not_number", {"given": text[:40]}) from None
    if not math.isfinite(score) or not 0 <= score <= maximum:
        raise Rejected("review.error.score_range", {"given": text[:40], "max_score": maximum})
    return round(score, 2)


def checked(result: ResultView, score_text: str, comment: str) -> tuple[float, str]:
    """The score and comment as they will be stored, or ``Rejected``."""
    score = parse_score(score_text, result.max_score)
    comment = comment.replace("\r\n", "\n").strip()
    if len(comment) > MAX_COMMENT:
        raise Rejected("review.error.comment_too_long", {"limit": MAX_COMMENT})
    if is_override(result) and not comment:
        raise Rejected("review.error.comment_required", {})
    return score, comment


def decide(
    book: Gradebook,
    result: ResultView,
    score_text: str,
    comment: str,
    reviewer: str,
    *,
    grading_id: int | None,
    version: int | None = None,
) -> ReviewView:
    """Store one decision bound to the grading and decision version the form was read
    with (``StaleDecision`` / ``ConflictingDecision`` from the gradebook otherwise). A
    form that does not name the grading it was read on is refused: a decision is final,
    so it must say what it was made on."""
    if grading_id is None:
        raise Rejected("review.error.no_grading", {})
    score, comment = checked(result, score_text, comment)
    return book.set_review(
        result.student,
        result.exercise,
        final_score=score,
        comment=comment,
        reviewer=reviewer,
        grading_id=grading_id,
        version=version,
    )


def decide_group(
    book: Gradebook,
    group_key: str,
    members: list[tuple[ResultView, int, int]],
    score_text: str,
    comment: str,
    reviewer: str,
) -> None:
    """One decision for every (member, grading id read, version read): all or none."""
    if not members:
        raise Rejected("review.error.group_empty", {})
    score, comment = checked(members[0][0], score_text, comment)
    book.decide(
        [
            Decision(r.student, r.exercise, score, comment, grading_id, version, group_key)
            for r, grading_id, version in members
        ],
        reviewer,
    )
