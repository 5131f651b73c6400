"""The verdict on hand-built Observations: no processes, no files."""

from __future__ import annotations

import signal
from dataclasses import replace

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.results import CheckResult, Message
from grader.judge.verdict import Observed, judge_code
from grader.render.catalog import render_message
from tests.unit.grader.factories import POLICY_CALLS, TABLE, failed_run, observations

EX_11_01 = get_exercise("EX-11-01")
assert isinstance(EX_11_01, CodeExercise)


def judge(real=None, mutants=None, twins=None) -> dict[str, CheckResult]:  # type: ignore[no-untyped-def]
    real = real or observations(stdout=TABLE, records=POLICY_CALLS)
    if mutants is None:
        mutants = {name: failed_run() for name in EX_11_01.mutants}
    if twins is None:
        twins = {name: observations(stdout=TABLE, records=POLICY_CALLS) for name in EX_11_01.twins}
    observed = Observed(real, twins, mutants, isolation="namespaces")
    checks = judge_code(EX_11_01, observed, student_file="retry_policy_probe.py")
    return {check.name: check for check in checks}


def test_a_probe_that_passes_and_kills_every_mutant_passes_every_check() -> None:
    checks = judge()
    assert all(check.passed for check in checks.values())
    assert sum(check.points for check in checks.values()) == EX_11_01.max_score


def test_a_surviving_mutant_fails_with_its_description_and_hint() -> None:
    mutants = {name: failed_run() for name in EX_11_01.mutants}
    mutants["constant_delay"] = observations(stdout=TABLE)  # exit 0: the probe did not notice
    check = judge(mutants=mutants)["mutant:constant_delay"]
    assert not check.passed and check.points == 0
    assert check.message.id == "mutant.survived"
    assert check.message.params["mutant"].id == "mutant.constant_delay"  # type: ignore[union-attr]
    assert check.hint is not None and check.hint.id == "mutant.constant_delay.hint"
    assert check.evidence and "RetryableTaskError 0 True 5 False" in check.evidence


def test_mutant_checks_cannot_pass_when_the_real_run_fails() -> None:
    checks = judge(real=failed_run("AssertionError", "wrong expectation"))
    mutant_checks = [c for name, c in checks.items() if name.startswith("mutant:")]
    assert mutant_checks and all(c.message.id == "followon.stopped_line" for c in mutant_checks)
    assert not any(c.passed for c in mutant_checks)


def test_after_a_crash_later_checks_say_where_the_probe_stopped_not_that_it_missed_things() -> None:
    """Issue 13: a probe that crashed at line 9 never got to its calls or its table; the
    follow-on checks must not call them "missing" or say the probe "bypasses" the function."""
    crashed = replace(
        failed_run("KeyError", "'x'", 9), stdout="RetryableTaskError 0 True 5 False\n"
    )
    checks = judge(real=crashed)
    for name in ("output", "calls", "equivalents", "mutant:constant_delay"):
        assert not checks[name].passed
        assert checks[name].message.id == "followon.stopped_line", name
        assert checks[name].message.params == {"type": "KeyError", "line": 9}
    assert not any(c.message.id in ("calls.policy.none", "output.missing") for c in checks.values())


def test_after_a_crash_the_lines_and_calls_already_made_still_count() -> None:
    crashed = replace(failed_run("KeyError", "'x'", 30), stdout=TABLE, records=POLICY_CALLS)
    checks = judge(real=crashed)
    assert checks["output"].passed and checks["calls"].passed
    assert not checks["runs_cleanly"].passed


def test_a_run_that_ended_without_a_line_is_described_by_how_it_ended() -> None:
    timed_out = observations(exit_code=None, timed_out=True, wall_seconds=10.2)
    check = judge(real=timed_out)["calls"]
    assert check.message.id == "followon.ended"
    outcome = check.message.params["outcome"]
    assert isinstance(outcome, Message) and outcome.id == "outcome.timeout"


def test_a_notebook_crash_names_the_cell_and_the_line_within_it() -> None:
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "probe.ipynb", line 12, in <module>\nKeyError: 1\n'
    )
    crashed = observations(
        exit_code=1,
        stderr=traceback,
        uncaught={"type": "KeyError", "message": "1", "traceback": traceback, "line": 12},
    )
    locate = {12: (4, 3)}.get
    checks = judge_code(
        EX_11_01,
        Observed(crashed, {}, {}, isolation="namespaces"),
        student_file="probe.ipynb",
        locate=locate,
    )
    by_name = {check.name: check for check in checks}
    run = by_name["runs_cleanly"]
    assert run.message.id == "run.uncaught_cell"
    assert (run.message.params["cell"], run.message.params["line"]) == (4, 3)
    assert run.evidence and 'File "probe.ipynb", cell 4, line 3' in run.evidence
    assert by_name["calls"].message.id == "followon.stopped_cell"
    # a notebook is not run with "python probe.ipynb": the hint names the cell to reach
    assert run.hint is not None and run.hint.id == "hint.crash_cell"
    assert (run.hint.params["cell"], run.hint.params["line"]) == (4, 3)
    shown = render_message(run.hint.id, run.hint.params, "en")
    assert "python" not in shown and "Restart Kernel and Run All" in shown


def test_a_crash_on_the_real_code_shows_the_students_traceback_and_a_hint() -> None:
    check = judge(real=failed_run("AssertionError", "(True, 10, False) != (True, 5, False)", 12))[
        "runs_cleanly"
    ]
    assert check.message.id == "run.uncaught"
    assert check.message.params == {
        "type": "AssertionError",
        "message": "(True, 10, False) != (True, 5, False)",
        "line": 12,
    }
    assert check.hint is not None and check.hint.id == "hint.assertion_on_real"
    assert check.evidence and "line 12" in check.evidence


def test_crash_hints_name_the_kind_of_mistake() -> None:
    hints = {
        kind: judge(real=failed_run(kind))["runs_cleanly"].hint
        for kind in ("NotImplementedError", "ModuleNotFoundError", "ZeroDivisionError")
    }
    assert {kind: hint.id for kind, hint in hints.items() if hint} == {
        "NotImplementedError": "hint.not_implemented",
        "ModuleNotFoundError": "hint.import_error",
        "ZeroDivisionError": "hint.crash",
    }


@pytest.mark.parametrize(
    ("module", "offered"),
    [
        ("ticketflow.db", "ticketflow.workers.tasks"),
        ("ticketflow_lab.worker_app", "ticketflow_lab.notebook"),
    ],
)
def test_a_ticketflow_or_lab_module_outside_the_sandbox_gets_a_sandbox_hint(
    module: str, offered: str
) -> None:
    missing = failed_run("ModuleNotFoundError", f"No module named '{module}'")
    hint = judge(real=missing)["runs_cleanly"].hint
    assert hint is not None and hint.id == "hint.sandbox_module"
    assert hint.params["module"] == module
    assert offered in str(hint.params["modules"])
    other = failed_run("ModuleNotFoundError", "No module named 'requests'")
    hint = judge(real=other)["runs_cleanly"].hint
    assert hint is not None and hint.id == "hint.import_error"


def test_timeouts_limits_signals_and_exit_codes_are_told_apart() -> None:
    cases = {
        "run.timeout": observations(exit_code=None, signal=9, timed_out=True, limit_hit="wall"),
        "run.limit": observations(exit_code=None, signal=9, limit_hit="memory"),
        "run.signal": observations(exit_code=None, signal=signal.SIGSEGV),
        "run.exit_code": observations(exit_code=3),
    }
    for expected, real in cases.items():
        assert judge(real=real)["runs_cleanly"].message.id == expected


def test_output_needs_the_required_lines_in_order_whitespace_insensitive() -> None:
    spaced = TABLE.replace(" ", "   ")
    assert judge(real=observations(stdout="debug\n" + spaced, records=POLICY_CALLS))[
        "output"
    ].passed
    swapped = "\n".join(reversed(TABLE.splitlines()))
    check = judge(real=observations(stdout=swapped, records=POLICY_CALLS))["output"]
    assert not check.passed and check.message.id == "output.missing"
    assert check.message.params["index"] == 2


def test_stdout_claiming_success_is_not_a_pass() -> None:
    real = observations(stdout="PASS\nall checks passed\n", records=POLICY_CALLS)
    assert not judge(real=real)["output"].passed


def test_forged_records_alone_do_not_make_a_pass() -> None:
    # The probe forged perfect records and printed the table, but asserts nothing:
    # every mutant run exits 0, so the mutant checks fail.
    real = observations(stdout=TABLE, records=POLICY_CALLS)
    survivors = {
        name: observations(stdout=TABLE, records=POLICY_CALLS) for name in EX_11_01.mutants
    }
    checks = judge(real=real, mutants=survivors)
    assert checks["calls"].passed
    assert not any(c.passed for name, c in checks.items() if name.startswith("mutant:"))


def test_missing_policy_cases_are_named() -> None:
    check = judge(real=observations(stdout=TABLE, records=POLICY_CALLS[:2]))["calls"]
    assert check.message.id == "calls.policy.missing"
    assert check.message.params["cases"] == "RetryableTaskError 2, ValueError 0"


def test_a_check_calls_that_raises_is_a_failed_calls_check_not_a_crash() -> None:
    def explode(records: object) -> None:
        raise TypeError("unhashable type: 'dict'")

    exercise = replace(EX_11_01, check_calls=explode)
    real = observations(stdout=TABLE, records=POLICY_CALLS)
    observed = Observed(real, {}, {name: failed_run() for name in EX_11_01.mutants})
    checks = {c.name: c for c in judge_code(exercise, observed, student_file="p.py")}
    assert not checks["calls"].passed
    assert checks["calls"].message.id == "calls.unreadable"


def test_forged_unhashable_records_fail_the_calls_check_cleanly() -> None:
    forged = [dict(call, error_type=[0], retries_so_far={"x": 1}) for call in POLICY_CALLS]
    check = judge(real=observations(stdout=TABLE, records=forged))["calls"]
    assert not check.passed and check.message.id == "calls.policy.missing"


def test_a_probe_that_fails_on_a_twin_judges_code_and_no_mutant_counts() -> None:
    twins = {name: observations(stdout=TABLE, records=POLICY_CALLS) for name in EX_11_01.twins}
    twins[EX_11_01.twins[1]] = failed_run("SystemExit", "bytecode differs", 30)
    checks = judge(twins=twins)
    equivalents = checks["equivalents"]
    assert not equivalents.passed and equivalents.message.id == "twin.failed"
    assert equivalents.message.params["twin"] == Message(f"twin.{EX_11_01.twins[1]}")
    assert equivalents.hint is not None and equivalents.hint.id == "hint.twin"
    mutant_checks = [c for name, c in checks.items() if name.startswith("mutant:")]
    assert {c.message.id for c in mutant_checks} == {"mutant.not_credible"}
    assert sum(c.points for c in checks.values()) == 4  # run, output, calls only


def test_twins_are_not_evaluated_when_the_real_run_fails() -> None:
    checks = judge(real=failed_run(), twins={})
    assert checks["equivalents"].message.id == "followon.stopped_line"


def test_a_probe_that_saw_a_different_answer_and_still_passed_is_told_so() -> None:
    lying = [dict(call) for call in POLICY_CALLS]
    lying[1]["result"] = [True, 5, False]  # constant_delay's answer at retries_so_far=1
    mutants = {name: failed_run() for name in EX_11_01.mutants}
    mutants["constant_delay"] = observations(stdout=TABLE, records=lying)
    check = judge(mutants=mutants)["mutant:constant_delay"]
    assert not check.passed and check.message.id == "mutant.survived_unnoticed"
    assert check.message.params["call"] == 2
    assert check.message.params["question"] == "error_type=RetryableTaskError, retries_so_far=1"
    assert (check.message.params["real"], check.message.params["wrong"]) == (
        Message("answer.returned", {"value": "(True, 10, False)"}),
        Message("answer.returned", {"value": "(True, 5, False)"}),
    )
    assert check.hint is not None and check.hint.id == "mutant.constant_delay.hint"


def test_records_of_a_different_question_explain_nothing() -> None:
    other = [dict(call, retries_so_far=call["retries_so_far"] + 1) for call in POLICY_CALLS]
    mutants = {name: failed_run() for name in EX_11_01.mutants}
    mutants["constant_delay"] = observations(stdout=TABLE, records=other)
    check = judge(mutants=mutants)["mutant:constant_delay"]
    assert check.message.id == "mutant.survived"


def test_what_a_mutant_run_claims_never_turns_into_a_kill() -> None:
    # exit 0 on every mutant, whatever its records say: every mutant check fails
    survivors = {
        name: observations(stdout=TABLE, records=[{"kind": "call", "killed": True}] * 3)
        for name in EX_11_01.mutants
    }
    checks = judge(mutants=survivors)
    assert not any(c.passed for name, c in checks.items() if name.startswith("mutant:"))


def test_a_raised_answer_is_told_in_the_reports_language_not_mixed_in() -> None:
    raising = [dict(call) for call in POLICY_CALLS]
    del raising[1]["result"]
    raising[1]["raised"] = "ValueError"
    mutants = {name: failed_run() for name in EX_11_01.mutants}
    mutants["constant_delay"] = observations(stdout=TABLE, records=raising)
    message = judge(mutants=mutants)["mutant:constant_delay"].message
    assert message.params["wrong"] == Message("answer.raised", {"error": "ValueError"})
    zh = render_message(message.id, message.params, "zh")
    en = render_message(message.id, message.params, "en")
    assert "这个错误实现抛出 ValueError" in zh and "raised" not in zh and "returned" not in zh
    assert "the real implementation returned (True, 10, False), this one raised ValueError" in en
