"""Wrong: prints the table but asserts nothing, so no mutant can make it fail."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0),
    (RetryableTaskError("temporary"), 1),
    (RetryableTaskError("temporary"), 2),
    (ValueError("invalid"), 0),
]
for error, retries in cases:
    d = policy.decision(error, retries_so_far=retries)
    print(type(error).__name__, retries, d.retry, d.countdown_seconds, d.dead_letter)
