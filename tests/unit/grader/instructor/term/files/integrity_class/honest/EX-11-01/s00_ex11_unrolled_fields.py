from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# note: done
retrier = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
# NB 最后打印

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=0)
assert r.retry is True
assert r.countdown_seconds == 5
assert r.dead_letter is False
print("RetryableTaskError", 0, r.retry, r.countdown_seconds, r.dead_letter)

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=1)
assert r.retry is True
assert r.countdown_seconds == 10
assert r.dead_letter is False
print("RetryableTaskError", 1, r.retry, r.countdown_seconds, r.dead_letter)

r = retrier.decision(RetryableTaskError("temporary"), retries_so_far=2)
assert r.retry is False
assert r.countdown_seconds is None
assert r.dead_letter is True
print("RetryableTaskError", 2, r.retry, r.countdown_seconds, r.dead_letter)

r = retrier.decision(ValueError("invalid"), retries_so_far=0)
assert r.retry is False
assert r.countdown_seconds is None
assert r.dead_letter is True
print("ValueError", 0, r.retry, r.countdown_seconds, r.dead_letter)

