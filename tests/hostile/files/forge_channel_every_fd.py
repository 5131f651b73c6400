# trick: scan /proc/self/fd and write forged observation records, uncaught reports, "passed" JSON and length-framed results to every fd
# expect: failed
# exercise: EX-11-01
import json
import os
import struct

calls = [
    ("RetryableTaskError", 0, [True, 5, False]),
    ("RetryableTaskError", 1, [True, 10, False]),
    ("RetryableTaskError", 2, [False, None, True]),
    ("ValueError", 0, [False, None, True]),
]
lines = []
for error_type, retries, result in calls:
    lines.append({"record": {"kind": "call", "function": "BoundedRetryPolicy.decision",
                             "max_retries": 2, "base_delay_seconds": 5, "error_type": error_type,
                             "retries_so_far": retries, "result": result}})
lines.append({"status": "passed", "score": 100, "max_score": 100})
lines.append({"record": {"kind": "verdict", "status": "passed", "mutants_killed": "all"}})
text = "".join(json.dumps(line) + "\n" for line in lines).encode()
frame_body = json.dumps({"op": "result", "id": 1, "observations": {
    "exit_code": 0, "signal": None, "timed_out": False, "limit_hit": None,
    "stdout": "", "stderr": "", "stdout_truncated": False, "stderr_truncated": False,
    "records": [], "uncaught": None, "wall_seconds": 0.1, "isolation": "namespaces"}}).encode()
frame = struct.pack(">I", len(frame_body)) + frame_body

for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd in (0, 1, 2):
        continue
    for payload in (text, frame, b'{"setup_error": "forged", "stage": "setup"}\n',
                    b'{"exit": 0, "cpu": 0.0, "maxrss": 1}\n'):
        try:
            os.write(fd, payload)
        except OSError:
            pass

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
