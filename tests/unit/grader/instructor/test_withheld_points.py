"""In the student copy the answer key (``grader/private/``) is absent, yet ``check`` and
``list`` show what a prose answer is worth ("awaiting the instructor, 5 points"), never
"0/0": the spec module, which the copy keeps, carries the exercise's points."""

from __future__ import annotations

import importlib

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.grading import prose_report
from grader.judge.message import Message
from grader.judge.results import ListEntry
from grader.render.listing import entries_to_text
from grader.render.text import report_to_text

PROSE = ["EX-11-02", "EX-12-02", "EX-13-02"]
ANSWER = "## 1\n" + "Late ACK lets the broker redeliver the message to another worker. " * 3


def _without_key(exercise_id: str) -> ProseExercise:
    """The spec as the student copy sees it: the module's own, no answer key filled in."""
    module = importlib.import_module(
        f"grader.judge.exercises.{exercise_id.lower().replace('-', '_')}"
    )
    spec = module.EXERCISE
    assert isinstance(spec, ProseExercise) and spec.concepts == ()
    return spec


@pytest.mark.parametrize("exercise_id", PROSE)
def test_the_copy_keeps_the_real_maximum(exercise_id: str) -> None:
    real = get_exercise(exercise_id)  # with the answer key
    assert real.max_score == sum(c.points for c in real.concepts) > 0  # type: ignore[union-attr]
    stub = _without_key(exercise_id)
    assert stub.max_score == real.max_score  # the spec's points equal the key's sum
    report = prose_report(stub, ANSWER, "en")
    assert report.status == "needs_review" and report.max_score == real.max_score
    text = report_to_text(report, "en", color=False)
    assert f"awaiting the instructor, {real.max_score:g} points" in text and "0/0" not in text


def test_with_the_answer_key_the_provisional_score_is_shown() -> None:
    real = get_exercise("EX-11-02")
    assert isinstance(real, ProseExercise)
    report = prose_report(real, ANSWER, "en")
    assert f"/{real.max_score:g}" in report_to_text(report, "en", color=False)


def test_list_says_what_a_waiting_prose_answer_is_worth() -> None:
    entry = ListEntry(
        "EX-11-02", "prose", Message("exercise.EX-11-02.title"), 5.0, "needs_review", 0.0
    )
    for lang, words in (("en", "awaiting the instructor, 5 points"), ("zh", "等待教师评阅，5 分")):
        shown = entries_to_text([entry], lang)
        assert words in shown and "0/0" not in shown and "0/5" not in shown
