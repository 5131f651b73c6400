from collections import namedtuple

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

Row = namedtuple("Row", "error retries retry countdown dead_letter")
expected = [
    Row(RetryableTaskError("temporary"), 0, True, 5, False),
    Row(RetryableTaskError("temporary"), 1, True, 10, False),
    Row(RetryableTaskError("temporary"), 2, False, None, True),
    Row(ValueError("invalid"), 0, False, None, True),
]
policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for row in expected:
    d = policy.decision(row.error, retries_so_far=row.retries)
    assert d.retry is row.retry
    assert d.countdown_seconds == row.countdown if row.countdown is not None else d.countdown_seconds is None
    assert d.dead_letter is row.dead_letter
    print(type(row.error).__name__, row.retries, d.retry, d.countdown_seconds, d.dead_letter)
