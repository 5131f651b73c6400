"""Wrong: checks retry and dead_letter but never the countdown."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0),
    (RetryableTaskError("temporary"), 1),
    (RetryableTaskError("temporary"), 2),
    (ValueError("invalid"), 0),
]
expected = [(True, False), (True, False), (False, True), (False, True)]
for (error, retries), (retry, dead) in zip(cases, expected, strict=True):
    d = policy.decision(error, retries_so_far=retries)
    assert (d.retry, d.dead_letter) == (retry, dead)
    print(type(error).__name__, retries, d.retry, d.countdown_seconds, d.dead_letter)
