"""Gradebook entries for tests: a passed code grading, a prose one, an error, a missing one."""

from __future__ import annotations

from grader.instructor.gradebook.entries import (
    GradingEntry,
    GradingKey,
    entry_from_report,
    error_entry,
    missing_entry,
    sha256_text,
)
from grader.judge.results import build_report, failed_check, msg, passed_check

FINGERPRINT = "f" * 64


def key(student: str = "alice", exercise: str = "EX-11-01", text: str = "print(1)\n") -> GradingKey:
    return GradingKey(student, exercise, sha256_text(text), FINGERPRINT)


def code_entry(
    student: str = "alice", text: str = "print(1)\n", *, survived: bool = False
) -> GradingEntry:
    mutant = (
        failed_check(
            "mutant:off_by_one_bound",
            1.0,
            msg("mutant.survived", mutant=msg("mutant.off_by_one_bound")),
            msg("mutant.off_by_one_bound.hint"),
            "<script>alert(1)</script>",
            label=msg("check.mutant", arg=msg("mutant.off_by_one_bound")),
        )
        if survived
        else passed_check(
            "mutant:off_by_one_bound",
            1.0,
            msg("mutant.killed", mutant=msg("mutant.off_by_one_bound")),
            label=msg("check.mutant", arg=msg("mutant.off_by_one_bound")),
        )
    )
    checks = (
        passed_check("runs_cleanly", 1.0, msg("run.ok")),
        passed_check("equivalents", 0.0, msg("twin.ok", count=2)),
        mutant,
    )
    report = build_report(
        "EX-11-01", "code", checks, summary=msg("summary.passed"), isolation="namespaces"
    )
    return entry_from_report(
        key(student, "EX-11-01", text),
        report,
        file_name="retry_policy_probe.py",
        content=text,
        seconds=0.25,
        worker="test:1",
    )


def prose_entry(student: str = "alice", text: str = "an answer\n") -> GradingEntry:
    checks = (
        passed_check("concept:late_ack_redelivery", 1.0, msg("concept.found")),
        failed_check("concept:bounded_task_retry", 1.0, msg("concept.missing", concept="x")),
    )
    report = build_report(
        "EX-11-02", "prose", checks, status="needs_review", summary=msg("summary.needs_review")
    )
    return entry_from_report(
        key(student, "EX-11-02", text), report, file_name="answer.md", content=text, seconds=0.01
    )


def broken_entry(student: str = "bob") -> GradingEntry:
    return error_entry(
        key(student, "EX-11-01", "zip bytes"),
        "code",
        10.0,
        "batch.archive_unsafe_path",
        {"archive": f"{student}.zip", "entry": "../evil.py"},
    )


def absent_entry(student: str = "bob", exercise: str = "EX-12-02") -> GradingEntry:
    return missing_entry(GradingKey(student, exercise, "missing", FINGERPRINT), "prose", 5.0)
