"""Prose answers: reference answers covered, template ignored, gaps named as advice."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import answer_text, judge_prose, score_answer
from grader.judge.starters import starter_template

ROOT = Path(__file__).resolve().parents[4]
FILES = Path(__file__).parent / "files"
PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")


def _spec(exercise_id: str) -> ProseExercise:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, ProseExercise)
    return spec


@pytest.mark.parametrize("exercise_id", PROSE)
@pytest.mark.parametrize("source", ["solution_zh", "answer_en"])
def test_reference_answers_cover_every_concept(exercise_id: str, source: str) -> None:
    if source == "solution_zh":
        text = (ROOT / "solutions" / exercise_id / "answer.md").read_text(encoding="utf-8")
    else:
        text = (FILES / f"{exercise_id}-answer-en.md").read_text(encoding="utf-8")
    own = answer_text(text, starter_template(exercise_id))
    checks = judge_prose(_spec(exercise_id), own)
    assert [c.name for c in checks if not c.passed] == []


@pytest.mark.parametrize("exercise_id", PROSE)
def test_the_template_alone_covers_nothing(exercise_id: str) -> None:
    template = starter_template(exercise_id)
    assert template
    result = score_answer(_spec(exercise_id), template, template)
    assert result.chars == 0 and result.score == 0
    assert {c.status for c in result.concepts} == {"missing"}


def test_a_partial_answer_names_the_missing_concept_as_advice() -> None:
    text = (
        "Worker 在 handler 开始前被 kill 时 late ACK 还没有发生，broker 会重投这条消息，"
        "这不消耗 retry 计数。handler 抛出可重试错误时，"
        "task 调用 retry(countdown=…)，受 max_retries 约束。"
    )
    checks = {c.name: c for c in judge_prose(_spec("EX-11-02"), text)}
    assert checks["concept:late_ack_redelivery"].passed
    assert checks["concept:redelivery_is_not_retry"].passed
    assert checks["concept:bounded_task_retry"].passed
    missing = checks["concept:receipt_makes_duplicate_a_no_op"]
    assert not missing.passed and missing.message.id == "concept.missing"
    assert missing.message.params["concept"].id == (  # type: ignore[union-attr]
        "concept.EX-11-02.receipt_makes_duplicate_a_no_op"
    )


def test_a_too_short_answer_gets_a_length_check() -> None:
    checks = judge_prose(_spec("EX-12-02"), "会丢。会重复。")
    assert checks[0].name == "length" and checks[0].message.id == "prose.too_short"
