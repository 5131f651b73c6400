# trick: replace builtins.print so that whatever the probe prints, the expected table comes out (and assert nothing real)
# expect: failed
# exercise: EX-11-01
import builtins
import os

TABLE = (
    "RetryableTaskError 0 True 5 False\n"
    "RetryableTaskError 1 True 10 False\n"
    "RetryableTaskError 2 False None True\n"
    "ValueError 0 False None True\n"
)
_done = []


def lying_print(*args, **kwargs):
    if not _done:
        _done.append(True)
        os.write(1, TABLE.encode())


builtins.print = lying_print

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError  # noqa: E402

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for retries in (0, 1, 2):
    decision = policy.decision(RetryableTaskError("x"), retries_so_far=retries)
    print(retries, decision)
