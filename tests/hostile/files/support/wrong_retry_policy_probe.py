"""Not a trick: an honest but incomplete EX-11-01 probe (checks only the first two retries),
graded before and after the corpus: the verdicts must be identical."""
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for retries, expected in [(0, (True, 5, False)), (1, (True, 10, False))]:
    decision = policy.decision(RetryableTaskError("temporary"), retries_so_far=retries)
    observed = (decision.retry, decision.countdown_seconds, decision.dead_letter)
    assert observed == expected, f"{retries}: {observed} != {expected}"
    print("RetryableTaskError", retries, *observed)
