# trick: no expected value anywhere: the runs of one batch vote on behaviour through the page cache of a large world-readable file (preadv2 RWF_NOWAIT reads a bit, pread sets one); the hash-salt of the batch picks a private meeting place; the two first-wave runs write their answers' hash, and a later run passes iff its hash is one of theirs (the red team's page-cache vote, 13/20 full passes of EX-11-01 before the allow-lists)
# expect: failed
# exercise: EX-11-01
import collections, glob, hashlib, os, sysconfig, random, sys, time
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
lines = []
for error, retries in ((RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)):
    d = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(error, retries_so_far=retries)
    lines.append(f"{type(error).__name__} {retries} {d.retry} {d.countdown_seconds} {d.dead_letter}")
PAGE, SLOTS, BITS, STRIDE = 4096, 24, 16, 2
RUNS = 13  # the real run, 2 twins, 10 mutants


def largest_file():  # a static library: large, and nobody reads it
    found = glob.glob(os.path.join(sysconfig.get_config_var("LIBPL") or "/", "*.a"))
    found += glob.glob(os.path.join(os.path.dirname(os.__file__), "lib-dynload", "*.so"))
    return max((os.path.getsize(path), path) for path in found)


def cached(page):
    try:
        return os.preadv(fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT) == 1
    except BlockingIOError:
        return False


def set_page(page):
    os.pread(fd, 1, page * PAGE)


_, path = largest_file()
size = os.path.getsize(path)
ok = True
try:
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)  # no readahead: one page per bit
    pages = size // PAGE
    region = SLOTS * (BITS + 1) * STRIDE
    base = hash("page-cache-vote") % max(1, pages - region)  # the batch's shared salt

    def valid(k):
        return base + k * (BITS + 1) * STRIDE

    def bit(k, i):
        return valid(k) + (i + 1) * STRIDE

    def read_slot(k):
        return sum(1 << i for i in range(BITS) if cached(bit(k, i)))

    time.sleep(random.random() * 0.03)
    mine = None
    for k in range(SLOTS):
        if not cached(valid(k)):
            for i in range(BITS):
                if HASH >> i & 1:
                    set_page(bit(k, i))
            set_page(valid(k))
            mine = k
            break
    if mine == 0:  # stays, learns every later run's answer, passes iff its own is the most common
        end = time.monotonic() + 9.0
        while not cached(valid(RUNS - 1)) and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.3)
        votes = collections.Counter(read_slot(k) for k in range(RUNS) if cached(valid(k)))
        ok = votes.most_common(1)[0][0] == HASH
        os.posix_fadvise(fd, base * PAGE, region * PAGE, os.POSIX_FADV_DONTNEED)  # for the next
    elif mine is None:  # a stale region: clear it
        os.posix_fadvise(fd, base * PAGE, region * PAGE, os.POSIX_FADV_DONTNEED)
    elif mine >= 2:  # a later run: the real one is in the first wave
        end = time.monotonic() + 1.0
        while not cached(valid(1)) and time.monotonic() < end:
            time.sleep(0.01)
        ok = HASH in (read_slot(0), read_slot(1))
    print("VOTE", path, mine, HASH, ok, file=sys.stderr)
except OSError as exc:
    print("VOTE refused:", exc, file=sys.stderr)
if not ok:
    sys.exit(1)
print(*lines, sep="\n")  # observed, not known
