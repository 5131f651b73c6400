"""Advice read from a probe's text: it words a hint, never a verdict."""

from __future__ import annotations

from grader.judge.advice import always_true_assertion, discarded_runner, source_hint
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.results import Message
from grader.judge.verdict import Observed, judge_code
from grader.render.catalog import render_message
from tests.unit.grader.factories import POLICY_CALLS, TABLE, failed_run, observations


def _ex_11_01() -> CodeExercise:
    spec = get_exercise("EX-11-01")
    assert isinstance(spec, CodeExercise)
    return spec


EX_11_01 = _ex_11_01()

TUPLE_ASSERT = 'x = 1\nassert (x == 2, "x must be 2")\n'
PYTEST_DISCARDED = "import pytest\n\ndef test_x():\n    assert False\n\npytest.main([__file__])\n"
UNITTEST_DISCARDED = "import unittest\n\nunittest.main(exit=False)\n"


def test_pythons_always_true_warning_is_found_with_its_line() -> None:
    assert always_true_assertion(TUPLE_ASSERT) == 2
    assert always_true_assertion('assert x == 2, "x must be 2"\n') is None
    assert always_true_assertion("def broken(:\n") is None  # a syntax error yields no advice


def test_a_runner_whose_result_is_thrown_away_is_found() -> None:
    assert discarded_runner(PYTEST_DISCARDED) == ("pytest.main()", 6)
    assert discarded_runner(UNITTEST_DISCARDED) == ("unittest.main(exit=False)", 3)
    assert discarded_runner("import sys, pytest\nsys.exit(pytest.main([]))\n") is None
    assert discarded_runner("import pytest\ncode = pytest.main([])\nassert code == 0\n") is None
    assert discarded_runner("import unittest\nunittest.main()\n") is None  # it exits itself


def test_a_notebook_hint_names_the_cell_and_the_line() -> None:
    hint = source_hint(TUPLE_ASSERT, locate=lambda line: (4, line + 1))
    assert hint is not None
    assert "cell 4, line 3" in render_message(hint.id, hint.params, "en")
    assert "第 4 个单元格第 3 行" in render_message(hint.id, hint.params, "zh")


def _survived(source: str) -> Message | None:
    mutants = {name: failed_run() for name in EX_11_01.mutants}
    mutants["constant_delay"] = observations(stdout=TABLE, records=POLICY_CALLS)
    real = observations(stdout=TABLE, records=POLICY_CALLS)
    twins = {name: observations(stdout=TABLE, records=POLICY_CALLS) for name in EX_11_01.twins}
    observed = Observed(real, twins, mutants, isolation="namespaces")
    checks = judge_code(EX_11_01, observed, student_file="probe.py", source=source)
    by_name = {check.name: check for check in checks}
    others = [name for name in EX_11_01.mutants if name != "constant_delay"]
    assert all(by_name[f"mutant:{name}"].passed for name in others)
    check = by_name["mutant:constant_delay"]
    assert not check.passed and check.points == 0  # the advice changes no verdict
    return check.hint


def test_a_surviving_mutant_gets_the_hint_its_text_explains() -> None:
    hint = _survived(TUPLE_ASSERT)
    assert hint is not None and hint.id == "hint.assert_always_true"
    text = render_message(hint.id, hint.params, "en")
    assert "SyntaxWarning: assertion is always true" in text and "line 2" in text
    hint = _survived(UNITTEST_DISCARDED)
    assert hint is not None and hint.id == "hint.discarded_runner"
    assert "unittest.main(exit=False)" in render_message(hint.id, hint.params, "zh")
    hint = _survived("assert True\n")
    assert hint is not None and hint.id == "mutant.constant_delay.hint"
