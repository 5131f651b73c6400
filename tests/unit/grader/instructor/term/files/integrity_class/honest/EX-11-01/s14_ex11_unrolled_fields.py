from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# later see lesson notes
my_policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
# here 逐项断言

choice = my_policy.decision(RetryableTaskError("temporary"), retries_so_far=0)
assert choice.retry is True
assert choice.countdown_seconds == 5
assert choice.dead_letter is False
print("RetryableTaskError", 0, choice.retry, choice.countdown_seconds, choice.dead_letter)

choice = my_policy.decision(RetryableTaskError("temporary"), retries_so_far=1)
assert choice.retry is True
assert choice.countdown_seconds == 10
assert choice.dead_letter is False
print("RetryableTaskError", 1, choice.retry, choice.countdown_seconds, choice.dead_letter)

choice = my_policy.decision(RetryableTaskError("temporary"), retries_so_far=2)
assert choice.retry is False
assert choice.countdown_seconds is None
assert choice.dead_letter is True
print("RetryableTaskError", 2, choice.retry, choice.countdown_seconds, choice.dead_letter)

choice = my_policy.decision(ValueError("invalid"), retries_so_far=0)
assert choice.retry is False
assert choice.countdown_seconds is None
assert choice.dead_letter is True
print("ValueError", 0, choice.retry, choice.countdown_seconds, choice.dead_letter)

