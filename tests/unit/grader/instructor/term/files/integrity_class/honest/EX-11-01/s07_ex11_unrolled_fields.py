from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# later now the real test
bp = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
# note: 第 11 课：有界重试

answer = bp.decision(RetryableTaskError("temporary"), retries_so_far=0)
assert answer.retry is True
assert answer.countdown_seconds == 5
assert answer.dead_letter is False
print("RetryableTaskError", 0, answer.retry, answer.countdown_seconds, answer.dead_letter)

answer = bp.decision(RetryableTaskError("temporary"), retries_so_far=1)
assert answer.retry is True
assert answer.countdown_seconds == 10
assert answer.dead_letter is False
print("RetryableTaskError", 1, answer.retry, answer.countdown_seconds, answer.dead_letter)

answer = bp.decision(RetryableTaskError("temporary"), retries_so_far=2)
assert answer.retry is False
assert answer.countdown_seconds is None
assert answer.dead_letter is True
print("RetryableTaskError", 2, answer.retry, answer.countdown_seconds, answer.dead_letter)

answer = bp.decision(ValueError("invalid"), retries_so_far=0)
assert answer.retry is False
assert answer.countdown_seconds is None
assert answer.dead_letter is True
print("ValueError", 0, answer.retry, answer.countdown_seconds, answer.dead_letter)

