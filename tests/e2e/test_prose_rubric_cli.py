"""Prose answers through the real ``grader check``: honest answers score well, wrong and
keyword-stuffed ones do not, and the missing points read as advice, in zh and en.

The answers are the rubric's acceptance files (tests/unit/grader/judge/rubric/files/).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import REPO, Course

pytestmark = pytest.mark.e2e

ANSWERS = REPO / "tests" / "unit" / "grader" / "judge" / "rubric" / "files"
CASES = [
    "EX-11-02/honest-zh-bullets.md",
    "EX-11-02/wrong-misconceptions-zh.md",
    "EX-12-02/honest-en.md",
    "EX-12-02/stuffed-keywords.md",
    "EX-13-02/honest-mixed.md",
    "EX-13-02/wrong-on-topic-en.md",
]
#: What a concept the rubric did not find says, per language: advice, not a verdict.
ADVICE = {"zh": "评分规则没有找到", "en": "The rubric did not find"}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("case", CASES)
def test_provisional_score_through_the_cli(course: Course, case: str, lang: str) -> None:
    exercise_id, name = case.split("/")
    path = course.answer(exercise_id, ANSWERS / exercise_id / name)
    result = course.run("check", exercise_id, "--path", str(path), "--json", "--lang", lang)
    report = result.json()
    assert (result.code, report["status"]) == (0, "needs_review"), result.stdout
    share = report["score"] / report["max_score"]
    if name.startswith("honest"):
        assert share >= 0.6, result.stdout
    else:
        assert share <= 0.4, result.stdout
    unfound = [c for c in report["checks"] if not c["passed"]]
    assert all(c["message_id"].startswith("concept.") for c in unfound)
    if any(c["message_id"] == "concept.missing" for c in unfound):
        assert any(ADVICE[lang] in c["message"] for c in unfound), result.stdout


def test_stuffing_is_named_as_such_in_the_text_report(course: Course) -> None:
    path = course.answer("EX-11-02", ANSWERS / "EX-11-02" / "stuffed-keywords.md")
    zh = course.run("check", "EX-11-02", "--path", str(path))
    en = course.run("check", "EX-11-02", "--path", str(path), "--lang", "en")
    assert (zh.code, en.code) == (0, 0)
    assert "关键词罗列" in zh.stdout and "keyword list" in en.stdout
    assert "0/5" in zh.stdout and "0/5" in en.stdout


def test_list_without_running_scores_prose_the_same_way(course: Course) -> None:
    course.answer("EX-12-02", ANSWERS / "EX-12-02" / "honest-zh-bullets.md")
    course.answer("EX-13-02", ANSWERS / "EX-13-02" / "stuffed-keywords.md")
    entries = {e["exercise"]: e for e in course.run("list", "--no-run", "--json").json()}
    assert entries["EX-12-02"]["status"] == "needs_review"
    assert entries["EX-12-02"]["score"] >= 3
    assert entries["EX-13-02"]["score"] <= 2.4
