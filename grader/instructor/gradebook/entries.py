"""What one grading puts into the gradebook (``GradingEntry``), built from a report, an
error or an absent exercise; and the key that makes recording it idempotent."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from grader.judge.results import CheckReport, CheckResult, Message, ParamValue

#: ``content_sha256`` of an exercise that was not handed in.
MISSING = "missing"
STATUSES = ("passed", "failed", "needs_review", "error", "missing")
#: What front ends show (``ResultView.shown_status``, from the grade): a decided item is
#: ``reviewed`` whatever the grader said; an unreadable one ``resubmit``.
SHOWN_STATUSES = ("passed", "failed", "needs_review", "reviewed", "resubmit", "missing")


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GradingKey:
    """One grading is recorded once per key (the gradebook's unique constraint)."""

    student: str
    exercise: str
    content_sha256: str
    verdict_fingerprint: str


@dataclass(frozen=True)
class GradingEntry:
    key: GradingKey
    status: str
    kind: str
    score: float
    max_score: float
    checks: tuple[CheckResult, ...] = ()
    isolation: str | None = None
    weak_isolation: bool = False
    reason: Message | None = None
    summary: Message | None = None
    file_name: str | None = None
    content: str | None = None
    seconds: float = 0.0
    worker: str = ""
    graded_at: datetime = field(default_factory=lambda: datetime.now(UTC))


def entry_from_report(
    key: GradingKey,
    report: CheckReport,
    *,
    file_name: str,
    content: str,
    seconds: float,
    worker: str = "",
    weak_isolation: bool = False,
) -> GradingEntry:
    return GradingEntry(
        key=key,
        status=report.status,
        kind=report.kind,
        score=report.score,
        max_score=report.max_score,
        checks=report.checks,
        isolation=report.isolation,
        weak_isolation=weak_isolation and report.isolation == "rlimits",
        summary=report.summary,
        file_name=file_name,
        content=content,
        seconds=seconds,
        worker=worker,
    )


def error_entry(
    key: GradingKey,
    kind: str,
    max_score: float,
    reason_id: str,
    reason_params: Mapping[str, ParamValue],
    *,
    file_name: str | None = None,
    content: str | None = None,
    seconds: float = 0.0,
    worker: str = "",
) -> GradingEntry:
    """The submission could not be graded as handed in (bad archive, syntax error, ...)."""
    return GradingEntry(
        key=key,
        status="error",
        kind=kind,
        score=0.0,
        max_score=max_score,
        reason=Message(reason_id, dict(reason_params)),
        file_name=file_name,
        content=content,
        seconds=seconds,
        worker=worker,
    )


def missing_entry(key: GradingKey, kind: str, max_score: float, worker: str = "") -> GradingEntry:
    return GradingEntry(
        key=key,
        status="missing",
        kind=kind,
        score=0.0,
        max_score=max_score,
        reason=Message("batch.missing", {"exercise": key.exercise}),
        worker=worker,
    )
