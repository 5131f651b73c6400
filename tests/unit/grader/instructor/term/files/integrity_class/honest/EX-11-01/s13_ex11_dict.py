from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

errors = {
    "RetryableTaskError": RetryableTaskError("temporary"),
    "ValueError": ValueError("invalid"),
}
EXPECTED = {
    ("RetryableTaskError", 0): (True, 5, False),
    ("RetryableTaskError", 1): (True, 10, False),
    ("RetryableTaskError", 2): (False, None, True),
    ("ValueError", 0): (False, None, True),
}
p = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for (which, n), want in EXPECTED.items():
    got = p.decision(errors[which], retries_so_far=n)
    observed = (got.retry, got.countdown_seconds, got.dead_letter)
    if observed != want:
        raise AssertionError("oops here: %s %s %r" % (which, n, observed))
    print(which, n, " ".join(str(v) for v in observed))
