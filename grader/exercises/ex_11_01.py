"""EX-11-01 [code]: probe ``BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision``."""

from __future__ import annotations

from grader.exercises.spec import CodeExercise, Records, calls_of, is_int
from grader.results import Message, msg

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
    ),
    check_calls=check_calls,
    expected_lines=(
        "RetryableTaskError 0 True 5 False",
        "RetryableTaskError 1 True 10 False",
        "RetryableTaskError 2 False None True",
        "ValueError 0 False None True",
    ),
)
