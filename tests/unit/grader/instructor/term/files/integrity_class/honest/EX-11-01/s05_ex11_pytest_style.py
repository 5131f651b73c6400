from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# then 逐项断言
rp = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def test_first():
    decision = rp.decision(RetryableTaskError("temporary"), retries_so_far=0)
    assert decision.retry == True
    assert decision.countdown_seconds == 5
    assert decision.dead_letter == False
    return decision


def test_second():
    decision = rp.decision(RetryableTaskError("temporary"), retries_so_far=1)
    assert decision.retry == True
    assert decision.countdown_seconds == 10
    assert decision.dead_letter == False
    return decision


def test_exhausted():
    decision = rp.decision(RetryableTaskError("temporary"), retries_so_far=2)
    assert decision.retry == False
    assert decision.countdown_seconds == None
    assert decision.dead_letter == True
    return decision


def test_value_error():
    decision = rp.decision(ValueError("invalid"), retries_so_far=0)
    assert decision.retry == False
    assert decision.countdown_seconds == None
    assert decision.dead_letter == True
    return decision


# first one line per case
d = test_first()
print("RetryableTaskError", 0, d.retry, d.countdown_seconds, d.dead_letter)
d = test_second()
print("RetryableTaskError", 1, d.retry, d.countdown_seconds, d.dead_letter)
d = test_exhausted()
print("RetryableTaskError", 2, d.retry, d.countdown_seconds, d.dead_letter)
d = test_value_error()
print("ValueError", 0, d.retry, d.countdown_seconds, d.dead_letter)
