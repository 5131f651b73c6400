# trick: 100 MB on stdout and on stderr (the expected table first, so a naive "first lines match" check would pass)
# expect: failed
# exercise: EX-11-01
import os

os.write(1, b"RetryableTaskError 0 True 5 False\nRetryableTaskError 1 True 10 False\n"
            b"RetryableTaskError 2 False None True\nValueError 0 False None True\n")
line = b"Traceback (most recent call last):\n  flood \x1b[31m\xff\xfe\n" * 1024
for _ in range(100 * 1024 * 1024 // len(line) + 1):
    os.write(1, line)
    os.write(2, line)
