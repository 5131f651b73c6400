"""Acceptance (issue 9): student B's probe, graded after student A's submission through the
same service, finds nothing of A's work in its memory or its files.

A run is a fork of its fork server, so it can read what that server held before. The service
gives every student a fresh server; the control case shows the same search DOES find A's work
when two students share one server (what the service never does), so a zero is a real zero.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.judge.exercises import get_exercise
from grader.judge.results import CheckReport
from grader.judge.submission import load_submission
from grader.runner.model import Limits
from tests.e2e.conftest import FILES, REPO

pytestmark = pytest.mark.e2e

SEARCH = FILES / "probes" / "search_other_students_work.py"
RESULT = re.compile(r"search-result memory=(\d+) files=(\d+) regions=(\d+)")
#: A search reads every page of its process and every file it can reach: on a busy machine
#: that outlasts a student's run limits (10 s, 30 s of waiting for a CPU), and the report
#: would then say "timed out", not what was found. The searches get a wall of their own.
SEARCH_LIMITS = Limits(wall_seconds=60.0, wall_ceiling_seconds=240.0, cpu_seconds=60)


@pytest.fixture(autouse=True)
def _namespaces() -> None:
    from grader.runner import sandbox

    reason = sandbox.namespaces_unavailable()
    if reason:
        pytest.skip(f"requires Linux namespaces (the isolating sandbox), not available: {reason}")


@dataclass(frozen=True)
class Students:
    a: Path  # A's submission: a correct probe carrying a unique marker, many times
    b: Path  # B's probe: searches for A's marker


@pytest.fixture
def students(tmp_path: Path) -> Iterator[Students]:
    marker = f"A-STUDENT-WORK-{secrets.token_hex(16)}"
    prefix = marker[:15]
    a = tmp_path / "a" / "retry_policy_probe.py"
    b = tmp_path / "b" / "retry_policy_probe.py"
    a.parent.mkdir()
    b.parent.mkdir()
    reference = (REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py").read_text()
    a.write_text(reference + f"\nNOTE = {marker!r}\n" + f"# {marker}\n" * 400, encoding="utf-8")
    search = SEARCH.read_text(encoding="utf-8")
    for placeholder, value in (
        ("__PREFIX__", prefix),
        ("__LENGTH__", str(len(marker))),
        ("__DIGEST__", hashlib.sha256(marker.encode()).hexdigest()),
        ("__A_FILE__", str(a)),
    ):
        search = search.replace(placeholder, value)
    assert marker not in search
    b.write_text(search, encoding="utf-8")
    yield Students(a, b)


def _found(report: CheckReport) -> tuple[int, int, int]:
    message = str(report.checks[0].message.params.get("message"))
    match = RESULT.search(message)
    assert match, report
    memory, files, regions = (int(group) for group in match.groups())
    return memory, files, regions


def test_student_b_finds_nothing_of_student_a(students: Students, tmp_path: Path) -> None:
    exercise = get_exercise("EX-11-01")
    (tmp_path / "exercises").mkdir()
    settings = GradingSettings.from_env(
        root=tmp_path, lang="en", isolation="namespaces", limits=SEARCH_LIMITS
    )
    with GradingService(settings) as service:
        with service.student() as session:
            assert session.judge(exercise, load_submission(exercise, students.a)).passed
        with service.student() as session:
            report = session.judge(exercise, load_submission(exercise, students.b))
        checked = service.check("EX-11-01", students.b).report  # the check() path too
    for graded in (report, checked):
        memory, files, regions = _found(graded)
        assert regions > 50  # it really searched its memory
        assert (memory, files) == (0, 0), graded


def test_even_one_shared_server_would_not_leak_a_to_b(students: Students, tmp_path: Path) -> None:
    """Defence in depth: each student gets a server of their own, and since H13 a run is a
    fork of the server's zygote, which never holds a run's data; so even a server shared by
    A and B would show B nothing of A (before H13's fix, B found A's work here). That the
    scan can find such a copy: tests/unit/grader/runner/test_runner_residue.py."""
    (tmp_path / "exercises").mkdir()
    exercise = get_exercise("EX-11-01")
    settings = GradingSettings.from_env(
        root=tmp_path, lang="en", isolation="namespaces", limits=SEARCH_LIMITS
    )
    with GradingService(settings) as service, service.student() as shared:
        assert shared.judge(exercise, load_submission(exercise, students.a)).passed
        report = shared.judge(exercise, load_submission(exercise, students.b))
    memory, files, regions = _found(report)
    assert regions > 50, report
    assert (memory, files) == (0, 0), report
