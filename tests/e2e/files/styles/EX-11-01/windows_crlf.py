# Saved by a Windows editor: CRLF line endings.
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)

cases = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]

for error, retries, expected in cases:
    d = policy.decision(error, retries_so_far=retries)
    observed = (d.retry, d.countdown_seconds, d.dead_letter)
    assert observed == expected, f"{retries}: {observed}"
    print(type(error).__name__, retries, *observed)
