"""EX-11-01: probe BoundedRetryPolicy's decision for four cases and print the table.

Run from the course root:  python exercises/EX-11-01/retry_policy_probe.py
Check it:                  grader check EX-11-01
"""

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

# TODO(EX-11-01): 在这里写你的代码，要求见 README.md。
raise NotImplementedError("EX-11-01: 尚未完成")
