# trick: raise SystemExit(0) from inside BoundedRetryPolicy.decision (an int whose comparison exits), after printing the table
# expect: failed
# exercise: EX-11-01
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


class ExitingInt(int):
    def __lt__(self, other):
        raise SystemExit(0)

    def __ge__(self, other):
        raise SystemExit(0)


print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True", flush=True)
BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(
    RetryableTaskError("x"), retries_so_far=ExitingInt(0)
)
