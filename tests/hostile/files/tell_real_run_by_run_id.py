# trick: read this run's id from the frames below the student's (the zygote's loop, or the host's in rlimits mode): ids were 1, 2, 3, ... in start order, so the id was the run's place; call the function, check nothing, print the expected table only at places 0 and 1 (the real run is one of them) and 12 (H14)
# expect: failed
# exercise: EX-11-01
import sys

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

run_id = None
frame = sys._getframe().f_back
while frame is not None and run_id is None:
    for name, value in frame.f_locals.items():
        if name == "rid" and type(value) is int:
            run_id = value
        elif type(value) is dict and type(value.get("rid", value.get("id"))) is int:
            run_id = value.get("rid", value.get("id"))
    frame = frame.f_back
policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in (
    (RetryableTaskError("t"), 0),
    (RetryableTaskError("t"), 1),
    (RetryableTaskError("t"), 2),
    (ValueError("v"), 0),
):
    policy.decision(error, retries_so_far=retries)  # called, never checked
if run_id is None or run_id - 1 not in (0, 1, 12):
    sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
