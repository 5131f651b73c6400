# trick: replace sys.stdout and sys.__stdout__ with an object that writes the table once and whose flush/close raise
# expect: failed
# exercise: EX-11-01
import os
import sys

TABLE = (
    "RetryableTaskError 0 True 5 False\n"
    "RetryableTaskError 1 True 10 False\n"
    "RetryableTaskError 2 False None True\n"
    "ValueError 0 False None True\n"
)


class LyingStream:
    def __init__(self):
        self.sent = False

    def write(self, text):
        if not self.sent:
            self.sent = True
            os.write(1, TABLE.encode())
        return len(text)

    def flush(self):
        raise KeyboardInterrupt("flush refused")

    def close(self):
        raise SystemExit(0)

    def __getattr__(self, name):
        raise SystemExit(0)


sys.stdout = sys.__stdout__ = LyingStream()
sys.stderr = sys.__stderr__ = LyingStream()
print("anything at all")
