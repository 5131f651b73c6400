"""Checks retry and dead_letter everywhere, but the countdown only while retrying."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, n, retry, countdown, dead_letter in [
    (RetryableTaskError("temporary"), 0, True, 5, False),
    (RetryableTaskError("temporary"), 1, True, 10, False),
    (RetryableTaskError("temporary"), 2, False, None, True),
    (ValueError("invalid"), 0, False, None, True),
]:
    d = policy.decision(error, retries_so_far=n)
    assert d.retry is retry and d.dead_letter is dead_letter
    if d.retry:
        assert d.countdown_seconds == countdown
    print(type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter)
