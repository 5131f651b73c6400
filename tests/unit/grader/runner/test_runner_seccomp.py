"""H15, H16 (tests/hostile/FINDINGS.md): runs cannot pass notes through the kernel.

Two runs alive at once voted on their behaviour through ``flock`` on a shared read-only file
(60 % full passes of EX-11-01 without an expected value), and ``SO_COOKIE`` carried a number
from one run to any later one. The run's seccomp filter (``grader.runner.seccomp``) refuses
socket cookies, leases, inotify, new namespaces and every page-cache probe; ordinary work
still runs. Locks are allowed: each run's files are inodes of its own overlay mount
(``grader.runner.view``), so the vote through a lock is tested in ``test_runner_view``.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits, RunRequest

from .helpers import server_for

TRY = r"""
import ctypes, errno, fcntl, json, mmap, os, socket, sqlite3, subprocess, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
shared = os.open(os.__file__, os.O_RDONLY)  # the same file, and inode, in every run
anonymous = mmap.mmap(-1, 4096)
page = ctypes.addressof(ctypes.c_char.from_buffer(anonymous))  # page-aligned, mapped
vec, range_, stat = (ctypes.create_string_buffer(n) for n in (1, 16, 40))
buffer = ctypes.create_string_buffer(1)
iov = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 1)
L, addr = ctypes.c_long, ctypes.addressof  # a syscall's arguments: whole registers
v2 = lambda nr, fd, flags: c("syscall", *map(L, (nr, fd, addr(iov), 1, 0, 0, flags)))
wfd = os.open("w.bin", os.O_WRONLY | os.O_CREAT, 0o600)

def outcome(action):
    try:
        action()
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))

def c(name, *args):
    if getattr(libc, name)(*args) < 0:
        raise OSError(ctypes.get_errno(), name)

def forked():
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 7

def thread():
    worker = threading.Thread(target=lambda: None)
    worker.start()
    worker.join()

found = {
    "flock": outcome(lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    "fcntl lock": outcome(lambda: fcntl.lockf(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    "fcntl query": outcome(lambda: fcntl.fcntl(shared, fcntl.F_GETLK, bytes(32))),
    "lease": outcome(lambda: fcntl.fcntl(shared, fcntl.F_SETLEASE, fcntl.F_RDLCK)),
    "directory notification": outcome(lambda: fcntl.fcntl(os.open(".", 0), fcntl.F_NOTIFY, 1)),
    "inotify": outcome(lambda: c("inotify_init1", 0)),
    "socket cookie": outcome(lambda: socket.socket().getsockopt(socket.SOL_SOCKET, 57, 8)),
    "user namespace": outcome(lambda: c("unshare", 0x10000000)),
    "fcntl flags": outcome(lambda: fcntl.fcntl(shared, fcntl.F_GETFL)),
    "socket buffer": outcome(lambda: socket.socket().getsockopt(socket.SOL_SOCKET, 7)),
    "fork": outcome(forked),
    "thread": outcome(thread),
    "subprocess": outcome(lambda: subprocess.run([sys.executable, "-c", ""], check=True)),
    "sqlite in memory": outcome(lambda: sqlite3.connect(":memory:").execute("create table t(x)")),
    "sqlite on a file": outcome(lambda: sqlite3.connect("t.db").execute("create table t(x)")),
    "evict a page": outcome(lambda: os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_DONTNEED)),
    "load a page": outcome(lambda: os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_WILLNEED)),
    "readahead": outcome(lambda: c("readahead", shared, ctypes.c_long(0), ctypes.c_size_t(4096))),
    "mincore": outcome(lambda: c("mincore", ctypes.c_void_p(page), ctypes.c_size_t(4096), vec)),
    "cachestat": outcome(lambda: c("syscall", *map(L, (451, shared, addr(range_), addr(stat), 0)))),
    "read if cached": outcome(lambda: os.preadv(shared, [bytearray(1)], 0, os.RWF_NOWAIT)),
    "read high priority": outcome(lambda: os.preadv(shared, [bytearray(1)], 0, os.RWF_HIPRI)),
    "write with flags": outcome(lambda: v2(328, wfd, 0x10)),  # RWF_APPEND
    "read": outcome(lambda: os.pread(shared, 1, 0)),
    "preadv2 without flags": outcome(lambda: v2(327, shared, 0)),
}
print(json.dumps(found))
"""
REFUSED = ("lease", "directory notification", "inotify", "socket cookie", "user namespace")
#: What the page cache holds is no one's business (the page-cache vote, issue 32).
REFUSED += ("evict a page", "load a page", "readahead", "mincore", "cachestat")
REFUSED += ("read if cached", "read high priority", "write with flags")
ALLOWED = ("fcntl flags", "socket buffer", "fork", "thread", "subprocess", "sqlite in memory")
ALLOWED += ("sqlite on a file", "read", "preadv2 without flags", "flock", "fcntl lock")
ALLOWED += ("fcntl query",)


@pytest.fixture(params=["namespaces", "rlimits"])
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(request.param)


def test_what_runs_could_signal_each_other_with_is_refused(server: ForkServer) -> None:
    result = server.run(RunRequest(TRY, "probe.py"))
    assert result.ok, result.stderr
    found = json.loads(result.stdout)
    assert {name: found[name] for name in REFUSED} == dict.fromkeys(REFUSED, "EPERM"), found
    assert {name: found[name] for name in ALLOWED} == dict.fromkeys(ALLOWED, "ok"), found


COOKIES = """
import socket
print([socket.socket().getsockopt(socket.SOL_SOCKET, 57, 8) for _ in range(2)])
"""


def test_no_run_can_draw_on_the_machines_socket_cookies(server: ForkServer) -> None:
    """Before the filter: two numbers in a row of a counter every run shares."""
    result = server.run(RunRequest(COOKIES, "probe.py"))
    assert not result.ok and "PermissionError" in result.stderr, result.stdout


SET_BITS = """
import os
fd = os.open({path!r}, os.O_RDONLY)
for page in {pages!r}:
    os.pread(fd, 1, page * 4096)  # loads the page: a bit, set
print("set")
"""
READ_BITS = """
import errno, os
fd = os.open({path!r}, os.O_RDONLY)
found = []
for page in {pages!r}:
    try:
        found.append(os.preadv(fd, [bytearray(1)], page * 4096, os.RWF_NOWAIT))
    except OSError as exc:
        found.append(errno.errorcode[exc.errno])
print(found)
"""


def _large_visible_file() -> str:
    """The largest file of the Python installation: every run can read it."""
    sizes = []
    for folder, _, names in os.walk(sys.base_prefix):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                sizes.append((os.path.getsize(path), path))
    return max(sizes)[1]


def test_a_page_one_run_loads_cannot_be_read_as_a_bit_by_the_next(server: ForkServer) -> None:
    """The page-cache vote (issue 32): a run loads pages of a large shared file (allowed: it
    is a read), and the next run asks which are cached without waiting for the disk. The
    host sees the bits set; the next run is refused the question."""
    path = _large_visible_file()
    pages = sorted(random.SystemRandom().sample(range(os.path.getsize(path) // 4096), 8))
    limits = Limits(wall_seconds=20)
    setter = server.run(RunRequest(SET_BITS.format(path=path, pages=pages), "a.py", limits=limits))
    assert setter.ok and setter.stdout == "set\n", setter.stderr
    fd = os.open(path, os.O_RDONLY)
    try:  # the host may ask: the attack's first half works
        assert [os.preadv(fd, [bytearray(1)], p * 4096, os.RWF_NOWAIT) for p in pages] == [1] * 8
    finally:
        os.close(fd)
    reader = server.run(RunRequest(READ_BITS.format(path=path, pages=pages), "b.py", limits=limits))
    assert reader.ok, reader.stderr
    assert reader.stdout == f"{['EPERM'] * 8}\n"
