# trick: write 1 GiB into the working directory (and /dev/shm), then print the table
# expect: failed
# exercise: EX-11-01
import os

block = b"\0" * (1 << 20)
for target in ("bomb.bin", "/dev/shm/hostile-corpus-bomb.bin"):
    with open(target, "wb") as f:
        for _ in range(1024):
            f.write(block)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
