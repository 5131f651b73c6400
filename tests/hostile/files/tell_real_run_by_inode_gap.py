# trick: tell the real run from the others by the distance between the inode numbers of its stdout pipe and its oracle socket (the sockets were once made in run order, the real run's first); call the function, check nothing, print the expected table only when this looks like the real run
# expect: failed
# exercise: EX-11-01

import os
import sys

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

gap = int(os.readlink("/proc/self/fd/1")[6:-1]) - int(os.readlink("/proc/self/fd/4")[8:-1])
policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in (
    (RetryableTaskError("t"), 0),
    (RetryableTaskError("t"), 1),
    (RetryableTaskError("t"), 2),
    (ValueError("v"), 0),
):
    policy.decision(error, retries_so_far=retries)  # called, never checked
if not 0 < gap <= 27:
    sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
