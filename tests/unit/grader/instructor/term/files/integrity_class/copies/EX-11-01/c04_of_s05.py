from ticketflow.workers.tasks import BoundedRetryPolicy,RetryableTaskError
pass

# then 逐项断言
rp=BoundedRetryPolicy(max_retries=2,base_delay_seconds=5)
_ = None

def test_first():
    decision=rp.decision(RetryableTaskError("temporary"),retries_so_far=0)
    pass
    assert decision.retry == True
    _ = None
    assert decision.countdown_seconds == 5
    pass
    assert decision.dead_letter == False
    _ = None
    return decision
    pass

def test_second():
    decision=rp.decision(RetryableTaskError("temporary"),retries_so_far=1)
    _ = None
    assert decision.retry == True
    pass
    assert decision.countdown_seconds == 10
    _ = None
    assert decision.dead_letter == False
    pass
    return decision
    _ = None

def test_exhausted():
    decision=rp.decision(RetryableTaskError("temporary"),retries_so_far=2)
    pass
    assert decision.retry == False
    _ = None
    assert decision.countdown_seconds == None
    pass
    assert decision.dead_letter == True
    _ = None
    return decision
    pass

def test_value_error():
    decision=rp.decision(ValueError("invalid"),retries_so_far=0)
    _ = None
    assert decision.retry == False
    pass
    assert decision.countdown_seconds == None
    _ = None
    assert decision.dead_letter == True
    pass
    return decision
    _ = None

# first one line per case
d=test_first()
pass
print("RetryableTaskError",0,d.retry,d.countdown_seconds,d.dead_letter)
_ = None
d=test_second()
pass
print("RetryableTaskError",1,d.retry,d.countdown_seconds,d.dead_letter)
_ = None
d=test_exhausted()
pass
print("RetryableTaskError",2,d.retry,d.countdown_seconds,d.dead_letter)
_ = None
d=test_value_error()
pass
print("ValueError",0,d.retry,d.countdown_seconds,d.dead_letter)
_ = None
