from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def verdict(error, n):
    d = policy.decision(error, retries_so_far=n)
    match (type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter):
        case ("RetryableTaskError", 0, True, 5, False):
            pass
        case ("RetryableTaskError", 1, True, 10, False):
            pass
        case ("RetryableTaskError", 2, False, None, True):
            pass
        case ("ValueError", 0, False, None, True):
            pass
        case other:
            raise AssertionError(f"unexpected decision {other}")
    print(type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter)


for n in range(3):
    verdict(RetryableTaskError("temporary"), n)
verdict(ValueError("invalid"), 0)
