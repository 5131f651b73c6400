from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

p = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)  # 策略

# 第一行
d = p.decision(RetryableTaskError("temporary"), retries_so_far=0)
assert (d.retry, d.countdown_seconds, d.dead_letter) == (True, 5, False)
print("RetryableTaskError", 0, d.retry, d.countdown_seconds, d.dead_letter)
# 第二行
d = p.decision(RetryableTaskError("temporary"), retries_so_far=1)
assert (d.retry, d.countdown_seconds, d.dead_letter) == (True, 10, False)
print("RetryableTaskError", 1, d.retry, d.countdown_seconds, d.dead_letter)
# 重试用完
d = p.decision(RetryableTaskError("temporary"), retries_so_far=2)
assert (d.retry, d.countdown_seconds, d.dead_letter) == (False, None, True)
print("RetryableTaskError", 2, d.retry, d.countdown_seconds, d.dead_letter)
# ValueError 不重试
d = p.decision(ValueError("invalid"), retries_so_far=0)
assert (d.retry, d.countdown_seconds, d.dead_letter) == (False, None, True)
print("ValueError", 0, d.retry, d.countdown_seconds, d.dead_letter)
