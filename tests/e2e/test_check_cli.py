"""``grader check`` end to end: solutions pass, starters and wrong probes fail, in zh and en."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import FILES, REPO, Course

pytestmark = pytest.mark.e2e

CODE = ("EX-11-01", "EX-12-01", "EX-13-01")
PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")

# wrong probe -> failed checks it must show (check name, message id)
WRONG = {
    "EX-11-01/prints_only.py": [("mutant:retries_any_error", "mutant.survived")],
    "EX-11-01/no_countdown_check.py": [("mutant:constant_delay", "mutant.survived")],
    "EX-11-01/wrong_expectation.py": [("runs_cleanly", "run.uncaught")],
    "EX-11-01/skips_exhaustion.py": [
        ("calls", "calls.policy.missing"),
        ("mutant:off_by_one_bound", "mutant.survived"),
    ],
    "EX-11-01/wrong_policy.py": [("calls", "calls.policy.config"), ("output", "output.missing")],
    "EX-12-01/at_least_one_task.py": [("mutant:task_twice", "mutant.survived")],
    "EX-12-01/counts_receipts_only.py": [("mutant:receipt_without_task", "mutant.survived")],
    "EX-12-01/ignores_second_result.py": [("mutant:always_true", "mutant.survived")],
    "EX-12-01/no_assertions.py": [("mutant:no_dedupe", "mutant.survived")],
    "EX-12-01/two_events.py": [("calls", "calls.apply.distinct_events")],
    "EX-13-01/fails_forever.py": [("runs_cleanly", "run.uncaught")],
    "EX-13-01/no_duplicate_delivery.py": [
        ("calls", "calls.atomic.no_duplicate"),
        ("mutant:effect_committed_first", "mutant.survived"),
    ],
    "EX-13-01/no_injection.py": [
        ("calls", "calls.atomic.no_failure"),
        ("mutant:receipt_committed_first", "mutant.survived"),
    ],
    "EX-13-01/orm_event_injection.py": [("runs_cleanly", "run.uncaught")],
    "EX-13-01/swallows_everything.py": [("mutant:effect_committed_first", "mutant.survived")],
}
# words the rendered message must contain, per language, for the first expected failure
NAMED = {
    "zh": {"mutant.survived": "错误实现", "run.uncaught": "失败"},
    "en": {"mutant.survived": "still passes", "run.uncaught": "fails"},
}
#: A surviving mutant is reported either way; "unnoticed" when the probe's own calls got a
#: different answer from it than from the real code (it then names that call).
SURVIVED = ("mutant.survived", "mutant.survived_unnoticed")


def _solution(exercise_id: str) -> Path:
    folder = REPO / "solutions" / exercise_id
    return next(folder.iterdir())


#: A verdict never depends on the language, so each solution and each wrong probe is graded
#: once, in zh or en by turns; ``test_both_languages_are_checked_on_every_kind_of_case``
#: holds the turns to covering each language for each kind.
SOLUTIONS_IN = [(e, ("zh", "en")[index % 2]) for index, e in enumerate(CODE + PROSE)]
WRONG_IN = [(wrong, ("zh", "en")[index % 2]) for index, wrong in enumerate(sorted(WRONG))]


def test_both_languages_are_checked_on_every_kind_of_case() -> None:
    for kind in (CODE, PROSE):
        assert {lang for e, lang in SOLUTIONS_IN if e in kind} == {"zh", "en"}, kind
    for message_id in NAMED["en"]:
        langs = {lang for wrong, lang in WRONG_IN if WRONG[wrong][0][1] == message_id}
        assert langs == {"zh", "en"}, message_id
    for exercise_id in CODE:
        langs = {lang for wrong, lang in WRONG_IN if wrong.startswith(exercise_id)}
        assert langs == {"zh", "en"}, exercise_id


@pytest.mark.parametrize(("exercise_id", "lang"), SOLUTIONS_IN)
def test_reference_solutions_pass(course: Course, exercise_id: str, lang: str) -> None:
    course.answer(exercise_id, _solution(exercise_id))
    result = course.run("check", exercise_id, "--json", "--lang", lang)
    report = result.json()
    assert result.code == 0, result.stdout
    assert report["status"] == ("passed" if exercise_id in CODE else "needs_review")
    assert report["score"] == report["max_score"] > 0
    assert all(check["passed"] for check in report["checks"])


@pytest.mark.parametrize("exercise_id", CODE + PROSE)
def test_untouched_starters_fail_as_not_started(course: Course, exercise_id: str) -> None:
    result = course.run("check", exercise_id, "--json")
    report = result.json()
    assert result.code == 1
    assert (report["status"], report["score"]) == ("failed", 0.0)
    [check] = report["checks"]
    assert check["message_id"] in ("code.not_started", "prose.not_started")
    assert "尚未开始" in check["message"]


@pytest.mark.parametrize(("wrong", "lang"), WRONG_IN)
def test_wrong_probes_fail_naming_the_mistake(course: Course, wrong: str, lang: str) -> None:
    exercise_id = wrong.split("/")[0]
    result = course.run(
        "check", exercise_id, "--path", str(FILES / "wrong" / wrong), "--json", "--lang", lang
    )
    report = result.json()
    assert result.code == 1 and report["status"] == "failed"
    failed = {check["name"]: check for check in report["checks"] if not check["passed"]}
    for name, message_id in WRONG[wrong]:
        assert name in failed, sorted(failed)
        allowed = SURVIVED if message_id == "mutant.survived" else (message_id,)
        assert failed[name]["message_id"] in allowed
    twin = failed.get("equivalents")
    not_run = ("twin.skipped", "followon.stopped_line", "followon.stopped_cell", "followon.ended")
    assert twin is None or twin["message_id"] in not_run, "a correct twin failed it"
    first_name, first_id = WRONG[wrong][0]
    first = failed[first_name]
    if first_id in NAMED[lang]:
        assert NAMED[lang][first_id] in first["message"]
    if first_id == "mutant.survived":
        assert first["hint"], "a surviving mutant must come with the assertion to add"
    assert report["score"] < report["max_score"]


def test_a_starter_run_anyway_shows_the_students_own_traceback(
    course: Course, tmp_path: Path
) -> None:
    starter = course.root / "exercises" / "EX-11-01" / "retry_policy_probe.py"
    started = tmp_path / "retry_policy_probe.py"
    started.write_text(starter.read_text(encoding="utf-8") + "\n# started\n", encoding="utf-8")
    result = course.run("check", "EX-11-01", "--path", str(started), "--lang", "en")
    assert result.code == 1
    assert "NotImplementedError" in result.stdout
    assert "│" in result.stdout  # the student's traceback is fenced off
    assert "Replace the TODO part" in result.stdout


def test_text_output_for_prose_says_awaiting_review(course: Course) -> None:
    course.answer("EX-13-02", _solution("EX-13-02"))
    zh = course.run("check", "EX-13-02")
    en = course.run("check", "EX-13-02", env={"GRADER_LANG": "en"})
    assert (zh.code, en.code) == (0, 0)
    assert "等待助教评阅" in zh.stdout
    assert "awaiting instructor review" in en.stdout


def test_a_notebook_answer_is_checked_from_its_tagged_cells(course: Course, tmp_path: Path) -> None:
    solution = _solution("EX-11-01").read_text(encoding="utf-8")
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# EX-11-01"},
            {
                "cell_type": "code",
                "metadata": {},
                "source": "raise RuntimeError('scratch')",
                "outputs": [],
            },
            {
                "cell_type": "code",
                "metadata": {"tags": ["answer"]},
                "source": solution,
                "outputs": [],
            },
        ],
    }
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    result = course.run("check", "EX-11-01", "--path", str(path), "--json")
    assert result.code == 0 and result.json()["status"] == "passed"


def test_the_course_root_is_found_from_a_subfolder(course: Course) -> None:
    course.answer("EX-11-01", _solution("EX-11-01"))
    result = course.run("check", "ex-11-01", "--json", cwd=course.root / "exercises" / "EX-11-01")
    assert result.code == 0 and result.json()["exercise"] == "EX-11-01"
