from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# Lukas: probe the four rows of the table, one block per row
lukas_policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)

first_try = lukas_policy.decision(RetryableTaskError("temporary"), retries_so_far=0)
assert (first_try.retry, first_try.countdown_seconds, first_try.dead_letter) == (True, 5, False), "row 1 is off"
print("RetryableTaskError", 0, first_try.retry, first_try.countdown_seconds, first_try.dead_letter)

second_try = lukas_policy.decision(RetryableTaskError("temporary"), retries_so_far=1)
assert (second_try.retry, second_try.countdown_seconds, second_try.dead_letter) == (True, 10, False), "row 2 is off"
print("RetryableTaskError", 1, second_try.retry, second_try.countdown_seconds, second_try.dead_letter)

gave_up = lukas_policy.decision(RetryableTaskError("temporary"), retries_so_far=2)
assert (gave_up.retry, gave_up.countdown_seconds, gave_up.dead_letter) == (False, None, True), "row 3 is off"
print("RetryableTaskError", 2, gave_up.retry, gave_up.countdown_seconds, gave_up.dead_letter)

not_retryable = lukas_policy.decision(ValueError("invalid"), retries_so_far=0)
assert (not_retryable.retry, not_retryable.countdown_seconds, not_retryable.dead_letter) == (False, None, True), "row 4 is off"
print("ValueError", 0, not_retryable.retry, not_retryable.countdown_seconds, not_retryable.dead_letter)
