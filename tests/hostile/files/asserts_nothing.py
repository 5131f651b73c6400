# trick: call the policy and print what it returns, assert nothing: the table differs on mutants but the exit status never does
# expect: failed
# exercise: EX-11-01
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [
    (RetryableTaskError("temporary"), 0),
    (RetryableTaskError("temporary"), 1),
    (RetryableTaskError("temporary"), 2),
    (ValueError("invalid"), 0),
]:
    d = policy.decision(error, retries_so_far=retries)
    print(type(error).__name__, retries, d.retry, d.countdown_seconds, d.dead_letter)
