"""Through the proxy and the oracle, every policy implementation answers exactly as it does
in-process: the same decision (values and types) or the same exception (type and text)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from grader.variants.policy import MUTANTS, TWINS
from tests.support.oracle import proxied
from tests.unit.grader.variants.builds import built
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

ERRORS = (RetryableTaskError("t"), ValueError("v"), KeyError("k"), SystemExit(0))
COUNTS = (*range(-2, 6), True, False, 70, 200, 2.0, 10**30, float("inf"))


def _outcome(decide: Any, policy: Any, error: BaseException, n: Any) -> Any:
    try:
        d = decide(policy, error, retries_so_far=n)
    except Exception as exc:
        return ("raised", type(exc), str(exc))
    return (type(d), d.retry, d.countdown_seconds, type(d.countdown_seconds), d.dead_letter)


@pytest.mark.parametrize("name", ("real", *TWINS, *MUTANTS))
def test_every_implementation_answers_the_same_through_the_oracle(name: str) -> None:
    direct = built("policy", name)
    with proxied("policy", name) as decide:
        for bound, base in itertools.product((0, 1, 2, 3), (1, 5)):
            policy = BoundedRetryPolicy(max_retries=bound, base_delay_seconds=base)
            for error, n in itertools.product(ERRORS, COUNTS):
                expected = _outcome(direct, policy, error, n)
                assert _outcome(decide, policy, error, n) == expected, (bound, base, error, n)


def test_huge_numbers_come_back_exactly() -> None:
    policy = BoundedRetryPolicy(max_retries=4000, base_delay_seconds=10**40)
    with proxied("policy", "real") as decide:
        answer = decide(policy, RetryableTaskError("t"), retries_so_far=3999)
    assert answer.countdown_seconds == 10**40 * 2**3999


@pytest.mark.parametrize("bound", [10**12, float("inf"), float("nan"), 1e300])
def test_a_delay_too_big_to_compute_is_refused_the_same_way_for_every_implementation(
    bound: Any,
) -> None:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    policy._max_retries = bound  # a float bound once slipped past the guard: 2**(2**33)
    for name in ("real", *TWINS, *MUTANTS):
        with proxied("policy", name) as decide, pytest.raises(OverflowError, match="at most"):
            decide(policy, RetryableTaskError("t"), retries_so_far=2**33)


def test_a_large_retry_count_under_a_small_bound_is_answered() -> None:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    with proxied("policy", "real") as decide:
        answer = decide(policy, RetryableTaskError("t"), retries_so_far=2**33)
    assert (answer.retry, answer.dead_letter) == (False, True)


@pytest.mark.parametrize("retries", ["1", None, 1j, type("MyInt", (int,), {})(1)])
def test_a_retry_count_that_is_not_a_plain_number_is_refused_before_asking(retries: Any) -> None:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    with proxied("policy", "real") as decide, pytest.raises(TypeError, match="must be an int"):
        decide(policy, RetryableTaskError("t"), retries_so_far=retries)
