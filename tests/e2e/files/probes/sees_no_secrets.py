"""A correct EX-11-01 probe that first asserts it can read none of the course's secrets.

Graded in "namespaces" mode it must pass: every path below is hidden from the run. It also
tries the "fresh copy as oracle" trick: loading ticketflow's policy module again from disk.
"""

import importlib.util
import os
import sys

import ticketflow
import ticketflow.workers.policy as patched

package = os.path.dirname(os.path.abspath(ticketflow.__file__))
tree = os.path.dirname(os.path.dirname(package))
course_root = sys.argv[1] if len(sys.argv) > 1 else None
secrets = [
    os.path.join(tree, "solutions", "EX-11-01", "retry_policy_probe.py"),
    os.path.join(tree, "tests", "e2e", "conftest.py"),
    os.path.join(tree, "grader", "judge", "grading.py"),
    os.path.join(tree, ".git", "HEAD"),
    os.path.join(package, "workers", "policy.py"),
    os.path.join(package, "workers", "__pycache__"),
]
readable = []
for path in secrets:
    try:
        if os.path.isdir(path):
            if os.listdir(path):
                readable.append(path)
        else:
            with open(path, "rb") as handle:
                if handle.read(1):
                    readable.append(path)
    except OSError:
        pass
try:
    spec = importlib.util.spec_from_file_location("fresh_policy", patched.__file__)
    fresh = importlib.util.module_from_spec(spec)
    sys.modules["fresh_policy"] = fresh
    spec.loader.exec_module(fresh)
    if hasattr(fresh, "BoundedRetryPolicy"):
        readable.append("a fresh copy of ticketflow.workers.policy")
except Exception:
    pass
assert not readable, f"readable from the sandbox: {readable}"

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError  # noqa: E402

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]
for error, retries, expected in cases:
    decision = policy.decision(error, retries_so_far=retries)
    observed = (decision.retry, decision.countdown_seconds, decision.dead_letter)
    assert observed == expected, f"{type(error).__name__} {retries}: {observed} != {expected}"
    print(type(error).__name__, retries, *observed)
