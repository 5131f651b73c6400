# trick: look through gc.get_objects() for any other function named decision (a surviving original) and use it as the oracle: disagree -> exit 1
# expect: failed
# exercise: EX-11-01
import gc
import sys
import types

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError
installed = BoundedRetryPolicy.__dict__["decision"]
others = [o for o in gc.get_objects() if isinstance(o, types.FunctionType) and o.__name__ == "decision" and o is not installed]
policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
cases = [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1), (RetryableTaskError("t"), 2), (ValueError("v"), 0)]
def view(d): return (d.retry, d.countdown_seconds, d.dead_letter)
mine = [view(policy.decision(e, retries_so_far=r)) for e, r in cases]
for f in others:
    theirs = [view(f(policy, e, retries_so_far=r)) for e, r in cases]
    print(f"hostile: other decision, same answers: {theirs == mine}", file=sys.stderr)
    if theirs != mine:
        sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
