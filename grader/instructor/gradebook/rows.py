"""Gradebook rows to and from the dataclasses the service hands out (``entries``,
``views``). Pure conversions: no sessions, no queries."""

from __future__ import annotations

from datetime import UTC

from grader.app.version import grader_version
from grader.instructor.grade import Late
from grader.instructor.gradebook.codec import message_from, params_to_json, split_name
from grader.instructor.gradebook.entries import GradingEntry
from grader.instructor.gradebook.models import CheckRow, Grading, Review
from grader.instructor.gradebook.views import CheckView, ResultView, ReviewView
from grader.judge.results import CheckResult


def grading_row(entry: GradingEntry) -> Grading:
    key = entry.key
    return Grading(
        student=key.student,
        exercise=key.exercise,
        content_sha256=key.content_sha256,
        verdict_fingerprint=key.verdict_fingerprint,
        status=entry.status,
        kind=entry.kind,
        score=entry.score,
        max_score=entry.max_score,
        isolation=entry.isolation,
        weak_isolation=entry.weak_isolation,
        reason_id=entry.reason.id if entry.reason else None,
        reason_params=params_to_json(entry.reason.params) if entry.reason else None,
        summary_id=entry.summary.id if entry.summary else None,
        summary_params=params_to_json(entry.summary.params) if entry.summary else None,
        file_name=entry.file_name,
        content=entry.content,
        seconds=round(entry.seconds, 4),
        graded_at=entry.graded_at,
        worker=entry.worker[:120],
        grader_version=grader_version()[:32],
        checks=[_check_row(position, check) for position, check in enumerate(entry.checks)],
    )


def _check_row(position: int, check: CheckResult) -> CheckRow:
    category, subject = split_name(check.name)
    return CheckRow(
        position=position,
        name=check.name[:120],
        category=category[:40],
        subject=subject[:80] if subject else None,
        passed=check.passed,
        points=check.points,
        max_points=check.max_points,
        message_id=check.message.id,
        message_params=params_to_json(check.message.params),
        hint_id=check.hint.id if check.hint else None,
        hint_params=params_to_json(check.hint.params) if check.hint else None,
        label_id=check.label.id if check.label else None,
        label_params=params_to_json(check.label.params) if check.label else None,
        evidence=check.evidence,
    )


def review_view(row: Review, current_sha: str) -> ReviewView:
    reviewed_at = row.reviewed_at
    if reviewed_at.tzinfo is None:  # SQLite gives naive datetimes back
        reviewed_at = reviewed_at.replace(tzinfo=UTC)
    return ReviewView(
        final_score=row.final_score,
        comment=row.comment,
        reviewer=row.reviewer,
        reviewed_at=reviewed_at,
        content_sha256=row.content_sha256,
        changed_since_review=row.content_sha256 != current_sha,
        grading_id=row.grading_id,
        version=row.version or 1,
        group_key=row.group_key,
    )


def result_view(row: Grading, review: Review | None, late: Late | None = None) -> ResultView:
    graded_at = row.graded_at if row.graded_at.tzinfo else row.graded_at.replace(tzinfo=UTC)
    return ResultView(
        grading_id=row.id,
        student=row.student,
        exercise=row.exercise,
        kind=row.kind,
        status=row.status,
        score=row.score,
        max_score=row.max_score,
        content_sha256=row.content_sha256,
        verdict_fingerprint=row.verdict_fingerprint,
        isolation=row.isolation,
        weak_isolation=row.weak_isolation,
        reason=message_from(row.reason_id, row.reason_params),
        summary=message_from(row.summary_id, row.summary_params),
        file_name=row.file_name,
        content=row.content,
        seconds=row.seconds,
        graded_at=graded_at,
        worker=row.worker,
        checks=tuple(_check_view(check) for check in row.checks),
        review=None if review is None else review_view(review, row.content_sha256),
        late=late,
    )


def _check_view(row: CheckRow) -> CheckView:
    message = message_from(row.message_id, row.message_params)
    assert message is not None
    return CheckView(
        name=row.name,
        category=row.category,
        subject=row.subject,
        passed=row.passed,
        points=row.points,
        max_points=row.max_points,
        message=message,
        hint=message_from(row.hint_id, row.hint_params),
        label=message_from(row.label_id, row.label_params),
        evidence=row.evidence,
    )
