"""Expectations written as doctests.

>>> decide(RetryableTaskError("temporary"), 0)
(True, 5, False)
>>> decide(RetryableTaskError("temporary"), 1)
(True, 10, False)
>>> decide(RetryableTaskError("temporary"), 2)
(False, None, True)
>>> decide(ValueError("invalid"), 0)
(False, None, True)
"""
import doctest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def decide(error, n):
    d = policy.decision(error, retries_so_far=n)
    return d.retry, d.countdown_seconds, d.dead_letter


outcome = doctest.testmod()
assert outcome.failed == 0 and outcome.attempted == 4, outcome
for error, n in [(RetryableTaskError("temporary"), 0), (RetryableTaskError("temporary"), 1),
                 (RetryableTaskError("temporary"), 2), (ValueError("invalid"), 0)]:
    print(type(error).__name__, n, *decide(error, n))
