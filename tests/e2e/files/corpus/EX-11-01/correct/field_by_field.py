from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def expect(error, n, retry, countdown, dead_letter):
    d = policy.decision(error, retries_so_far=n)
    assert d.retry is retry, f"{n}: retry {d.retry}"
    if countdown is None:
        assert d.countdown_seconds is None, f"{n}: countdown {d.countdown_seconds}"
    else:
        assert d.countdown_seconds == countdown, f"{n}: countdown {d.countdown_seconds}"
    assert d.dead_letter is dead_letter, f"{n}: dead_letter {d.dead_letter}"
    print(f"{type(error).__name__} {n} {d.retry} {d.countdown_seconds} {d.dead_letter}")


expect(RetryableTaskError("temporary"), 0, True, 5, False)
expect(RetryableTaskError("temporary"), 1, True, 10, False)
expect(RetryableTaskError("temporary"), 2, False, None, True)
expect(ValueError("invalid"), 0, False, None, True)
