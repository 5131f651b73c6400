"""What a check produces: small frozen dataclasses, language-neutral.

A ``Message`` (``grader.judge.message``) is a catalogue id plus parameters; the renderer picks the
language (``grader.render``; a notebook's report knows how to show itself, see
``grader.frontends.notebook.ShownReport``). Text that came from the student's process (their
traceback, what they printed) travels in
``CheckResult.evidence`` and is always shown as untrusted, escaped and fenced off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grader.judge.message import Message, ParamValue, msg

__all__ = ["CheckReport", "CheckResult", "Message", "ParamValue", "build_report", "msg"]

Status = Literal["passed", "failed", "error", "needs_review"]
Kind = Literal["code", "prose"]


@dataclass(frozen=True)
class CheckResult:
    """One named check. ``points`` is what was earned (0 when it failed)."""

    name: str
    passed: bool
    points: float
    message: Message
    hint: Message | None = None
    max_points: float = 0.0
    evidence: str | None = None  # untrusted text from the student's run
    label: Message | None = None  # the check's title; default: catalogue id "check.<name>"

    @property
    def title(self) -> Message:
        return self.label or Message(f"check.{self.name.split(':')[0]}")


@dataclass(frozen=True)
class CheckReport:
    exercise: str
    status: Status
    score: float
    max_score: float
    checks: tuple[CheckResult, ...]
    kind: Kind = "code"
    title: Message | None = None
    lang: str = "zh"
    summary: Message | None = None
    #: The sandbox mode the runs used ("namespaces" or "rlimits"); None when nothing ran.
    isolation: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"


def build_report(
    exercise: str,
    kind: Kind,
    checks: tuple[CheckResult, ...],
    *,
    status: Status | None = None,
    title: Message | None = None,
    summary: Message | None = None,
    lang: str = "zh",
    isolation: str | None = None,
) -> CheckReport:
    """Sum the points; the status is 'passed' only when every check passed."""
    score = round(sum(check.points for check in checks), 2)
    max_score = round(sum(check.max_points for check in checks), 2)
    if status is None:
        status = "passed" if checks and all(check.passed for check in checks) else "failed"
    return CheckReport(
        exercise=exercise,
        status=status,
        score=score,
        max_score=max_score,
        checks=checks,
        kind=kind,
        title=title,
        lang=lang,
        summary=summary,
        isolation=isolation,
    )


def passed_check(
    name: str, points: float, message: Message, *, label: Message | None = None
) -> CheckResult:
    return CheckResult(name, True, points, message, None, points, None, label)


def failed_check(
    name: str,
    points: float,
    message: Message,
    hint: Message | None = None,
    evidence: str | None = None,
    *,
    label: Message | None = None,
) -> CheckResult:
    return CheckResult(name, False, 0.0, message, hint, points, evidence, label)


@dataclass(frozen=True)
class ListEntry:
    """One line of ``grader list``: an exercise and where the student stands on it."""

    exercise: str
    kind: str
    title: Message
    max_score: float
    status: str  # not_started | passed | failed | needs_review | error | unchecked
    score: float
