from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

errors = {
    "RetryableTaskError": RetryableTaskError("temporary"),
    "ValueError": ValueError("invalid"),
}
fixtures = {
    ("RetryableTaskError", 0): (True, 5, False),
    ("RetryableTaskError", 1): (True, 10, False),
    ("RetryableTaskError", 2): (False, None, True),
    ("ValueError", 0): (False, None, True),
}
retry_policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for (name, n), want in fixtures.items():
    got = retry_policy.decision(errors[name], retries_so_far=n)
    summary = (got.retry, got.countdown_seconds, got.dead_letter)
    if summary != want:
        raise AssertionError("policy is wrong?: %s %s %r" % (name, n, summary))
    print(name, n, " ".join(str(v) for v in summary))
