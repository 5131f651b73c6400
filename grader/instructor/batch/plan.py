"""What every worker needs to grade a student, decided once by the master: a small,
JSON-able value (it travels in Celery messages too)."""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

WEAK_SUFFIX = "+rlimits"


@dataclass(frozen=True)
class BatchPlan:
    #: Exercise ids to grade, in order.
    exercises: tuple[str, ...]
    #: Per exercise id, the verdict fingerprint in the gradebook key (``+rlimits`` appended
    #: when weak): a change to one exercise's grading re-grades that exercise only.
    fingerprints: tuple[tuple[str, str], ...]
    #: Graded in rlimits mode under --allow-weak-isolation (rows marked as not official).
    weak: bool
    #: Extra paths hidden from every run: the submissions folder, the scratch folder where
    #: zips are unpacked, the gradebook's files.
    hide: tuple[str, ...]
    #: The gradebook's ``runs`` row of this run (what ``gradebook undo-run`` removes).
    run_id: int | None = None
    #: The random token that row's description holds: with ``run_id``, the identity of the
    #: gradebook ``grade`` was given, which a Celery worker checks against its own
    #: (``batch.identity``).
    run_token: str | None = None
    #: That gradebook's URL as ``grade`` names it (no password), for the refusal's message.
    gradebook: str | None = None

    def fingerprint(self, exercise_id: str) -> str:
        return dict(self.fingerprints)[exercise_id]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BatchPlan:
        return cls(
            exercises=tuple(str(e) for e in data["exercises"]),
            fingerprints=tuple((str(k), str(v)) for k, v in data["fingerprints"]),
            weak=bool(data["weak"]),
            hide=tuple(str(p) for p in data["hide"]),
            run_id=None if data.get("run_id") is None else int(data["run_id"]),
            run_token=None if data.get("run_token") is None else str(data["run_token"]),
            gradebook=None if data.get("gradebook") is None else str(data["gradebook"]),
        )


def key_fingerprint(verdict: str, weak: bool) -> str:
    return verdict + (WEAK_SUFFIX if weak else "")


def scratch_folder() -> Path:
    """A private (0700) folder for unpacked zips; one per grading process tree."""
    return Path(tempfile.mkdtemp(prefix="grader-batch-"))


@dataclass(frozen=True)
class ExerciseOutcome:
    exercise: str
    status: str
    #: "graded" (a new gradebook row) or "unchanged" (the key was already recorded)
    action: str


@dataclass(frozen=True)
class StudentOutcome:
    student: str
    results: tuple[ExerciseOutcome, ...]
    #: The student a zip's manifest names, when it is not the zip's own name (a zip
    #: copied from another student, or a forged manifest); flagged by grade and integrity.
    manifest_student: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "student": self.student,
            "results": [asdict(r) for r in self.results],
            "manifest_student": self.manifest_student,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudentOutcome:
        results = tuple(ExerciseOutcome(**item) for item in data.get("results", ()))
        claimed = data.get("manifest_student")
        return cls(str(data.get("student", "")), results, None if claimed is None else str(claimed))


SUMMARY_FIELDS = (
    "graded",
    "unchanged",
    "passed",
    "failed",
    "needs_review",
    "errors",
    "missing",
    "seconds",
)


def summarize(outcomes: Iterable[StudentOutcome], seconds: float) -> dict[str, float | int]:
    """``{"graded", "unchanged", "passed", "failed", "needs_review", "errors", "missing",
    "seconds"}`` over every (student, exercise) of the run."""
    actions: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    for outcome in outcomes:
        for result in outcome.results:
            actions[result.action] += 1
            statuses[result.status] += 1
    return {
        "graded": actions["graded"],
        "unchanged": actions["unchanged"],
        "passed": statuses["passed"],
        "failed": statuses["failed"],
        "needs_review": statuses["needs_review"],
        "errors": statuses["error"],
        "missing": statuses["missing"],
        "seconds": round(seconds, 2),
    }


def pid_label() -> str:
    return f"{os.uname().nodename}:{os.getpid()}"
