"""GRADER_ISOLATION forces the sandbox mode; the report always says which mode ran."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import REPO, Course

pytestmark = pytest.mark.e2e


def _solution(course: Course) -> None:
    course.answer("EX-11-01", REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py")


def test_the_default_is_the_strongest_sandbox_and_the_report_says_so(course: Course) -> None:
    from grader.runner import sandbox

    _solution(course)
    expected = "rlimits" if sandbox.namespaces_unavailable() else "namespaces"
    result = course.run("check", "EX-11-01", "--json")
    assert result.code == 0 and result.json()["isolation"] == expected


def test_rlimits_can_be_forced_and_the_text_report_warns(course: Course) -> None:
    _solution(course)
    forced = {"GRADER_ISOLATION": "rlimits"}
    result = course.run("check", "EX-11-01", "--json", env=forced)
    assert result.code == 0 and result.json()["isolation"] == "rlimits"
    text = course.run("check", "EX-11-01", "--lang", "en", env=forced)
    assert "rlimits mode" in text.stdout and "not for official grading" in text.stdout
    zh = course.run("check", "EX-11-01", env=forced)
    assert "不能作为正式评分" in zh.stdout


def test_an_unknown_mode_is_a_usage_error(course: Course) -> None:
    _solution(course)
    result = course.run("check", "EX-11-01", "--json", env={"GRADER_ISOLATION": "docker"})
    assert result.code == 2
    assert result.json()["error"]["id"] == "error.isolation_unknown"
