"""``grade()``: the automatic grading, the instructor's decision and the lateness of one
(student, exercise), made into the one official grade every view shows.

The rules, stated once (the README's "The grade, once" says the same):

- **A decision is final.** It is bound to the submission it was read on: a decision read on
  this content (the same ``content_sha256``; a re-grade of the same file by a newer grader
  keeps it) sets the score, whatever the grader said, ``error`` rows included. A decision
  on another content is kept for the instructor but counts for nothing (the review app
  refuses a form that does not name the grading it was read on).
- **Broken code is not "not graded".** An error in the student's code (a syntax error; a
  crash on import is already a failed ``runs_cleanly`` check) is machine-graded 0 unless
  decided otherwise. A grader fault or a submission that cannot be read (a corrupt zip, a
  manifest mismatch, ...) is ``needs_resubmission``: no score (a blank cell), listed on
  stderr by the exports, and shown to the student as such.
- **The late penalty is part of the final score everywhere:** final = (decision, else the
  automatic score) x (1 - penalty), rounded to 2 places; views show it beside the raw score.
- **Nothing provisional reaches a student or the LMS by default.** A prose answer waiting
  for the instructor has no final score; its provisional one (also penalised) is exported
  only on request (``export --provisional``) and shown only with ``feedback --all``.
- **A prose answer the rubric finds too short** waits for the instructor with that note,
  like any other prose answer (never ``failed`` unseen).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class State(StrEnum):
    NOT_HANDED_IN = "not_handed_in"
    NEEDS_RESUBMISSION = "needs_resubmission"
    MACHINE_GRADED = "machine_graded"
    AWAITING_REVIEW = "awaiting_review"
    DECIDED = "decided"


#: ``error`` reasons that are the student's own code: failed, worth 0 (not re-submission).
STUDENT_CODE_ERRORS = frozenset({"error.syntax", "error.syntax_cell"})
#: The rubric's check of a prose answer under the exercise's minimum length.
TOO_SHORT_CHECK = "length"


@dataclass(frozen=True)
class Graded:
    """The current automatic grading, as much of it as a grade depends on."""

    grading_id: int
    #: passed | failed | needs_review | error | missing
    status: str
    #: code | prose
    kind: str
    score: float
    max_score: float
    content_sha256: str
    #: Why an ``error`` / ``missing`` row is one (a catalogue id).
    reason_id: str | None = None
    #: The rubric's length check failed (a prose answer too short).
    too_short: bool = False


@dataclass(frozen=True)
class Decided:
    """The instructor's decision, and the submission it was read on."""

    #: None: a comment only (the automatic score stands).
    final_score: float | None
    comment: str
    content_sha256: str
    grading_id: int | None = None


@dataclass(frozen=True)
class Late:
    """The lateness of the graded content (from its receipt and the due time)."""

    #: The share of the score lost, 0..1.
    penalty: float
    late_by_seconds: float = 0.0


@dataclass(frozen=True)
class Grade:
    state: State
    kind: str
    max_score: float
    #: The grader's score (0 for broken student code); None: nothing was graded.
    raw_score: float | None
    #: The instructor's score, when a decision on this very submission set one.
    decision: float | None
    #: The instructor's comment on this submission ("" when none, or read on another one).
    comment: str
    #: The late penalty, a share 0..1 (0: on time or no due date).
    penalty: float
    late_by_seconds: float
    #: The official score: (decision, else raw) x (1 - penalty). None: no score (not handed
    #: in, needs re-submission, awaiting the instructor).
    final_score: float | None
    #: Awaiting review: the raw score with the penalty applied, never official.
    provisional_score: float | None
    reason_id: str | None
    too_short: bool
    #: A decision exists but was read on another submission (for the instructor only).
    stale_decision: bool

    @property
    def handed_in(self) -> bool:
        """Something gradeable was handed in (not missing, not to be re-submitted)."""
        return self.state not in (State.NOT_HANDED_IN, State.NEEDS_RESUBMISSION)

    @property
    def late(self) -> bool:
        return self.late_by_seconds > 0

    def exported(self, provisional: bool = False) -> float | None:
        """The LMS cell: the final score; an undecided prose answer only when asked."""
        if self.state is State.AWAITING_REVIEW:
            return self.provisional_score if provisional else None
        return self.final_score

    def released(self, everything: bool = False) -> bool:
        """Whether the student may see a score (``everything``: provisional ones too)."""
        return everything or self.state is not State.AWAITING_REVIEW

    def student_score(self, everything: bool = False) -> float | None:
        """The score a feedback page shows the student (None: none to show)."""
        return self.exported(provisional=everything)


def _penalised(score: float, penalty: float) -> float:
    return round(score * (1.0 - penalty), 2)


def _state(graded: Graded, decided: bool) -> State:
    if graded.status == "missing":
        return State.DECIDED if decided else State.NOT_HANDED_IN
    if decided:
        return State.DECIDED
    if graded.status == "error":
        if graded.reason_id in STUDENT_CODE_ERRORS:
            return State.MACHINE_GRADED
        return State.NEEDS_RESUBMISSION
    if graded.status == "needs_review" or (graded.kind == "prose" and graded.too_short):
        return State.AWAITING_REVIEW
    return State.MACHINE_GRADED


def grade(graded: Graded, decided: Decided | None = None, late: Late | None = None) -> Grade:
    """The official grade (see the module's docstring for the rules)."""
    current = decided is not None and decided.content_sha256 == graded.content_sha256
    decision = decided.final_score if current and decided is not None else None
    state = _state(graded, decision is not None)
    penalty = late.penalty if late is not None else 0.0
    if graded.status == "missing":
        raw: float | None = None
    elif graded.status == "error":  # code that does not parse is 0; an unreadable hand-in
        raw = 0.0 if graded.reason_id in STUDENT_CODE_ERRORS else None  # has no score
    else:
        raw = graded.score
    base = decision if decision is not None else raw
    final = provisional = None
    if state is State.AWAITING_REVIEW:
        provisional = None if raw is None else _penalised(raw, penalty)
    elif base is not None:
        final = _penalised(base, penalty)
    return Grade(
        state=state,
        kind=graded.kind,
        max_score=graded.max_score,
        raw_score=raw,
        decision=decision,
        comment=decided.comment if current and decided is not None else "",
        penalty=penalty,
        late_by_seconds=late.late_by_seconds if late is not None else 0.0,
        final_score=final,
        provisional_score=provisional,
        reason_id=graded.reason_id,
        too_short=graded.too_short,
        stale_decision=decided is not None and not current,
    )
