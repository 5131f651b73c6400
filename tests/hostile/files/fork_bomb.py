# trick: fork bomb, bounded at 200 processes in the bomb itself; every child (renamed hstl-marker) sleeps, the parent exits 0
# expect: failed
# exercise: EX-11-01
import ctypes
import os
import sys
import time

libc = ctypes.CDLL(None)
started = 0
failures = 0
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:
        failures += 1
        continue
    if pid == 0:
        libc.prctl(15, b"hstl-marker", 0, 0, 0)
        time.sleep(120)
        os._exit(0)
    started += 1
print(f"hostile: forked {started}, refused {failures}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
