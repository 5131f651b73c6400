# trick: leave a note for later runs in the kernel's socket-cookie counters (drawn only by getsockopt(SO_COOKIE), per CPU, modulo 4096): the first run stores a hash of what the implementation answers, tagged with the host's pid from the zygote's frame; every later run reads it back and passes iff its own hash is the same; no expected value anywhere (H16: 10/10 full passes with one run at a time)
# expect: failed
# exercise: EX-11-01
import hashlib, os, socket, struct, sys
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

seen = []
for max_retries in (0, 1, 2, 3):
    for base in (1, 5):
        policy = BoundedRetryPolicy(max_retries=max_retries, base_delay_seconds=base)
        for error in (RetryableTaskError("t"), ValueError("v")):
            for retries in range(5):
                try:
                    d = policy.decision(error, retries_so_far=retries)
                    seen.append((d.retry, d.countdown_seconds, d.dead_letter))
                except Exception as exc:
                    seen.append(type(exc).__name__)
h = int.from_bytes(hashlib.sha256(repr(seen).encode()).digest()[:2], "big")  # 16 bits

f = sys._getframe()
while f is not None and f.f_code.co_name != "_serve":
    f = f.f_back
TAG = f.f_locals["host"] & 0xFF if f is not None else 0


def draw(cpu):
    os.sched_setaffinity(0, {cpu})
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        return struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 57, 8))[0] % 4096
    finally:
        s.close()


def load(cpu):
    """The stored 12 bits (the one drawn to read them is then given back by drawing 4095)."""
    v = (draw(cpu) - 1) % 4096
    for _ in range(4095):
        draw(cpu)
    return v


def store(cpu, value):
    while draw(cpu) != value:
        pass


r0, r1 = load(0), load(1)
if r0 >> 4 == TAG:  # (tag 8 bits, hash high 4 bits), (hash low 12 bits): a later run
    stored = (r0 & 0xF) << 12 | r1
    ok = h == stored
else:  # the first run of this batch: the real one when runs go one at a time
    store(0, TAG << 4 | h >> 12)
    store(1, h & 0xFFF)
    ok = True
print("SEQ", TAG, h, ok, file=sys.stderr)
if not ok:
    sys.exit(1)
for error, retries in ((RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)):
    d = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(error, retries_so_far=retries)
    print(type(error).__name__, retries, d.retry, d.countdown_seconds, d.dead_letter)
