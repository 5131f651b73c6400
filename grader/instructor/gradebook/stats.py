"""Class statistics, each figure with its denominator: per exercise the share passed and
the mean final score; per check and per mutant the share of the class that failed it
("mutant off_by_one_bound survived in 41% of probes (7 of 17 evaluated)"). ``grader stats``
(text and ``--json``) and the review page's insight page both read these, so they always
agree. Every score here is the official grade's (``ResultView.grade``).

- The pass share is over the students who handed the exercise in (missing ones, and those
  whose submission needs re-submission, are left out). A prose answer is never passed by
  the grader: its share counts the instructor's decisions (passed = at least half the
  points), over the answers decided, and says how many still wait for review.
- The mean final score is over the students with a final score (``scored``): late
  penalties in, nothing provisional.
- A mutant's survival counts only the probes evaluated against it: a probe that failed on
  the real code (or timed out there), or that a twin showed not credible, says nothing
  about the mutant, so it is in the number handed in but not in the denominator.
- An untouched starter ("not started") or a too-short answer is counted apart
  (``not_started``, ``too_short``), and none of its checks counts in the shares below.
- Stray ids (not on the roster, and no valid submission at all) are listed apart
  (``stray_ids``) and never counted as students.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from grader.instructor.grade import State
from grader.instructor.gradebook.views import CheckView, ResultView

#: Mutant checks that ran against the mutant (killed, or survived it).
EVALUATED = frozenset({"mutant.killed", "mutant.survived", "mutant.survived_unnoticed"})
#: Checks that only say the answer was not really attempted: counted apart.
APART = ("started", "length")
#: A decided prose answer passes with at least this share of its points.
PROSE_PASS = 0.5


@dataclass(frozen=True)
class CheckShare:
    check: str
    category: str
    subject: str | None
    failed: int
    #: The submissions this check was evaluated on (the share's denominator).
    total: int
    #: The submissions that had this check at all (for a mutant: the probes handed in).
    seen: int = 0

    @property
    def share(self) -> float:
        return round(self.failed / self.total, 4) if self.total else 0.0


@dataclass(frozen=True)
class ExerciseStats:
    exercise: str
    students: int
    handed_in: int
    passed: int
    checks: tuple[CheckShare, ...]
    kind: str = "code"
    #: Untouched starters and too-short answers (counted apart from the checks).
    not_started: int = 0
    too_short: int = 0
    #: Prose: answers the instructor decided, and those still waiting for a decision.
    decided: int = 0
    waiting: int = 0
    #: Submissions that need re-submission (not handed in, for every share).
    resubmit: int = 0
    #: Students with a final score, and the mean of those scores.
    scored: int = 0
    mean_final: float = 0.0
    max_score: float = 0.0

    @property
    def passed_of(self) -> int:
        """The pass share's denominator: decided answers (prose), else handed in."""
        return self.decided if self.kind == "prose" else self.handed_in

    @property
    def passed_share(self) -> float:
        return round(self.passed / self.passed_of, 4) if self.passed_of else 0.0

    @property
    def mutants(self) -> tuple[CheckShare, ...]:
        return tuple(check for check in self.checks if check.category == "mutant")


def evaluated(check: CheckView) -> bool:
    """Whether the check says something about the student's work (a mutant: it ran)."""
    return check.category != "mutant" or check.passed or check.message.id in EVALUATED


def _passed(row: ResultView) -> bool:
    decision = row.grade.decision
    if decision is not None:
        return decision >= PROSE_PASS * row.max_score
    return row.kind != "prose" and row.status == "passed"


def _apart(row: ResultView) -> str | None:
    """The reason the answer was not really attempted ("started", "length"), if any."""
    return next((c.category for c in row.checks if c.category in APART and not c.passed), None)


def _exercise_stats(exercise: str, rows: list[ResultView]) -> ExerciseStats:
    handed = [row for row in rows if row.grade.handed_in]
    failed: dict[str, int] = defaultdict(int)
    counted: dict[str, int] = defaultdict(int)
    seen: dict[str, int] = defaultdict(int)
    meta: dict[str, tuple[str, str | None]] = {}
    apart = {name: 0 for name in APART}
    for row in handed:
        reason = _apart(row)
        if reason is not None:  # counted apart, and none of its checks in the shares
            apart[reason] += 1
            continue
        for check in row.checks:
            if check.category in APART:
                continue
            seen[check.name] += 1
            meta[check.name] = (check.category, check.subject)
            if evaluated(check):
                counted[check.name] += 1
                failed[check.name] += 0 if check.passed else 1
    order = sorted(seen, key=lambda n: (-(failed[n] / counted[n]) if counted[n] else 0.0, n))
    checks = tuple(
        CheckShare(name, meta[name][0], meta[name][1], failed[name], counted[name], seen[name])
        for name in order
    )
    kind = "prose" if any(row.kind == "prose" for row in rows) else "code"
    finals = [row.grade.final_score for row in rows if row.grade.final_score is not None]
    return ExerciseStats(
        exercise,
        len(rows),
        len(handed),
        sum(1 for row in handed if _passed(row)),
        checks,
        kind,
        apart["started"],
        apart["length"],
        decided=sum(1 for row in handed if row.kind == "prose" and row.reviewed),
        waiting=sum(1 for row in rows if row.grade.state is State.AWAITING_REVIEW),
        resubmit=sum(1 for row in rows if row.grade.state is State.NEEDS_RESUBMISSION),
        scored=len(finals),
        mean_final=round(sum(finals) / len(finals), 2) if finals else 0.0,
        max_score=max((row.max_score for row in rows), default=0.0),
    )


def stray_ids(results: Sequence[ResultView], roster: Collection[str] = ()) -> list[str]:
    """Ids not on the roster (any id, without one) with no valid submission at all."""
    valid = {result.student for result in results if result.grade.handed_in}
    return sorted(
        {r.student for r in results if r.student not in roster and r.student not in valid}
    )


def class_stats(results: Sequence[ResultView], roster: Collection[str] = ()) -> list[ExerciseStats]:
    """Per exercise, over the class's students (stray ids left out: ``stray_ids``)."""
    strays = set(stray_ids(results, roster))
    grouped: dict[str, list[ResultView]] = defaultdict(list)
    for result in results:
        if result.student not in strays:
            grouped[result.exercise].append(result)
    return [_exercise_stats(exercise, rows) for exercise, rows in sorted(grouped.items())]


def grades_to_json(results: Sequence[ResultView]) -> dict[str, dict[str, dict[str, Any]]]:
    """student -> exercise -> the grade as every view shows it."""
    table: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for result in results:
        grade = result.grade
        table[result.student][result.exercise] = {
            "state": grade.state.value,
            "raw_score": grade.raw_score,
            "decision": grade.decision,
            "penalty": grade.penalty,
            "final_score": grade.final_score,
            "max_score": grade.max_score,
        }
    return dict(sorted(table.items()))


def stats_to_json(
    stats: list[ExerciseStats],
    results: Sequence[ResultView] = (),
    strays: Sequence[str] = (),
) -> dict[str, Any]:
    """The figures, with ``results``' grades and the stray ids listed apart."""
    return {
        "stray_ids": list(strays),
        "grades": grades_to_json([r for r in results if r.student not in set(strays)]),
        "exercises": [
            {
                "exercise": item.exercise,
                "kind": item.kind,
                "students": item.students,
                "handed_in": item.handed_in,
                "passed": item.passed,
                "passed_of": item.passed_of,
                "passed_share": item.passed_share,
                "decided": item.decided,
                "waiting": item.waiting,
                "not_started": item.not_started,
                "too_short": item.too_short,
                "resubmit": item.resubmit,
                "final_score": {
                    "mean": item.mean_final,
                    "of": item.scored,
                    "max_score": item.max_score,
                },
                "checks": [{**asdict(check), "share": check.share} for check in item.checks],
                "mutants": {
                    check.subject: {
                        "survived": check.failed,
                        "evaluated": check.total,
                        "handed_in": check.seen,
                        "share": check.share,
                    }
                    for check in item.mutants
                    if check.subject
                },
            }
            for item in stats
        ],
    }


def survivors(results: list[ResultView], exercise: str, mutant: str) -> list[str]:
    """The students whose probe, evaluated against ``mutant``, let it through, sorted."""
    name = f"mutant:{mutant}"
    return sorted(
        result.student
        for result in results
        if result.exercise == exercise
        and any(c.name == name and not c.passed and evaluated(c) for c in result.checks)
    )
