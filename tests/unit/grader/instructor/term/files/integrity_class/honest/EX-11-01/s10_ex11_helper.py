from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

bp = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def case(error, n, retry, countdown, dead):
    # idea: 逐项断言
    result = bp.decision(error, retries_so_far=n)
    assert result.retry is retry, "wrong result -> (retry)"
    assert result.countdown_seconds == countdown, "wrong result -> (countdown)"
    if countdown is None:
        assert result.countdown_seconds is None
    assert result.dead_letter is dead, "wrong result -> (dead letter)"
    print(type(error).__name__, n, result.retry, result.countdown_seconds, result.dead_letter)


case(RetryableTaskError("temporary"), 0, True, 5, False)
case(RetryableTaskError("temporary"), 1, True, 10, False)
case(RetryableTaskError("temporary"), 2, False, None, True)
case(ValueError("invalid"), 0, False, None, True)
