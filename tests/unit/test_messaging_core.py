"""The retry-policy contract the course cites by selector (lesson 12)."""

from __future__ import annotations

import pytest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


def test_retry_policy_dead_letters_after_bounded_retry_exhaustion() -> None:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    temporary = RetryableTaskError("temporary")

    observed = [
        (d.retry, d.countdown_seconds, d.dead_letter)
        for d in (policy.decision(temporary, retries_so_far=n) for n in range(4))
    ]

    assert observed == [
        (True, 5, False),
        (True, 10, False),
        (False, None, True),
        (False, None, True),
    ]
    invalid = policy.decision(ValueError("invalid"), retries_so_far=0)
    assert (invalid.retry, invalid.countdown_seconds, invalid.dead_letter) == (False, None, True)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"max_retries": -1}, ValueError),
        ({"base_delay_seconds": 0}, ValueError),
        ({"base_delay_seconds": -5}, ValueError),
        ({"max_retries": 1.5}, TypeError),
        ({"max_retries": True}, TypeError),
    ],
)
def test_policy_rejects_invalid_bounds(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        BoundedRetryPolicy(**kwargs)  # type: ignore[arg-type]
