"""``grader list``: every exercise with the student's status; results cached by content."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import FILES, REPO, Course

pytestmark = pytest.mark.e2e


def test_list_shows_each_status_and_caches_code_results(course: Course) -> None:
    course.answer("EX-11-01", REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py")
    course.answer("EX-12-01", FILES / "wrong" / "EX-12-01" / "no_assertions.py")
    course.answer("EX-12-02", REPO / "solutions" / "EX-12-02" / "answer.md")
    result = course.run("list", "--json", "--lang", "en")
    assert result.code == 0
    statuses = {row["exercise"]: row["status"] for row in result.json()}
    assert statuses == {
        "EX-11-01": "passed",
        "EX-11-02": "not_started",
        "EX-12-01": "failed",
        "EX-12-02": "needs_review",
        "EX-13-01": "not_started",
        "EX-13-02": "not_started",
    }
    assert (course.root / ".grader" / "results.json").exists()
    cached = course.run("list", "--json", "--no-run")
    assert {row["exercise"]: row["status"] for row in cached.json()} == statuses


def test_list_text_is_a_table_in_the_chosen_language(course: Course) -> None:
    result = course.run("list", "--no-run")
    assert result.code == 0
    assert "EX-13-02" in result.stdout and "未开始" in result.stdout
