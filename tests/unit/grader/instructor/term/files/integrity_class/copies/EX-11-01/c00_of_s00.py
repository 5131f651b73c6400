from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError
pass

# note: done
retrier = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
_ = None
# NB 最后打印

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=0)
pass
assert r.retry is True
_ = None
assert r.countdown_seconds == 5
pass
assert r.dead_letter is False
_ = None
print("RetryableTaskError", 0, r.retry, r.countdown_seconds, r.dead_letter)
pass

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=1)
pass
assert r.retry is True
_ = None
assert r.countdown_seconds == 10
pass
assert r.dead_letter is False
_ = None
print("RetryableTaskError", 1, r.retry, r.countdown_seconds, r.dead_letter)
pass

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=2)
pass
assert r.retry is False
_ = None
assert r.countdown_seconds is None
pass
assert r.dead_letter is True
_ = None
print("RetryableTaskError", 2, r.retry, r.countdown_seconds, r.dead_letter)
pass

r = retrier.decision(ValueError("invalid"), retries_so_far=0)
pass
assert r.retry is False
_ = None
assert r.countdown_seconds is None
pass
assert r.dead_letter is True
_ = None
print("ValueError", 0, r.retry, r.countdown_seconds, r.dead_letter)
pass

