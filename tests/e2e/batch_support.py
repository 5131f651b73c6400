"""Running the real ``grader`` batch commands, and reading the gradebook back as plain data."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.commands import grader_command

EXPECTED = Path(__file__).parent / "files" / "class" / "expected.json"
GRADE_TIMEOUT = 900


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "GRADER_DB_URL")}
    env.update(extra or {})
    return env


def grader(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = GRADE_TIMEOUT
) -> Ran:
    done = subprocess.run(
        [*grader_command(), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(env),
    )
    assert "Traceback" not in done.stderr, done.stderr
    return Ran(done.returncode, done.stdout, done.stderr)


def expected_profiles() -> dict[str, dict[str, dict[str, Any]]]:
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(EXPECTED.read_text())["profiles"]
    return data


def canonical(url: str) -> list[tuple[Any, ...]]:
    """Every current result with its checks, as comparable tuples (no times, no ids)."""
    from grader.instructor.gradebook import Gradebook

    with Gradebook(url) as book:
        return [
            (
                r.student,
                r.exercise,
                r.status,
                r.score,
                r.max_score,
                r.content_sha256,
                r.verdict_fingerprint,
                None if r.reason is None else r.reason.id,
                tuple((c.name, c.passed, c.points, c.message.id) for c in r.checks),
            )
            for r in book.results()
        ]


def grading_keys(url: str) -> list[tuple[str, str, str, str]]:
    from sqlalchemy import select

    from grader.instructor.gradebook import Gradebook
    from grader.instructor.gradebook.models import Grading

    with Gradebook(url) as book, book.engine.connect() as connection:
        rows = connection.execute(
            select(
                Grading.student,
                Grading.exercise,
                Grading.content_sha256,
                Grading.verdict_fingerprint,
            )
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def row_problems(
    members: Any, results: dict[tuple[str, str], Any], expected: dict[str, dict[str, Any]]
) -> list[str]:
    """Every (member, exercise) row against its profile's expected outcome: status, reason,
    full score, the check that must fail and its message."""
    from tests.support.classroom import EXERCISES

    problems = []
    for member in members:
        for exercise in EXERCISES:
            want = expected[member.profile][exercise]
            got = results.get((member.student, exercise))
            if got is None:
                problems.append(f"{member.student} {exercise}: no row")
                continue
            failed = [c for c in got.checks if not c.passed]
            found = {
                "status": got.status,
                "reason": got.reason.id if got.reason else None,
                "full_score": got.score == got.max_score > 0,
            }
            if got.status != want["status"]:
                problems.append(f"{member.student} {exercise}: {found} {[c.name for c in failed]}")
            if "reason" in want and found["reason"] != want["reason"]:
                problems.append(f"{member.student} {exercise}: reason {found['reason']}")
            if want.get("full_score") and not found["full_score"]:
                problems.append(f"{member.student} {exercise}: score {got.score}/{got.max_score}")
            if "check" in want:
                matching = [c for c in failed if c.name == want["check"]]
                if not matching:
                    problems.append(f"{member.student} {exercise}: {want['check']} did not fail")
                elif "message" in want and matching[0].message.id != want["message"]:
                    problems.append(f"{member.student} {exercise}: {matching[0].message.id}")
    return problems
