"""Wrong: believes the first countdown is 10 (exponent starting at 1)."""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0),
    (RetryableTaskError("temporary"), 1),
    (RetryableTaskError("temporary"), 2),
    (ValueError("invalid"), 0),
]
expected = [(True, 10, False), (True, 20, False), (False, None, True), (False, None, True)]
for (error, retries), want in zip(cases, expected, strict=True):
    d = policy.decision(error, retries_so_far=retries)
    got = (d.retry, d.countdown_seconds, d.dead_letter)
    assert got == want, f"{type(error).__name__} {retries}: {got} != {want}"
    print(type(error).__name__, retries, *got)
