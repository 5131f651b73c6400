from ticketflow.workers.tasks import (
    BoundedRetryPolicy,
    RetryableTaskError,
    RetryDecision,
)

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
table = [
    (RetryableTaskError("temporary"), 0, RetryDecision(True, 5, False)),
    (RetryableTaskError("temporary"), 1, RetryDecision(True, 10, False)),
    (RetryableTaskError("temporary"), 2, RetryDecision(False, None, True)),
    (ValueError("invalid"), 0, RetryDecision(False, None, True)),
]
for error, n, wanted in table:
    got = policy.decision(error, retries_so_far=n)
    assert got == wanted, f"{got} != {wanted}"
    print(type(error).__name__, n, got.retry, got.countdown_seconds, got.dead_letter)
