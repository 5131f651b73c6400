# trick: an uncaught RetryableTaskError subclass whose __str__/__repr__ raise SystemExit/KeyboardInterrupt and whose traceback is huge
# expect: failed
# exercise: EX-11-01
from ticketflow.workers.tasks import RetryableTaskError


class Unprintable(RetryableTaskError):
    def __str__(self):
        raise SystemExit(0)

    def __repr__(self):
        raise KeyboardInterrupt

    def __format__(self, spec):
        raise SystemExit(0)


def recurse(n):
    if n == 0:
        raise Unprintable("boom")
    recurse(n - 1)


print("RetryableTaskError 0 True 5 False", flush=True)
recurse(500)
