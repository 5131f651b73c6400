"""Checks dead_letter only for exhausted retries; for the ValueError only that it is not retried."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, n, retry, countdown, dead_letter in [
    (RetryableTaskError("temporary"), 0, True, 5, False),
    (RetryableTaskError("temporary"), 1, True, 10, False),
    (RetryableTaskError("temporary"), 2, False, None, True),
    (ValueError("invalid"), 0, False, None, True),
]:
    d = policy.decision(error, retries_so_far=n)
    assert d.retry is retry and d.countdown_seconds == countdown
    if isinstance(error, RetryableTaskError):
        assert d.dead_letter is dead_letter
    print(type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter)
