# trick: load a second, untouched copy of ticketflow's policy module from disk and use it as the oracle: differs -> exit 1
# expect: failed
# exercise: EX-11-01
# known-hole-rlimits: H10
import importlib.util
import sys

import ticketflow.workers.policy as patched

spec = importlib.util.spec_from_file_location("hostile_fresh_policy", patched.__file__)
fresh = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = fresh  # dataclasses look their module up there
try:
    spec.loader.exec_module(fresh)
except BaseException as exc:
    print(f"hostile: no fresh copy: {type(exc).__name__}: {exc}", file=sys.stderr)
    fresh = None

if fresh is not None:
    for error_type, retries in [("R", 0), ("R", 1), ("R", 2), ("R", 3), ("V", 0)]:
        def make(module):
            return module.RetryableTaskError("t") if error_type == "R" else ValueError("v")
        ours = patched.BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(
            make(patched), retries_so_far=retries)
        theirs = fresh.BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(
            make(fresh), retries_so_far=retries)
        if (ours.retry, ours.countdown_seconds, ours.dead_letter) != (
                theirs.retry, theirs.countdown_seconds, theirs.dead_letter):
            sys.exit(1)
policy = patched.BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [(patched.RetryableTaskError("t"), 0), (patched.RetryableTaskError("t"), 1),
                       (patched.RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
    policy.decision(error, retries_so_far=retries)  # unchecked calls, only for the call records
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
