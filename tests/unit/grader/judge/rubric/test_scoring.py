"""Scoring concept by concept: sections, negation, budget of work, report data per section."""

from __future__ import annotations

import time

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import judge_prose, score_answer, scoring
from grader.judge.starters import starter_template

SPEC = get_exercise("EX-13-02")
assert isinstance(SPEC, ProseExercise)
TEMPLATE = starter_template("EX-13-02")


def _status(text: str, concept: str) -> str:
    result = score_answer(SPEC, text, TEMPLATE)
    return next(c.status for c in result.concepts if c.name == concept)


def test_a_denied_concept_is_not_counted() -> None:
    assert _status("PostgreSQL 上后来的 INSERT 会阻塞等待对方提交。", "postgresql_loser") == "found"
    assert _status("先 SELECT 再 INSERT 不会有竞态。", "select_then_insert_races") == "negated"
    # "does not wait" is the wrong claim about PostgreSQL (issue 31): a contradiction.
    assert (
        _status("PostgreSQL 上后来的 INSERT 不会等待，直接成功。", "postgresql_loser")
        == "contradicted"
    )


def test_a_concept_counts_only_in_its_own_section() -> None:
    text = TEMPLATE.replace(
        "（在这里写你的回答）", "PostgreSQL 上后来的 INSERT 会阻塞等待对方提交。", 1
    )  # written under "who wins", not under the databases heading
    result = score_answer(SPEC, text, TEMPLATE)
    concept = next(c for c in result.concepts if c.name == "postgresql_loser")
    assert concept.status == "missing" and concept.section == "databases"
    assert "postgresql_loser" in result.by_section()["databases"]["missing"]


def test_the_budget_of_work_stops_scoring_and_says_so() -> None:
    text = "两个事务同时 SELECT，都查不到 receipt，这是竞态。" * 3
    result = score_answer(SPEC, text, "", budget=0)
    assert result.timed_out
    assert {c.status for c in result.concepts} == {"not_judged"}
    checks = judge_prose(SPEC, text)
    assert not any(c.name == "scope" for c in checks)


def test_the_budget_counts_windows_so_a_slow_machine_scores_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attack: a CPU-time budget gave a good answer 40 % in a busy CI run (a garbage
    collector's pass is CPU time too). Here every window costs 25 ms more CPU, as on that
    machine: the score must not move. Only an answer too long to read is cut."""
    text = "\n".join(
        f"第 {n} 句：两个事务同时 SELECT，都查不到 receipt，这是竞态。" for n in range(15)
    )
    assert score_answer(SPEC, "两个事务同时 SELECT，这是竞态。" * 250, "").timed_out
    expected = score_answer(SPEC, text, "")
    real = scoring.copied

    def on_a_loaded_machine(sentence: str, given: object) -> bool:
        spent = time.thread_time() + 0.025
        while time.thread_time() < spent:
            pass
        return real(sentence, given)  # type: ignore[arg-type]

    monkeypatch.setattr(scoring, "copied", on_a_loaded_machine)
    assert score_answer(SPEC, text, "") == expected and not expected.timed_out


def test_missing_points_are_advice_naming_the_section() -> None:
    checks = {
        c.name: c
        for c in judge_prose(SPEC, "SQLite 上同一时刻只允许一个写者，后来者要等待锁。" * 2)
    }
    missing = checks["concept:unique_constraint_decides"]
    assert missing.message.id == "concept.missing" and missing.points == 0
    found = checks["concept:sqlite_loser"]
    assert found.passed and found.message.params["section"].id == "rubric.section.whole"  # type: ignore[union-attr]


def test_a_students_own_heading_is_never_scored() -> None:
    text = "## 唯一约束决定谁赢：先提交的事务获胜\n\n（这一节我还没想好怎么写，先留着占位。）\n"
    result = score_answer(SPEC, text, TEMPLATE)
    assert result.score == 0


def test_a_timed_out_scoring_is_reported_as_a_scope_note() -> None:
    from grader.judge.rubric.checks import checks_of

    text = "两个事务同时 SELECT，都查不到 receipt，这是竞态。" * 30
    result = score_answer(SPEC, text, "", budget=0)
    checks = checks_of(SPEC, result)
    scope = next(c for c in checks if c.name == "scope")
    assert scope.message.id == "prose.timed_out" and scope.max_points == 0
    assert {c.message.id for c in checks if c.name.startswith("concept:")} == {"concept.not_judged"}


def test_a_claim_spans_two_adjacent_sentences_of_one_paragraph_only() -> None:
    spec = get_exercise("EX-11-02")
    assert isinstance(spec, ProseExercise)

    def status(text: str) -> str:
        result = score_answer(spec, text)
        return next(c.status for c in result.concepts if c.name == "late_ack_redelivery")

    first, second = "The worker dies before the ack is sent.", "The broker redelivers the message."
    assert status(f"{first} {second}") == "found"
    assert status(f"{first}\n{second}") == "found"  # one paragraph, hard-wrapped
    assert status(f"- {first}\n- {second}") == "found"  # one list
    assert status(f"{first}\n\n{second}") == "missing"  # two paragraphs
    assert status(f"{first} It was a Monday. {second}") == "missing"  # not adjacent


def test_the_evidence_of_a_two_sentence_claim_is_both_sentences() -> None:
    spec = get_exercise("EX-11-02")
    assert isinstance(spec, ProseExercise)
    text = "The worker dies before the ack is sent. The broker redelivers the message."
    result = score_answer(spec, text)
    concept = next(c for c in result.concepts if c.name == "late_ack_redelivery")
    assert concept.sentence == text
