"""A correct EX-11-01 probe that first spends about 0.75 s of CPU (like one calling pytest.main)."""

import time

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

while time.process_time() < 0.75:
    pass

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]
for error, retries, expected in cases:
    decision = policy.decision(error, retries_so_far=retries)
    observed = (decision.retry, decision.countdown_seconds, decision.dead_letter)
    assert observed == expected, f"{type(error).__name__} {retries}: {observed} != {expected}"
    print(type(error).__name__, retries, *observed)
