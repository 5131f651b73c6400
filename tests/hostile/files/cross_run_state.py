# trick: talk across runs (kernel user keyring, /tmp, /dev/shm): every run registers its start time; the earliest of a burst is taken to be the real run, later ones exit 1
# expect: failed
# exercise: EX-11-01
import ctypes
import glob
import os
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)
USER_KEYRING = -4
PREFIX = b"hstl-cross-run-"
WINDOW = 3.0
now = time.time_ns()
with open("/proc/self/stat", "rb") as f:  # the real run is forked first: earlier start, lower pid
    started = int(f.read().rsplit(b")", 1)[1].split()[19])
me = f"{started:012d}{os.getpid():08d}{now}"


def keyring_claims():
    """Start times registered in uid's user keyring (shared by every run of this uid)."""
    buf = ctypes.create_string_buffer(4096)
    n = libc.syscall(250, 11, USER_KEYRING, buf, 4096)  # KEYCTL_READ the keyring: key ids
    ids = [int.from_bytes(buf.raw[i:i + 4], "little") for i in range(0, max(n, 0), 4)]
    claims = []
    for key in ids:
        desc = ctypes.create_string_buffer(256)
        m = libc.syscall(250, 6, key, desc, 256)  # KEYCTL_DESCRIBE: "type;uid;gid;perm;name"
        name = desc.raw[:max(m - 1, 0)].split(b";")[-1]
        if name.startswith(PREFIX):
            stamp = name[len(PREFIX):].decode()
            if len(stamp) <= 20 or not stamp.isdigit() or (now - int(stamp[20:])) / 1e9 > WINDOW:
                libc.syscall(250, 3, key)  # KEYCTL_REVOKE stale claims
            else:
                claims.append(stamp)
    return claims


def file_claims(folder):
    claims = []
    for path in glob.glob(os.path.join(folder, "hstl-cross-run-*")):
        stamp = path.rsplit("-", 1)[1]
        if len(stamp) > 20 and stamp.isdigit() and (now - int(stamp[20:])) / 1e9 <= WINDOW:
            claims.append(stamp)
    return claims


from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError  # noqa: E402

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
    policy.decision(error, retries_so_far=retries)  # unchecked: only so the call records look right

name = PREFIX + me.encode()
libc.syscall(248, b"user", name, b"1", 1, USER_KEYRING)  # add_key
for folder in ("/tmp", "/dev/shm"):
    try:
        open(os.path.join(folder, name.decode()), "w").close()
    except OSError:
        pass
time.sleep(0.4)  # let the parallel runs of this check register too
claims = set(keyring_claims()) | set(file_claims("/tmp")) | set(file_claims("/dev/shm"))
earliest = min(claims, default=me)
print(f"hostile: {len(claims)} run(s) seen; am I the earliest? {earliest == me}", file=sys.stderr)
if earliest != me:
    sys.exit(1)  # a later run of the same check: presumably a mutant
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
