# trick: compare str subclasses whose __eq__ is always True and whose __str__ is the expected row
# expect: failed
# exercise: EX-11-01
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

ROWS = [
    "RetryableTaskError 0 True 5 False",
    "RetryableTaskError 1 True 10 False",
    "RetryableTaskError 2 False None True",
    "ValueError 0 False None True",
]


class Agreeable(str):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = str.__hash__


policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
errors = [RetryableTaskError("t"), RetryableTaskError("t"), RetryableTaskError("t"), ValueError("v")]
for (error, retries), row in zip(zip(errors, (0, 1, 2, 0)), ROWS):
    d = policy.decision(error, retries_so_far=retries)
    observed = Agreeable(f"{type(error).__name__} {retries} {d.retry} {d.countdown_seconds} {d.dead_letter}")
    assert observed == row
    print(row)
