import sys

import pytest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


@pytest.fixture
def policy():
    return BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


@pytest.mark.parametrize(
    ("error", "n", "expected"),
    [
        (RetryableTaskError("temporary"), 0, (True, 5, False)),
        (RetryableTaskError("temporary"), 1, (True, 10, False)),
        (RetryableTaskError("temporary"), 2, (False, None, True)),
        (ValueError("invalid"), 0, (False, None, True)),
    ],
)
def test_decision(policy, error, n, expected):
    d = policy.decision(error, retries_so_far=n)
    assert (d.retry, d.countdown_seconds, d.dead_letter) == expected


if __name__ == "__main__":
    table = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    for error, n in [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                     (RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
        d = table.decision(error, retries_so_far=n)
        print(type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter)
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", __file__]))
