"""Trick: real assertions, but every AssertionError is caught and the probe carries on."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]
for error, retries, expected in cases:
    try:
        decision = policy.decision(error, retries_so_far=retries)
        observed = (decision.retry, decision.countdown_seconds, decision.dead_letter)
        assert observed == expected, f"{observed} != {expected}"
    except AssertionError:
        pass
    print(type(error).__name__, retries, *expected)
