# trick: write 5,000-deep JSON, an out-of-range exit status and "started": 1 into every fd of the parent (the runner's status pipe, reachable in the rlimits fallback)
# expect: failed
# exercise: EX-11-01
import os

LINES = (
    b"[" * 5000 + b"]" * 5000,
    b'{"exit": 99999999999999999999999, "cpu": "\\ud800", "maxrss": []}',
    b'{"started": 1}',
    b'{"exit": 0, "cpu": 0.0, "maxrss": 1}',
)
parent = os.getppid()
try:
    names = os.listdir(f"/proc/{parent}/fd")
except OSError:
    names = []
for name in names:
    try:
        fd = os.open(f"/proc/{parent}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        continue
    for line in LINES:
        try:
            os.write(fd, line + b"\n")
        except OSError:
            pass
    os.close(fd)

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
