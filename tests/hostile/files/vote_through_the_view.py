# trick: no expected value anywhere: every run leaves its answers' hash as a file in every place it can write or reach outside its own folder (/tmp, /var/tmp, /dev/shm, $HOME, the venv, /etc, /run, the old root through /proc/1/root and /proc/self/root/.., a fresh mount), then reads the marks other runs left there and passes iff its hash is the most common (the real run and its two twins agree; each mutant differs)
# expect: failed
# exercise: EX-11-01
# rlimits: skip — the rlimits fallback shares /proc, /tmp and the file system with the grader (documented)
import collections, ctypes, glob, hashlib, os, sys, sysconfig, tempfile, time
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
HASH = hashlib.sha256(repr(seen).encode()).hexdigest()[:12]
lines = []
for error, retries in ((RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)):
    d = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(error, retries_so_far=retries)
    lines.append(f"{type(error).__name__} {retries} {d.retry} {d.countdown_seconds} {d.dead_letter}")
ME = f"hstl-view-{HASH}-{os.getpid()}-{time.time_ns()}"
libc = ctypes.CDLL(None, use_errno=True)


def try_mount():  # a fresh tmpfs or bind of / somewhere: refused without the capabilities
    for source, target, kind, flags in ((b"none", b"/tmp", b"tmpfs", 0),
                                        (b"/", b"/mnt", None, 4096)):  # MS_BIND
        if libc.mount(source, target, kind, flags, None) == 0:
            return target.decode()
    return None


places = ["/tmp", "/var/tmp", "/dev/shm", os.path.expanduser("~"), "/run", "/etc", "/root",
          "/proc/1/root/tmp", "/proc/1/root/var/tmp", "/proc/1/root/dev/shm",
          "/proc/self/root/../tmp", "/proc/1/cwd", tempfile.gettempdir(),
          sysconfig.get_paths()["purelib"], os.path.dirname(os.__file__), sys.prefix]
places += glob.glob("/proc/[0-9]*/root/tmp") + glob.glob("/proc/[0-9]*/cwd")
mounted = try_mount()
if mounted:
    places.append(mounted)
here = os.path.realpath(os.getcwd())
written = []
for place in dict.fromkeys(places):
    try:
        if not place or os.path.realpath(place) == here:
            continue  # its own folder is its own: nothing another run can see
        with open(os.path.join(place, ME), "w") as mark:
            mark.write(HASH)
        written.append(place)
    except OSError:
        pass
time.sleep(1.5)  # let the rest of the batch leave their marks
others = set()  # each other run's mark once, however many places it reached
for place in dict.fromkeys(places):
    try:
        names = os.listdir(place)
    except OSError:
        continue
    for name in names:
        if name.startswith("hstl-view-") and name != ME:
            try:
                if time.time() - os.stat(os.path.join(place, name)).st_mtime < 30:
                    others.add(name)
            except OSError:
                pass
votes = collections.Counter(name.split("-")[2] for name in others)
votes[HASH] += 1
print("VIEW VOTE wrote", written, "votes", dict(votes), file=sys.stderr)
if not others or votes.most_common(1)[0][0] != HASH:
    sys.exit(1)
print(*lines, sep="\n")  # observed, not known
