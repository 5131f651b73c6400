"""Run as an ordinary user (``test_as_a_user``): the view's properties, through the runner.

Prints one JSON object: what a pair of runs holding and looking for locks saw, what the
run's root holds, what touching its devices did, what it reaches of its PID 1, what a read
of a file of the view printed (the test watches its access time), and how SQLite locked
inside one run.
"""

import json
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))  # the course tree, for tests.*

from grader.runner import ForkServer, Limits, RunRequest
from tests.support.lock_probes import HOLD, LOOK

LIMITS = Limits(wall_seconds=20)
SHARED = ("os.__file__", "'/etc/passwd'", "'/etc/ld.so.cache'", "'/dev/null'", "'/dev/zero'")
#: ``turns``, the attack on the user's turn lock (held by this very grader while the run
#: runs): a run that could open it could stall every grader of the user, or forge the
#: holder's name that another grader prints.
LOOK_AROUND = """
import glob, json, os
print(json.dumps({"uid": os.getuid(), "root": sorted(os.listdir("/")),
                  "dev": sorted(os.listdir("/dev")), "null": open("/dev/null", "w").write("x"),
                  "etc": sorted(os.listdir("/etc")),
                  "turns": sorted(glob.glob("/tmp/grader-*") + glob.glob("/tmp/*/devices.lock"))}))
"""
#: The attack: PID 1 (``cat``) is the user's own uid on the machine here, as the student is,
#: but it holds the capabilities of the grader's user namespace: its memory would let the
#: student out of the seccomp filter.
PID_1 = """
import json, os
found = {}
for name in ("mem", "maps", "environ", "root", "cwd", "exe", "fd/0"):
    try:
        if name in ("root", "cwd", "exe", "fd/0"):
            found[name] = os.readlink(f"/proc/1/{name}")
        else:
            with open(f"/proc/1/{name}", "r+b" if name == "mem" else "rb") as f:
                found[name] = len(f.read(16))
    except OSError as exc:
        found[name] = type(exc).__name__
found["fd"] = sorted(os.listdir("/proc/1/fd"))
print(json.dumps(found))
"""
#: The attack: the device nodes are the machine's here, and 0666: setting their times to
#: now (``utime(path, None)`` needs only write access) would leave a bit on the machine for
#: any later run. Bound read-only, they refuse it.
TOUCH = """
import os
out = []
for name in ("null", "zero", "full", "random", "urandom"):
    try:
        os.utime(f"/dev/{name}", None)
        out.append("touched")
    except OSError as exc:
        out.append(exc.strerror)
print(out)
"""
READ_IT = """
with open({path!r}, "rb") as f:
    print(len(f.read()))
"""
SQLITE = """
import sqlite3
first = sqlite3.connect("shared.db", timeout=0)
first.execute("CREATE TABLE t (x)")
first.execute("BEGIN IMMEDIATE")
first.execute("INSERT INTO t VALUES (1)")
second = sqlite3.connect("shared.db", timeout=0)
try:
    second.execute("BEGIN IMMEDIATE")
    print("both got in")
except sqlite3.OperationalError as exc:
    print(exc)
"""


#: The attack on the end of a turn: the run leaves a process that holds a lock on
#: ``/dev/null``, has closed every pipe of the run (so the run's output ends with its top
#: process) and has much memory, which the kernel frees before it closes that process's
#: descriptors; the looker on the other host polls from its first instant. With the run's
#: end reported when its top process was reaped, the looker saw the lock held in 3 of 4
#: tries; the zygote reports it once the run's PID 1 is reaped (``zygote``, ``turns``).
HEAVY_HOLDER = """
import fcntl, os, time
ready_r, ready_w = os.pipe()
if os.fork() == 0:
    os.setsid()
    fd = os.open("/dev/null", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    for other in range(1024):
        if other not in (fd, ready_w):
            try:
                os.close(other)
            except OSError:
                pass
    ballast = bytearray(600 << 20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    os.write(ready_w, b"x")
    os.close(ready_w)
    time.sleep(30)
os.read(ready_r, 1)
print("left a heavy holder", flush=True)
"""
POLL = """
import fcntl, os, time
fd, seen, end = os.open("/dev/null", os.O_RDONLY), 0, time.monotonic() + 1.0
while time.monotonic() < end:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        seen += 1
print("held" if seen else "free")
"""


def _two_hosts(holder: str, looker: str, wait: float) -> str:
    """The attack on two hosts of one user (a batch's ``--jobs 2``, or a check beside it):
    the lock holder on one, the looker on the other, sent ``wait`` s later. Each host runs
    one run at a time; across hosts, runs take turns (``grader.runner.turns``)."""
    found: dict[str, str] = {}

    def run(name: str, server: ForkServer, source: str) -> None:
        done = server.run(RunRequest(source, "probe.py", limits=LIMITS))
        found[name] = done.stdout + done.stderr

    with ForkServer() as first, ForkServer() as second:
        hold = threading.Thread(target=run, args=("hold", first, holder))
        hold.start()
        threading.Event().wait(wait)
        run("look", second, looker)
        hold.join()
    return found["hold"] + found["look"]


def main() -> None:
    shared = ", ".join(SHARED)
    found: dict[str, object] = {"uid": os.geteuid()}
    with ForkServer() as server:
        found["isolation"] = server.isolation
        hold, look = server.run_many(
            [
                RunRequest(HOLD.format(shared=shared), "probe.py", limits=LIMITS),
                RunRequest(LOOK.format(shared=shared), "probe.py", limits=LIMITS),
            ],
            max_parallel=2,
        )
        found["hold"], found["look"] = hold.stdout, look.stdout + look.stderr
        around = server.run(RunRequest(LOOK_AROUND, "probe.py", limits=LIMITS))
        found["around"] = json.loads(around.stdout) if around.ok else around.stderr
        path = os.path.join(os.path.dirname(os.__file__), "this.py")  # its atime: the test's
        read = server.run(RunRequest(READ_IT.format(path=path), "probe.py", limits=LIMITS))
        found["read"] = read.stdout + read.stderr
        touch = server.run(RunRequest(TOUCH, "probe.py", limits=LIMITS))
        found["touch"] = touch.stdout + touch.stderr
        pid_1 = server.run(RunRequest(PID_1, "probe.py", limits=LIMITS))
        found["pid_1"] = json.loads(pid_1.stdout) if pid_1.ok else pid_1.stderr
        sqlite = server.run(RunRequest(SQLITE, "probe.py", limits=LIMITS))
        found["sqlite"] = sqlite.stdout + sqlite.stderr
    found["two_hosts"] = _two_hosts(HOLD.format(shared=shared), LOOK.format(shared=shared), 0.5)
    found["heavy_holder"] = [_two_hosts(HEAVY_HOLDER, POLL, 0.2) for _ in range(3)]
    json.dump(found, sys.stdout)


main()
