"""What a run can see: nothing secret of the installed course tree, whatever --root says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import FILES, REPO, Course

pytestmark = pytest.mark.e2e


def _namespaces_or_skip() -> None:
    from grader.runner import sandbox

    reason = sandbox.namespaces_unavailable()
    if reason:
        pytest.skip(f"requires Linux namespaces, not available here (rlimits hides all): {reason}")


def test_a_run_reads_no_solution_test_grader_git_or_ticketflow_source(
    course: Course, tmp_path: Path
) -> None:
    _namespaces_or_skip()
    assert (REPO / "solutions").is_dir()  # the installed tree does hold them
    shutil.copytree(REPO / "solutions", course.root / "solutions")
    probe = tmp_path / "retry_policy_probe.py"
    shutil.copyfile(FILES / "probes" / "sees_no_secrets.py", probe)
    result = course.run(
        "check", "EX-11-01", "--path", str(probe), "--root", str(course.root), "--json"
    )
    report = result.json()
    failed = [c for c in report["checks"] if not c["passed"]]
    assert result.code == 0 and report["status"] == "passed", failed
