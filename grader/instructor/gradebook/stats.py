"""Class statistics: per exercise the share passed; per check and per mutant, the share of
the class that failed it ("mutant off_by_one_bound survived in 41% of probes").

The pass share is over the students who handed the exercise in (missing ones are left
out). A check's share is over the submissions that check judged: an untouched starter or
an unreadable file has no mutant checks, so it neither counts for nor against one. A
mutant "survived" in a probe when its check did not pass, including when the probe failed
on the real code first: either way the probe did not catch it, and that is what to
re-teach.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from grader.instructor.gradebook.views import ResultView


@dataclass(frozen=True)
class CheckShare:
    check: str
    category: str
    subject: str | None
    failed: int
    total: int

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

    @property
    def passed_share(self) -> float:
        return round(self.passed / self.handed_in, 4) if self.handed_in else 0.0

    @property
    def mutants(self) -> tuple[CheckShare, ...]:
        return tuple(check for check in self.checks if check.category == "mutant")


def class_stats(results: list[ResultView]) -> list[ExerciseStats]:
    grouped: dict[str, list[ResultView]] = defaultdict(list)
    for result in results:
        grouped[result.exercise].append(result)
    stats = []
    for exercise, rows in sorted(grouped.items()):
        handed = [row for row in rows if row.status != "missing"]
        failed: dict[str, int] = defaultdict(int)
        seen: dict[str, int] = defaultdict(int)
        meta: dict[str, tuple[str, str | None]] = {}
        for row in handed:
            for check in row.checks:
                seen[check.name] += 1
                failed[check.name] += 0 if check.passed else 1
                meta[check.name] = (check.category, check.subject)
        checks = tuple(
            CheckShare(name, meta[name][0], meta[name][1], failed[name], seen[name])
            for name in sorted(seen, key=lambda n: (-failed[n] / seen[n], n))
        )
        passed = sum(1 for row in handed if row.status == "passed")
        stats.append(ExerciseStats(exercise, len(rows), len(handed), passed, checks))
    return stats


def stats_to_json(stats: list[ExerciseStats]) -> dict[str, Any]:
    return {
        "exercises": [
            {
                "exercise": item.exercise,
                "students": item.students,
                "handed_in": item.handed_in,
                "passed": item.passed,
                "passed_share": item.passed_share,
                "checks": [{**asdict(check), "share": check.share} for check in item.checks],
                "mutants": {
                    check.subject: {
                        "survived": check.failed,
                        "total": check.total,
                        "share": check.share,
                    }
                    for check in item.mutants
                    if check.subject
                },
            }
            for item in stats
        ]
    }


def survivors(results: list[ResultView], exercise: str, mutant: str) -> list[str]:
    """The students whose probe for ``exercise`` let ``mutant`` through, sorted."""
    return sorted(
        result.student
        for result in results
        if result.exercise == exercise and result.mutants.get(mutant) is False
    )
