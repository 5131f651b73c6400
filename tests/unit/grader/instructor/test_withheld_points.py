"""In the student copy the prose rubric is withheld, yet ``check`` and ``list`` show what
the answer is worth ("awaiting the instructor, 2 points"), never "0/0"."""

from __future__ import annotations

import pytest

from grader.instructor.release import _withheld_rubric
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.grading import prose_report
from grader.judge.message import Message
from grader.judge.results import ListEntry
from grader.render.listing import entries_to_text
from grader.render.text import report_to_text

ANSWER = "## 1\\n" + "Late ACK lets the broker redeliver the message to another worker. " * 3


def _withheld(exercise_id: str) -> ProseExercise:
    real = get_exercise(exercise_id)
    assert isinstance(real, ProseExercise) and real.max_score > 0
    source = _withheld_rubric(exercise_id, real.student_file, real.min_chars, real.max_score)
    namespace: dict[str, object] = {}
    exec(compile(source, "stub", "exec"), namespace)  # the file the release writes
    stub = namespace["EXERCISE"]
    assert isinstance(stub, ProseExercise) and stub.concepts == ()
    return stub


@pytest.mark.parametrize("exercise_id", ["EX-11-02", "EX-12-02", "EX-13-02"])
def test_the_withheld_rubric_keeps_the_real_maximum(exercise_id: str) -> None:
    stub = _withheld(exercise_id)
    assert stub.max_score == get_exercise(exercise_id).max_score
    report = prose_report(stub, ANSWER.replace("\\n", "\n"), "en")
    assert report.status == "needs_review" and report.max_score == stub.max_score
    text = report_to_text(report, "en", color=False)
    assert f"awaiting the instructor, {stub.max_score:g} points" in text and "0/0" not in text


def test_the_full_rubric_still_shows_its_provisional_score() -> None:
    real = get_exercise("EX-11-02")
    assert isinstance(real, ProseExercise)
    report = prose_report(real, ANSWER.replace("\\n", "\n"), "en")
    assert f"/{real.max_score:g}" in report_to_text(report, "en", color=False)


def test_list_says_what_a_waiting_prose_answer_is_worth() -> None:
    entry = ListEntry(
        "EX-11-02", "prose", Message("exercise.EX-11-02.title"), 2.0, "needs_review", 0.0
    )
    for lang, words in (("en", "awaiting the instructor, 2 points"), ("zh", "等待教师评阅，2 分")):
        shown = entries_to_text([entry], lang)
        assert words in shown and "0/0" not in shown and "0/2" not in shown
