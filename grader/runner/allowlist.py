"""The run's system calls as an allow-list, compiled by libseccomp into the BPF the child loads.

Default deny: any call not listed gets ``EPERM`` (``GRADER_SECCOMP_AUDIT=1`` in the host's
environment makes it kill the run instead, and the kernel logs the call to its audit log:
the test path that proves honest work never meets the default). The list is what CPython,
the preloaded modules and SQLite use while honest submissions and the lessons' probe cells
run (derived with ``strace -f -c`` over ``tests/e2e/files/corpus``, then tested:
``tests/unit/grader/runner/test_runner_allowlist.py``). Each group, and why, is in
``SECURITY.md``.

A thin ctypes binding of our own rather than ``pyseccomp``: five functions of libseccomp are
used, once, in the host (``prepare``); the run only loads the exported program with ``prctl``
as before, so no binding code runs in the student's process, and no new dependency is
needed where libseccomp is absent (``compile_policy`` returns None and ``seccomp`` keeps its
hand-assembled filter).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
from collections.abc import Sequence

from grader.runner.spare import AUDIT_VARIABLE

_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ATTR_ACT_BADARCH, _ATTR_CTL_OPTIMIZE = 2, 8
_CMP_NE, _CMP_EQ, _CMP_MASKED_EQ = 1, 4, 7


def _errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


def _names(text: str) -> list[str]:
    return text.split()


#: Allowed whatever their arguments, by group (SECURITY.md has the same table).
GROUPS: dict[str, list[str]] = {
    "memory": _names("""
        brk mmap munmap mprotect mremap msync membarrier
    """),
    "files, by descriptor": _names("""
        read write readv writev pread64 pwrite64 preadv pwritev lseek close close_range dup
        dup2 dup3 flock fstat newfstatat statx stat lstat fstatfs statfs ftruncate fsync fdatasync
        fchmod fchown getdents64 sendfile copy_file_range splice tee ioctl pipe pipe2
        memfd_create eventfd2 fallocate
    """),
    "files, by name (in the run's own mount namespace)": _names("""
        open openat openat2 access faccessat faccessat2 readlink readlinkat getcwd chdir
        fchdir mkdir mkdirat rmdir unlink unlinkat rename renameat renameat2 link linkat
        symlink symlinkat chmod fchmodat chown lchown fchownat utimensat truncate umask
        creat mknodat getxattr lgetxattr fgetxattr listxattr flistxattr
    """),
    "waiting and polling": _names("""
        poll ppoll select pselect6 epoll_create epoll_create1 epoll_ctl epoll_wait
        epoll_pwait epoll_pwait2 futex futex_waitv nanosleep clock_nanosleep sched_yield
        pause timerfd_create timerfd_settime timerfd_gettime
    """),
    "time and identity": _names("""
        clock_gettime clock_getres gettimeofday time getpid getppid gettid getuid geteuid
        getgid getegid getresuid getresgid getgroups getpgid getpgrp getsid setsid setpgid
        uname sysinfo getrandom getrusage times getpriority sched_getaffinity sched_getparam
        sched_getscheduler getcpu getrlimit prlimit64 setrlimit
    """),
    "processes and threads (in the run's own pid namespace)": _names("""
        fork vfork execve execveat exit exit_group wait4 waitid set_tid_address
        set_robust_list get_robust_list rseq arch_prctl prctl kill tgkill tkill pidfd_open
        pidfd_send_signal sigaltstack rt_sigaction rt_sigprocmask rt_sigreturn rt_sigpending
        rt_sigsuspend rt_sigtimedwait rt_sigqueueinfo alarm setitimer getitimer
    """),
    "sockets (no network in the run's namespace)": _names("""
        socket socketpair connect bind listen accept accept4 sendto recvfrom sendmsg recvmsg
        sendmmsg recvmmsg shutdown getsockname getpeername setsockopt
    """),
}

#: fcntl commands allowed: descriptors, flags and record locks (F_GETLK, F_SETLK, F_SETLKW and
#: their open-file-description forms), never leases or directory notifications. A lock is
#: the run's own: every file it can open is an inode of its own overlay mount (``view``).
FCNTL_COMMANDS = (0, 1, 2, 3, 4, 5, 6, 7, 36, 37, 38, 1030, 1031, 1032, 1033, 1034)
#: madvise advice allowed: never one that loads or evicts a file's pages (WILLNEED 3, COLD 20,
#: PAGEOUT 21, POPULATE_READ 22).
MADVISE_ADVICE = (0, 1, 2, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)
_CLONE_NEW = 0x7E020080  # CLONE_NEWTIME, NS, CGROUP, UTS, IPC, USER, PID, NET
_SOL_SOCKET, _SO_COOKIE = 1, 57


class _ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


class _Seccomp:
    def __init__(self, library: ctypes.CDLL) -> None:
        self.lib = library
        library.seccomp_init.restype = ctypes.c_void_p
        library.seccomp_init.argtypes = [ctypes.c_uint32]
        library.seccomp_release.argtypes = [ctypes.c_void_p]
        library.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
        library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        library.seccomp_rule_add_array.argtypes = [
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.POINTER(_ArgCmp),
        ]
        library.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]

    def number(self, name: str) -> int | None:
        number = int(self.lib.seccomp_syscall_resolve_name(name.encode()))
        return None if number < 0 else number

    def rule(
        self, ctx: int, action: int, name: str, *conditions: tuple[int, int, int, int]
    ) -> None:
        number = self.number(name)
        if number is None:  # not a call of this kernel's ABI: nothing to allow
            return
        array = (_ArgCmp * max(1, len(conditions)))(*(_ArgCmp(*c) for c in conditions))
        rc = self.lib.seccomp_rule_add_array(ctx, action, number, len(conditions), array)
        if rc != 0:
            raise OSError(-rc, f"seccomp rule for {name} refused: {os.strerror(-rc)}")


def _library() -> _Seccomp | None:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        return _Seccomp(ctypes.CDLL(name))
    except OSError:
        return None


def audit() -> bool:
    """The test path: a call off the list kills the run, logged by the kernel (audit)."""
    return os.environ.get(AUDIT_VARIABLE) == "1"


def compile_policy(*, kill_unlisted: bool = False) -> bytes | None:
    """The allow-list as classic BPF (``struct sock_filter`` array), or None without
    libseccomp. ``kill_unlisted``: the default action kills the process (audit mode)."""
    seccomp = _library()
    if seccomp is None:
        return None
    default = _KILL_PROCESS if kill_unlisted else _errno(errno.EPERM)
    ctx = seccomp.lib.seccomp_init(default)
    if not ctx:
        raise OSError("seccomp_init failed")
    try:
        seccomp.lib.seccomp_attr_set(ctx, _ATTR_ACT_BADARCH, _errno(errno.EPERM))
        # a binary tree of syscall numbers: a few comparisons per call, not one per rule
        seccomp.lib.seccomp_attr_set(ctx, _ATTR_CTL_OPTIMIZE, 2)
        for names in GROUPS.values():
            for name in names:
                seccomp.rule(ctx, _ALLOW, name)
        _conditional_rules(seccomp, ctx)
        return _export(seccomp, ctx)
    finally:
        seccomp.lib.seccomp_release(ctx)


def _conditional_rules(seccomp: _Seccomp, ctx: int) -> None:
    seccomp.rule(ctx, _ALLOW, "clone", (0, _CMP_MASKED_EQ, _CLONE_NEW, 0))  # no new namespace
    seccomp.rule(ctx, _errno(errno.ENOSYS), "clone3")  # flags out of reach: the C library
    for command in FCNTL_COMMANDS:  # falls back to clone
        seccomp.rule(ctx, _ALLOW, "fcntl", (1, _CMP_EQ, command, 0))
    for advice in MADVISE_ADVICE:
        seccomp.rule(ctx, _ALLOW, "madvise", (2, _CMP_EQ, advice, 0))
    seccomp.rule(ctx, _ALLOW, "getsockopt", (1, _CMP_NE, _SOL_SOCKET, 0))  # never SO_COOKIE:
    seccomp.rule(ctx, _ALLOW, "getsockopt", (2, _CMP_NE, _SO_COOKIE, 0))  # a machine counter
    for name in ("preadv2", "pwritev2"):  # without flags: RWF_NOWAIT tells a cached page
        seccomp.rule(ctx, _ALLOW, name, (5, _CMP_EQ, 0, 0))


def _export(seccomp: _Seccomp, ctx: int) -> bytes:
    fd = os.memfd_create("seccomp-bpf", os.MFD_CLOEXEC)
    try:
        rc = seccomp.lib.seccomp_export_bpf(ctx, fd)
        if rc != 0:
            raise OSError(-rc, f"seccomp_export_bpf: {os.strerror(-rc)}")
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def allowed_names() -> Sequence[str]:
    """Every name the list allows (conditionally or not), for the docs and the tests."""
    names = [name for group in GROUPS.values() for name in group]
    return [*names, "clone", "fcntl", "madvise", "getsockopt", "preadv2", "pwritev2"]
