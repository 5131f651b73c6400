"""EX-11-01 [code]: probe ``BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision``."""

from __future__ import annotations

from grader.judge.exercises.spec import CodeExercise, Records, Requirement, calls_of, is_int
from grader.judge.results import Message, msg

REQUIRED_CASES = (
    ("RetryableTaskError", 0),
    ("RetryableTaskError", 1),
    ("RetryableTaskError", 2),
    ("ValueError", 0),
)


def check_calls(records: Records) -> Message | None:
    """The probe must ask a (2, 5) policy about each of the four required cases.

    Records are cleaned claims (``calls_of``); only exact ints count as the retry count.
    """
    calls = calls_of(records, "BoundedRetryPolicy.decision")
    if not calls:
        return msg("calls.policy.none")
    configured = [
        c
        for c in calls
        if is_int(c.get("max_retries"), 2) and is_int(c.get("base_delay_seconds"), 5)
    ]
    if not configured:
        first = calls[0]
        return msg(
            "calls.policy.config",
            max_retries=str(first.get("max_retries")),
            base_delay_seconds=str(first.get("base_delay_seconds")),
        )
    seen = {
        (c.get("error_type"), c.get("retries_so_far"))
        for c in configured
        if is_int(c.get("retries_so_far"))
    }
    missing = [
        f"{error} {retries}" for error, retries in REQUIRED_CASES if (error, retries) not in seen
    ]
    if missing:
        return msg("calls.policy.missing", cases=", ".join(missing))
    return None


def _facts(*names: str) -> frozenset[str]:
    return frozenset(names)


#: The statement's table, line by line. Facts are ``<case>.<field>``: cases R0, R1, R2
#: (RetryableTaskError with retries_so_far 0, 1, 2) and V0 (ValueError, 0); fields retry,
#: countdown, dead_letter. Every one of the 12 is required ("用 assert 检查每一个结果").
REQUIREMENTS = (
    Requirement(
        "RetryableTaskError, 0 -> (True, 5, False): the first retry waits base_delay_seconds",
        _facts("R0.retry", "R0.countdown", "R0.dead_letter"),
        "first_retry_immediate",
    ),
    Requirement(
        "RetryableTaskError, 1 -> countdown exactly 10: the backoff doubles",
        _facts("R1.countdown"),
        "constant_delay",
    ),
    Requirement(
        "RetryableTaskError, 1 -> (True, 10, False): one retry done, still below the bound",
        _facts("R1.retry", "R1.countdown", "R1.dead_letter"),
        "gives_up_early",
    ),
    Requirement(
        "RetryableTaskError, 2 -> (False, None, True): the bound is reached, no third retry",
        _facts("R2.retry", "R2.countdown", "R2.dead_letter"),
        "off_by_one_bound",
    ),
    Requirement(
        "RetryableTaskError, 2 -> dead_letter is True: exhausted retries are dead-lettered",
        _facts("R2.dead_letter"),
        "exhausted_not_dead_lettered",
    ),
    Requirement(
        "giving up (RetryableTaskError 2, ValueError 0) -> countdown_seconds is None, not 0",
        _facts("R2.countdown", "V0.countdown"),
        "zero_countdown_on_give_up",
    ),
    Requirement(
        "ValueError, 0 -> (False, None, True): a permanent error is not retried",
        _facts("V0.retry", "V0.countdown", "V0.dead_letter"),
        "retries_any_error",
    ),
    Requirement(
        "ValueError, 0 -> dead_letter is True, checked apart from exhaustion",
        _facts("V0.dead_letter"),
        "drops_permanent_errors",
    ),
)

EXERCISE = CodeExercise(
    id="EX-11-01",
    student_file="retry_policy_probe.py",
    target="policy",
    twins=("loop_backoff", "shift_backoff"),
    mutants=(
        "constant_delay",
        "exponent_off_by_one",
        "off_by_one_bound",
        "gives_up_early",
        "retries_any_error",
        "never_dead_letters",
        "first_retry_immediate",
        "zero_countdown_on_give_up",
        "exhausted_not_dead_lettered",
        "drops_permanent_errors",
    ),
    check_calls=check_calls,
    requirements=REQUIREMENTS,
    expected_lines=(
        "RetryableTaskError 0 True 5 False",
        "RetryableTaskError 1 True 10 False",
        "RetryableTaskError 2 False None True",
        "ValueError 0 False None True",
    ),
)
