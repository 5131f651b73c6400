"""What the gradebook hands out: small frozen dataclasses, detached from any session.

Front ends (export, feedback, stats, the review page) read these and never the ORM rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from grader.instructor.grade import Decided, Grade, Graded, Late, State, grade
from grader.instructor.grade.grade import TOO_SHORT_CHECK
from grader.judge.results import CheckReport, CheckResult, Message

#: The status shown for a decided item (the grading's own status stays as it was graded).
REVIEWED = "reviewed"
#: The status shown for a submission that cannot be graded as handed in (bad zip, ...).
RESUBMIT = "resubmit"


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
    #: The lateness of this content (from its receipt); None: no receipt, never late.
    late: Late | None = None

    @cached_property
    def grade(self) -> Grade:
        """The official grade (``grader.instructor.grade``): what every view shows."""
        graded = Graded(
            grading_id=self.grading_id,
            status=self.status,
            kind=self.kind,
            score=self.score,
            max_score=self.max_score,
            content_sha256=self.content_sha256,
            reason_id=self.reason.id if self.reason else None,
            too_short=any(c.name == TOO_SHORT_CHECK and not c.passed for c in self.checks),
        )
        review = self.review
        decided = (
            None
            if review is None
            else Decided(
                review.final_score, review.comment, review.content_sha256, review.grading_id
            )
        )
        return grade(graded, decided, self.late)

    @property
    def reviewed(self) -> bool:
        """The instructor scored exactly this submission (a decision on an older one, still
        kept and flagged, does not count)."""
        return self.grade.decision is not None

    @property
    def shown_status(self) -> str:
        """What every front end shows, from the grade: ``reviewed`` once decided,
        ``resubmit`` for a submission that cannot be graded, ``needs_review`` while a prose
        answer waits (a too-short one too), ``failed`` for code that does not parse."""
        state = self.grade.state
        if state is State.DECIDED:
            return REVIEWED
        if state is State.NEEDS_RESUBMISSION:
            return RESUBMIT
        if state is State.AWAITING_REVIEW:
            return "needs_review"
        if state is State.NOT_HANDED_IN:
            return "missing"
        return "failed" if self.status == "error" else self.status

    @property
    def in_queue(self) -> bool:
        """A prose answer for the instructor: waiting, too short, or decided from the queue."""
        return self.status == "needs_review" or (self.kind == "prose" and self.grade.too_short)

    @property
    def review_version(self) -> int:
        """The decision's version as read (0: none yet), for the form to carry back."""
        return 0 if self.review is None else self.review.version

    @property
    def final_score(self) -> float | None:
        """The grade's final score (late penalty included; None: no official score)."""
        return self.grade.final_score

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
