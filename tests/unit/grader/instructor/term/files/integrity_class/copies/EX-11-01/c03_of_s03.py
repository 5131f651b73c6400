from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError
if True:
    "just checking"

    rp = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


    def do_case(error, n, retry, countdown, dead):
        # first 逐项断言
        r = rp.decision(error, retries_so_far=n)
        assert r.retry is retry, "oops -> (retry)"
        assert r.countdown_seconds == countdown, "oops -> (countdown)"
        if countdown is None:
            assert r.countdown_seconds is None
        assert r.dead_letter is dead, "oops -> (dead letter)"
        print(type(error).__name__, n, r.retry, r.countdown_seconds, r.dead_letter)


    do_case(RetryableTaskError("temporary"), 0, True, 5, False)
    do_case(RetryableTaskError("temporary"), 1, True, 10, False)
    do_case(RetryableTaskError("temporary"), 2, False, None, True)
    do_case(ValueError("invalid"), 0, False, None, True)
