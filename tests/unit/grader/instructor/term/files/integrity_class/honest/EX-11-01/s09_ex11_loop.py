from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# 提示 先建策略
policy_under_test = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
table = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]
# 这里 expected values from the README
for err, n, want in table:
    dec = policy_under_test.decision(err, retries_so_far=n)
    summary = (dec.retry, dec.countdown_seconds, dec.dead_letter)
    assert summary == want, f"错误 here {err!r} {n}: {summary}"
    print(type(err).__name__, n, *summary)
