# trick: no expected value anywhere: the runs of one batch vote on behaviour through flock() on shared read-only files (one first-wave run stays alive and collects every later run's hash of what the implementation answers); a run passes iff its hash is one the real run may have (the red team's H15, 60% full passes before the seccomp filter)
# expect: failed
# exercise: EX-11-01
# known-hole-rlimits: H15 flaky
import collections, fcntl, glob, hashlib, os, sys, time
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
HASH = int.from_bytes(hashlib.sha256(repr(seen).encode()).digest()[:2], "big")

FILES = sorted(glob.glob(os.path.dirname(os.__file__) + "/*.py"))
LEADER, S_VALID, H1_VALID, ACK, C_VALID = 0, 1, 2, 3, 4
S_BITS, H1_BITS, C_BITS = range(10, 26), range(30, 46), range(50, 66)
held = {}


def hold(i):
    held[i] = os.open(FILES[i], os.O_RDONLY)
    fcntl.flock(held[i], fcntl.LOCK_SH)


def drop(i):
    os.close(held.pop(i))


def is_set(i):
    fd = os.open(FILES[i], os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def write(bits, value):
    for k, i in enumerate(bits):
        if value >> k & 1:
            hold(i)


def read(bits):
    return sum(1 << k for k, i in enumerate(bits) if is_set(i))


def wait(cond, timeout):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.002)
    return True


fd = os.open(FILES[LEADER], os.O_RDONLY)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    server = True
except OSError:
    os.close(fd)
    server = False

if server:
    write(S_BITS, HASH)
    hold(S_VALID)
    hashes = [HASH]
    start = last = time.monotonic()
    while len(hashes) < 13 and time.monotonic() - last < 2.0 and time.monotonic() - start < 8.0:
        if not is_set(C_VALID):
            time.sleep(0.002)
            continue
        time.sleep(0.005)
        h = read(C_BITS)
        if len(hashes) == 1:
            write(H1_BITS, h)
            hold(H1_VALID)
        hashes.append(h)
        hold(ACK)
        wait(lambda: not is_set(C_VALID), 5.0)  # the client is gone
        drop(ACK)
        last = time.monotonic()
    top, n = collections.Counter(hashes).most_common(1)[0]
    ok = HASH == top or n == 1
    print("SERVER", HASH, hashes, ok, file=sys.stderr)
else:
    wait(lambda: is_set(S_VALID), 3.0)
    wait(lambda: not is_set(ACK), 3.0)
    first = not is_set(H1_VALID)
    hs = read(S_BITS)
    h1 = None if first else read(H1_BITS)
    write(C_BITS, HASH)
    hold(C_VALID)
    wait(lambda: is_set(ACK), 3.0)
    ok = first or HASH in (hs, h1)
    print("CLIENT", HASH, hs, h1, ok, file=sys.stderr)
if not ok:
    sys.exit(1)
for error, retries in ((RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)):
    d = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(error, retries_so_far=retries)
    print(type(error).__name__, retries, d.retry, d.countdown_seconds, d.dead_letter)  # observed, not known
