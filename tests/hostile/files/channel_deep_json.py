# trick: crash the runner host through the observation channel: 5,000-deep JSON records and an uncaught report on fd 3, then print the table
# expect: failed
# exercise: EX-11-01
import os

DEEP = b"[" * 5000 + b"]" * 5000
for line in (
    b'{"record": {"kind": "call", "result": ' + DEEP + b"}}",
    b'{"uncaught": {"type": "AssertionError", "message": ' + DEEP + b"}}",
    DEEP,
):
    os.write(3, line + b"\n")

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
