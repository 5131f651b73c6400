# trick: a float bound (inf) slips past a guard meant for ints; a huge retries_so_far then asks every implementation for 2**n with n = 2**33, which would hold the oracle's CPU for minutes (or exhaust its memory) and end the check as an internal error
# expect: failed
# exercise: EX-11-01

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
policy._max_retries = float("inf")
policy.decision(RetryableTaskError("down"), retries_so_far=2**33)
print("done")
