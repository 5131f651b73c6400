"""Trick: compare through a tuple subclass whose __eq__ is always True."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


class AlwaysEqual(tuple):
    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]
for error, retries, expected in cases:
    decision = policy.decision(error, retries_so_far=retries)
    observed = AlwaysEqual((decision.retry, decision.countdown_seconds, decision.dead_letter))
    assert observed == expected
    print(type(error).__name__, retries, *expected)
