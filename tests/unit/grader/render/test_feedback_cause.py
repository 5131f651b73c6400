"""Feedback that points at the cause (issue 34): a probe that fails on the real code is told
so once, not once per wrong implementation; an import typo is named as a typo; a prose
quote is labelled as the student's own text."""

from __future__ import annotations

import json

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.grading import code_report
from grader.judge.results import build_report, failed_check, msg
from grader.judge.verdict import Observed
from grader.render.json_out import report_to_dict
from grader.render.text import report_to_text
from tests.unit.grader.factories import failed_run


def crashed_report(kind: str, message: str) -> tuple[CodeExercise, str, dict[str, object]]:
    exercise = get_exercise("EX-11-01")
    assert isinstance(exercise, CodeExercise)
    report = code_report(exercise, Observed(failed_run(kind, message, line=3)), "probe.py", "en")
    return exercise, report_to_text(report, "en", color=False), report_to_dict(report, "en")


def test_a_probe_that_fails_on_the_real_code_gets_one_line_for_everything_not_judged() -> None:
    exercise, text, data = crashed_report("AssertionError", "expected 10")
    not_judged = [line for line in text.splitlines() if "Not judged" in line]
    assert len(not_judged) == 1, text
    skipped = len(data["checks"]) - 1  # type: ignore[arg-type]
    assert skipped == 3 + len(exercise.mutants)  # output, calls, equivalents, each mutant
    assert f"{skipped} more checks not judged" in text
    assert "catches the wrong implementation" not in text
    # the data keeps every check: the JSON, the gradebook and the LMS see each one
    assert all(not c["passed"] for c in data["checks"])  # type: ignore[attr-defined]


def test_an_import_typo_names_the_import_not_the_sandbox() -> None:
    _, typo, _ = crashed_report("ModuleNotFoundError", "No module named 'ticketflow.workers.taskz'")
    assert "ticketflow has no module ticketflow.workers.taskz" in typo
    assert "sandbox" not in typo
    _, hidden, _ = crashed_report("ModuleNotFoundError", "No module named 'ticketflow.db'")
    assert "The grader's sandbox provides only" in hidden  # it exists; this run cannot see it


def test_a_prose_quote_is_labelled_as_the_students_text_verbatim() -> None:
    quote = "Receipt and effect should NOT share a transaction — never!"
    check = failed_check("concept:atomic", 1.0, msg("prose.too_short"), evidence=quote)
    report = build_report("EX-12-02", "prose", (check,), status="needs_review", lang="en")
    text = report_to_text(report, "en", color=False)
    assert "What you wrote (quoted as written):" in text
    assert "Output of your program" not in text
    assert quote in text
    zh = report_to_text(report, "zh", color=False)
    assert "你写的原文（原样引用）" in zh and "你的程序的输出" not in zh
    assert json.dumps(quote, ensure_ascii=False)[1:-1] in json.dumps(
        report_to_dict(report, "en"), ensure_ascii=False
    )
