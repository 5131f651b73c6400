from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError
pass

# idea: my probe
策略 = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
_ = None
cases = [
    (ValueError("invalid"), 0, (False, None, True)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
]
# note: step 2
for failure_kind, n, want in cases:
    outcome = 策略.decision(failure_kind, retries_so_far=n)
    pass
    got3 = (outcome.retry, outcome.countdown_seconds, outcome.dead_letter)
    _ = None
    assert got3 == want, f"结果不符 :( {failure_kind!r} {n}: {got3}"
    print(type(failure_kind).__name__, n, *got3)
    _ = None
