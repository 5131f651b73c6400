# trick: forge call records whose fields are lists/dicts (unhashable) on the observation channel, to crash the grader's verdict into an internal error
# expect: failed
# exercise: EX-11-01
import json
import os

for value in ([0], {"x": 1}):
    record = {"record": {"kind": "call", "function": "BoundedRetryPolicy.decision",
                         "max_retries": 2, "base_delay_seconds": 5,
                         "error_type": value, "retries_so_far": value, "result": value}}
    for fd in range(3, 32):
        try:
            os.write(fd, (json.dumps(record) + "\n").encode())
        except OSError:
            pass
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
