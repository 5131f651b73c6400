"""What the gradebook hands out: small frozen dataclasses, detached from any session.

Front ends (export, feedback, stats, the review page) read these and never the ORM rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from grader.judge.results import CheckReport, CheckResult, Message

#: The status shown for a decided item (the grading's own status stays as it was graded).
REVIEWED = "reviewed"


@dataclass(frozen=True)
class CheckView:
    name: str
    #: "runs_cleanly", "output", "calls", "equivalents" (the twins), "mutant", "concept",
    #: "length", "started"
    category: str
    #: The mutant's or concept's name ("off_by_one_bound"); None for the other checks.
    subject: str | None
    passed: bool
    points: float
    max_points: float
    message: Message
    hint: Message | None
    label: Message | None
    evidence: str | None

    def to_result(self) -> CheckResult:
        return CheckResult(
            self.name,
            self.passed,
            self.points,
            self.message,
            self.hint,
            self.max_points,
            self.evidence,
            self.label,
        )


@dataclass(frozen=True)
class ReviewView:
    final_score: float | None
    comment: str
    reviewer: str
    reviewed_at: datetime
    #: The submission the instructor reviewed.
    content_sha256: str
    #: The student's submission is no longer the one reviewed: the decision is kept, for
    #: the instructor only, but no longer counts (the result is not ``reviewed``).
    changed_since_review: bool
    #: The grading the reviewer read (None: a decision made before decisions were bound).
    grading_id: int | None = None
    #: Bumped by every save; a form that read another version is refused.
    version: int = 1
    #: The answer group whose one decision set this score (None: decided on its own).
    group_key: str | None = None


@dataclass(frozen=True)
class ResultView:
    """The current grading of one (student, exercise), with its checks and any review."""

    grading_id: int
    student: str
    exercise: str
    kind: str
    status: str
    score: float
    max_score: float
    content_sha256: str
    verdict_fingerprint: str
    isolation: str | None
    weak_isolation: bool
    reason: Message | None
    summary: Message | None
    file_name: str | None
    content: str | None
    seconds: float
    graded_at: datetime
    worker: str
    checks: tuple[CheckView, ...]
    review: ReviewView | None

    @property
    def reviewed(self) -> bool:
        """The instructor scored exactly this submission (a decision on an older one, still
        kept and flagged, does not count)."""
        return (
            self.review is not None
            and self.review.final_score is not None
            and not self.review.changed_since_review
        )

    @property
    def shown_status(self) -> str:
        """What every front end shows: ``reviewed`` once decided, else the grader's status."""
        return REVIEWED if self.reviewed else self.status

    @property
    def review_version(self) -> int:
        """The decision's version as read (0: none yet), for the form to carry back."""
        return 0 if self.review is None else self.review.version

    @property
    def final_score(self) -> float | None:
        """The instructor's score where set, else the automatic one; None when missing."""
        if self.reviewed:
            assert self.review is not None
            return self.review.final_score
        return None if self.status == "missing" else self.score

    @property
    def mutants(self) -> dict[str, bool]:
        """Mutant name -> killed (True) or survived/not reached (False)."""
        return {c.subject: c.passed for c in self.checks if c.category == "mutant" and c.subject}

    @property
    def concepts(self) -> dict[str, bool]:
        """Rubric concept name -> found in the answer."""
        return {c.subject: c.passed for c in self.checks if c.category == "concept" and c.subject}

    def report(self, lang: str = "zh") -> CheckReport:
        """The grading as a ``CheckReport``, for the shared renderers (no reason/missing)."""
        status = self.status if self.status in ("passed", "failed", "needs_review") else "error"
        return CheckReport(
            exercise=self.exercise,
            status=status,  # type: ignore[arg-type]
            score=self.score,
            max_score=self.max_score,
            checks=tuple(check.to_result() for check in self.checks),
            kind="prose" if self.kind == "prose" else "code",
            title=Message(f"exercise.{self.exercise}.title"),
            lang=lang,
            summary=self.summary or self.reason,
            isolation=self.isolation,
        )
