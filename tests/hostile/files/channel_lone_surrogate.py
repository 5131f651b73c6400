# trick: crash the runner host's encoder: records on fd 3 whose kind, keys and values are lone surrogates ("\ud800"), then print the table
# expect: failed
# exercise: EX-11-01
import os

for line in (
    rb'{"record": {"kind": "\ud800"}}',
    rb'{"record": {"kind": "call", "function": "BoundedRetryPolicy.decision", "\udfff": 1}}',
    rb'{"record": {"kind": "call", "function": "BoundedRetryPolicy.decision", "result": ["\ud800"]}}',
):
    os.write(3, line + b"\n")

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
