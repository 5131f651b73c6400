"""The run's seccomp filter: no syscall that lets runs signal each other through the kernel.

Where libseccomp is installed the filter is the allow-list of ``grader.runner.allowlist``,
compiled in the host; what follows describes the hand-assembled deny-list used without it
(x86-64 only), whose refusals the allow-list keeps.

Runs of one submission must not compare notes: if they could, they would vote on their
behaviour, and each would pass only when its answer is the one most of them give, without
the probe knowing any expected value (H15, ``tests/hostile/FINDINGS.md``: 60 % full
passes of EX-11-01 through ``flock`` on shared read-only files). Every run sees the same
installed files and the same kernel, so the filter refuses, with ``EPERM``:

* leases and directory notifications (``fcntl`` F_SETLEASE, F_NOTIFY). File locks are
  allowed: every file a run can open is an inode of the run's own overlay mount
  (``grader.runner.view``), so a lock is seen by the run's own processes only, and SQLite
  locks its files as it does on the student's machine;
* ``inotify`` and ``fanotify``: a run would see another run open a shared file;
* ``getsockopt(SO_COOKIE)``: it draws the next number of a machine-wide counter that a run
  can also advance, a message to any later run, even another student's (H16);
* every way to read or change what the page cache holds without timing it: ``fadvise64``
  (``DONTNEED`` evicts a page, ``WILLNEED`` loads one), ``readahead``, ``mincore``,
  ``cachestat``, and ``preadv2``/``pwritev2`` with any flag (``RWF_NOWAIT`` tells a cached
  page from one on disk); without flags they are ``preadv``/``pwritev``. Every run reads the
  same installed files through one page cache: a page one run loads or evicts is a bit any
  later run could read (the page-cache vote of issue 32);
* new namespaces (``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag; ``clone3``
  is answered ``ENOSYS``, so the C library falls back to ``clone``), and every syscall of
  another ABI (x32, i386), which this filter does not inspect.

x86-64 only: elsewhere ``install`` does nothing and says so (``False``).
"""

from __future__ import annotations

import ctypes
import errno
import functools
import platform

from grader.runner import allowlist
from grader.runner.syscalls import PR_SET_NO_NEW_PRIVS, libc, prctl

_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_SYSCALL_BIT = 0x40000000
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
# seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (low halves read)
_NR, _ARCH, _ARG1, _ARG2, _ARG0, _ARG5 = 0, 4, 24, 32, 16, 56
_LD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06

#: x86-64 syscall numbers refused outright.
_REFUSED = {
    "inotify_init": 253,
    "inotify_add_watch": 254,
    "inotify_init1": 294,
    "fanotify_init": 300,
    "unshare": 272,
    "setns": 308,
    "mincore": 27,
    "readahead": 187,
    "fadvise64": 221,
    "cachestat": 451,
}
_CLONE, _CLONE3, _FCNTL, _GETSOCKOPT = 56, 435, 72, 55
_PREADV2, _PWRITEV2 = 327, 328
#: fcntl commands refused: leases (F_SETLEASE, F_GETLEASE) and F_NOTIFY.
_FCNTL_LOCKS = (1024, 1025, 1026)
_CLONE_NEW = 0x7E020080  # CLONE_NEWTIME, NS, CGROUP, UTS, IPC, USER, PID, NET
_SOL_SOCKET, _SO_COOKIE = 1, 57


class _Filter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _assemble(lines: list[tuple[int, str | int, str | int, int] | str]) -> list[_Filter]:
    """``(code, jt, jf, k)`` with jumps to labels (``str`` lines), resolved forward."""
    labels: dict[str, int] = {}
    body: list[tuple[int, str | int, str | int, int]] = []
    for line in lines:
        if isinstance(line, str):
            labels[line] = len(body)
        else:
            body.append(line)

    def offset(at: int, to: str | int) -> int:
        return to if isinstance(to, int) else labels[to] - at - 1

    return [_Filter(c, offset(i, jt), offset(i, jf), k) for i, (c, jt, jf, k) in enumerate(body)]


def _lines() -> list[tuple[int, str | int, str | int, int] | str]:
    refuse: list[tuple[int, str | int, str | int, int] | str] = [
        (_JEQ, "deny", 0, number) for number in _REFUSED.values()
    ]
    return [
        (_LD, 0, 0, _ARCH),
        (_JEQ, 1, 0, _AUDIT_ARCH_X86_64),
        (_RET, 0, 0, _ERRNO | errno.EPERM),
        (_LD, 0, 0, _NR),
        (_JGE, "deny", 0, _X32_SYSCALL_BIT),
        *refuse,
        (_JEQ, "nosys", 0, _CLONE3),
        (_JEQ, "clone", 0, _CLONE),
        (_JEQ, "fcntl", 0, _FCNTL),
        (_JEQ, "getsockopt", 0, _GETSOCKOPT),
        (_JEQ, "rwf", 0, _PREADV2),
        (_JEQ, "rwf", 0, _PWRITEV2),
        (_RET, 0, 0, _ALLOW),
        "rwf",  # flags: the low half of the sixth argument (no RWF_* flag is above bit 31)
        (_LD, 0, 0, _ARG5),
        (_JEQ, 0, "deny", 0),
        (_LD, 0, 0, _ARG5 + 4),
        (_JEQ, "allow", "deny", 0),
        "clone",
        (_LD, 0, 0, _ARG0),
        (_JSET, "deny", 0, _CLONE_NEW),
        (_RET, 0, 0, _ALLOW),
        "fcntl",
        (_LD, 0, 0, _ARG1),
        *[(_JEQ, "deny", 0, command) for command in _FCNTL_LOCKS],
        (_RET, 0, 0, _ALLOW),
        "getsockopt",
        (_LD, 0, 0, _ARG1),
        (_JEQ, 0, "allow", _SOL_SOCKET),
        (_LD, 0, 0, _ARG2),
        (_JEQ, "deny", 0, _SO_COOKIE),
        "allow",
        (_RET, 0, 0, _ALLOW),
        "deny",
        (_RET, 0, 0, _ERRNO | errno.EPERM),
        "nosys",
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),
    ]


@functools.cache
def _program() -> tuple[_Program, ctypes.Array[_Filter]] | None:
    """The allow-list (``allowlist``, compiled by libseccomp) where libseccomp is installed;
    else, on x86-64, the hand-assembled deny-list above."""
    compiled = allowlist.compile_policy(kill_unlisted=allowlist.audit())
    if compiled is not None:
        count = len(compiled) // ctypes.sizeof(_Filter)
        array = (_Filter * count).from_buffer_copy(compiled)
        return _Program(count, array), array
    if platform.machine() != "x86_64":
        return None
    filters = _assemble(_lines())
    array = (_Filter * len(filters))(*filters)
    return _Program(len(filters), array), array


def policy() -> str:
    """Which filter runs get: "allow-list" or "deny-list" (or "none")."""
    program = _program()
    if program is None:
        return "none"
    return "allow-list" if allowlist.compile_policy() is not None else "deny-list"


def prepare() -> None:
    """In the host, before any fork and before its environment is scrubbed (the audit switch,
    ``allowlist.audit``): build the program (a run then writes to none of its pages)."""
    _program()


def install() -> bool:
    """Filter this process and all it starts (``PR_SET_NO_NEW_PRIVS`` first, as the kernel
    requires). False where the filter cannot be built (not x86-64); an ``OSError`` where the
    kernel refuses it."""
    built = _program()
    if built is None:
        return False
    program = built[0]
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    result = libc().prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0)
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"seccomp filter refused: {errno.errorcode.get(code, code)}")
    return True
