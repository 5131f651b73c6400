from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError, RetryDecision

bounds = st.integers(min_value=0, max_value=12)
delays = st.integers(min_value=1, max_value=3600)


@given(max_retries=bounds, base=delays, retries=st.integers(min_value=0, max_value=20))
def test_retryable_errors_back_off_exponentially_until_the_bound(
    max_retries: int, base: int, retries: int
) -> None:
    policy = BoundedRetryPolicy(max_retries=max_retries, base_delay_seconds=base)
    decision = policy.decision(RetryableTaskError("x"), retries_so_far=retries)
    if retries < max_retries:
        assert decision == RetryDecision(
            retry=True, countdown_seconds=base * 2**retries, dead_letter=False
        )
    else:
        assert decision == RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)


@given(max_retries=bounds, base=delays, retries=st.integers(min_value=0, max_value=20))
def test_other_errors_are_dead_lettered_at_once(max_retries: int, base: int, retries: int) -> None:
    policy = BoundedRetryPolicy(max_retries=max_retries, base_delay_seconds=base)
    for error in (ValueError("bad"), KeyError("k"), RuntimeError("not retryable")):
        assert policy.decision(error, retries_so_far=retries) == RetryDecision(False, None, True)


@given(max_retries=bounds, base=delays)
def test_exactly_max_retries_retries_are_granted(max_retries: int, base: int) -> None:
    policy = BoundedRetryPolicy(max_retries=max_retries, base_delay_seconds=base)
    granted = [
        policy.decision(RetryableTaskError("x"), retries_so_far=n).countdown_seconds
        for n in range(max_retries + 5)
    ]
    assert [c for c in granted if c is not None] == list(policy.countdowns())
    assert len(policy.countdowns()) == max_retries


def test_default_countdowns_are_the_course_table() -> None:
    assert BoundedRetryPolicy().countdowns() == (5, 10, 20)


def test_negative_retry_count_is_a_caller_bug() -> None:
    with pytest.raises(ValueError, match="retries_so_far"):
        BoundedRetryPolicy().decision(RetryableTaskError("x"), retries_so_far=-1)


def test_decision_is_frozen() -> None:
    decision = BoundedRetryPolicy().decision(RetryableTaskError("x"), retries_so_far=0)
    with pytest.raises(AttributeError):
        decision.retry = False  # type: ignore[misc]


def test_the_light_modules_do_not_pull_celery_or_sqlalchemy() -> None:
    code = (
        "import sys\n"
        "import ticketflow.workers.policy, ticketflow.workers.tasks\n"
        "import ticketflow.messaging.envelope\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('celery', 'sqlalchemy', 'kombu')]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "fields", [(False, None, False), (True, 5, True), (True, None, False), (False, 0, True)]
)
def test_a_contradictory_decision_cannot_be_built(fields: tuple[bool, int | None, bool]) -> None:
    with pytest.raises(ValueError, match="retries after a countdown or dead-letters without one"):
        RetryDecision(*fields)


def test_the_named_constructors_build_the_two_decisions() -> None:
    assert RetryDecision.retry_in(5) == RetryDecision(True, 5, False)
    assert RetryDecision.give_up() == RetryDecision(False, None, True)
    assert RetryDecision.retry_in(0).countdown_seconds == 0  # "retry now" is a decision


def test_a_decision_holds_bools_not_truthy_values() -> None:
    with pytest.raises(ValueError, match="retry_in"):
        RetryDecision(1, 5, 0)  # type: ignore[arg-type]
