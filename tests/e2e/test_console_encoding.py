"""A console or pipe in a legacy code page (a Windows console may be GBK): the report is still
printed, Chinese as itself, what GBK lacks (✔, ✘, │) as escapes, never a crash."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.e2e.conftest import REPO, Course, grader_command

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("as_json", [False, True])
def test_a_gbk_stream_gets_the_report(course: Course, as_json: bool) -> None:
    solution = REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py"
    args = ["check", "EX-11-01", "--path", str(solution), *(["--json"] if as_json else [])]
    env = {**os.environ, "PYTHONIOENCODING": "gbk"}
    env.pop("GRADER_LANG", None)
    done = subprocess.run(
        [*grader_command(), *args], cwd=course.root, env=env, capture_output=True, timeout=300
    )
    out = done.stdout.decode("gbk")
    assert done.returncode == 0, (out, done.stderr.decode("gbk", "replace"))
    if as_json:
        report = json.loads(out)
        assert report["status"] == "passed" and "✔" not in out
    else:
        assert "[通过]" in out and "\\u2714" in out
