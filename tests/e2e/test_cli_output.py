"""What ``grader check`` prints and returns, as a shell sees it (issue 14, "A student's day")."""

from __future__ import annotations

import subprocess

import pytest

from tests.e2e.conftest import REPO, Course, grader_command

pytestmark = pytest.mark.e2e
SOLUTION = REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py"


def test_a_normalised_id_is_echoed(course: Course) -> None:
    course.answer("EX-12-01", REPO / "solutions" / "EX-12-01" / "notification_once_probe.py")
    result = course.run("check", "ex-12-1", "--lang", "en")
    assert result.code == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[0].startswith("EX-12-01 (from ex-12-1)")
    data = course.run("check", "ex-12-1", "--json").json()
    assert (data["exercise"], data["given"]) == ("EX-12-01", "ex-12-1")
    assert "given" not in course.run("check", "EX-12-01", "--json").json()


def test_a_reader_that_goes_away_keeps_the_verdicts_exit_code(course: Course) -> None:
    """``grader check ... | head -1``: a pass stays exit 0, with no traceback."""
    course.answer("EX-11-01", SOLUTION)
    proc = subprocess.Popen(
        [*grader_command(), "check", "EX-11-01", "--root", str(course.root)],
        cwd=course.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before anything is written
    with proc.stderr:
        stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, stderr
    assert "Traceback" not in stderr and "Broken pipe" not in stderr


def test_rlimits_mode_says_so_in_the_first_line(course: Course) -> None:
    course.answer("EX-11-01", SOLUTION)
    result = course.run("check", "EX-11-01", "--lang", "en", env={"GRADER_ISOLATION": "rlimits"})
    assert result.code == 0, result.stdout + result.stderr
    first = result.stdout.splitlines()[0]
    assert "rlimits" in first and "not for official grading" in first
    data = course.run("check", "EX-11-01", "--json", env={"GRADER_ISOLATION": "rlimits"}).json()
    assert (data["official"], data["isolation"]) == (False, "rlimits")
    assert "rlimits" in data["notice"]
