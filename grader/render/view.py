"""What a report shows, language resolved, shared by the terminal and the HTML forms.

Decides once what is worth showing: a passed check worth no points (e.g. "depends on
behaviour" when it held) is left out; the student's output is shown once, and a later
failed check with the very same output points back to it instead of repeating it; an
error report has no score and no table of checks, only what went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.judge.message import Message
from grader.judge.sanitize import clean
from grader.render.catalog import render_message, unofficial_notice

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from grader.judge.results import CheckReport, CheckResult


@dataclass(frozen=True)
class RowView:
    title: str
    passed: bool
    points: str  # "1/1"
    message: str | None  # only for a failed check
    hint: str | None
    evidence: str | None  # cleaned student output, None if absent or shown above
    evidence_above: bool  # the same output was shown for an earlier check


@dataclass(frozen=True)
class ReportView:
    exercise: str
    title: str
    status: str  # passed | failed | error | needs_review
    status_text: str
    score: str | None  # "8/10"; None for an error report
    rows: tuple[RowView, ...]
    summary: str | None
    error: str | None  # the error's message for a status "error" report
    weak_isolation: str | None  # the rlimits / portable warning, or None


def report_view(report: CheckReport, lang: str, *, exercise: str | None = None) -> ReportView:
    """``exercise``: the id as it should be shown (default ``report.exercise``)."""

    def t(message: Message | None) -> str | None:
        return None if message is None else render_message(message.id, message.params, lang)

    error = report.status == "error"
    notice = unofficial_notice(report.isolation)
    rows: list[RowView] = []
    shown: set[str] = set()
    collapsed = _not_judged(report.checks)
    for check in () if error else report.checks:
        if check.passed and check.max_points == 0:
            continue
        if collapsed and check in collapsed:
            if check is collapsed[0]:
                rows.append(_not_judged_row(collapsed, t))
            continue
        evidence = None if check.passed or not check.evidence else clean(check.evidence)
        repeated = evidence is not None and evidence in shown
        if evidence is not None:
            shown.add(evidence)
        rows.append(
            RowView(
                title=t(check.title) or "",
                passed=check.passed,
                points=f"{check.points:g}/{check.max_points:g}",
                message=None if check.passed else t(check.message),
                hint=None if check.passed else t(check.hint),
                evidence=None if repeated else evidence,
                evidence_above=repeated,
            )
        )
    return ReportView(
        exercise=exercise or report.exercise,
        title=t(report.title) or "",
        status=report.status,
        status_text=t(Message(f"status.{report.status}")) or report.status,
        score=None if error else _score(report, t),
        rows=tuple(rows),
        summary=t(report.summary),
        error="; ".join(t(c.message) or "" for c in report.checks) if error else None,
        weak_isolation=t(Message(notice)) if notice is not None else None,
    )


def _not_judged(checks: Sequence[CheckResult]) -> list[CheckResult]:
    """The checks left unjudged because the probe failed on the real code: every one says
    the same ``followon.*`` message (where it stopped), so the student reads it once."""
    followons = [c for c in checks if not c.passed and c.message.id.startswith("followon.")]
    if len(followons) < 2:
        return []
    first = followons[0].message
    return [c for c in followons if c.message == first]


def _not_judged_row(
    checks: Sequence[CheckResult], t: Callable[[Message | None], str | None]
) -> RowView:
    points = sum(c.points for c in checks)
    most = sum(c.max_points for c in checks)
    return RowView(
        title=t(Message("report.not_judged", {"count": len(checks)})) or "",
        passed=False,
        points=f"{points:g}/{most:g}",
        message=t(checks[0].message),
        hint=None,
        evidence=None,
        evidence_above=False,
    )


def _score(report: CheckReport, t: Callable[[Message | None], str | None]) -> str:
    """ "8/10"; a prose answer whose rubric is withheld (the student copy) has no score of
    its own yet: "awaiting the instructor, 5 points"."""
    withheld = report.kind == "prose" and not any(
        check.name.startswith("concept:") for check in report.checks
    )
    if withheld and report.status == "needs_review":
        awaiting = Message("list.prose_awaiting", {"max_score": f"{report.max_score:g}"})
        return t(awaiting) or ""
    return f"{report.score:g}/{report.max_score:g}"
