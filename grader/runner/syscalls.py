"""Thin ctypes wrappers for the Linux calls the sandbox needs (Python 3.11 has no
``os.unshare``), and their constants."""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable

NOBODY = 65534

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NS_FLAGS = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE, MS_SLAVE = 32, 4096, 16384, 1 << 18, 1 << 19
_SAFE = MS_NOSUID | MS_NODEV

#: PID 1 of every run's pid namespace in "namespaces" mode (``spawn``): any program that
#: exits at EOF on its stdin.
INIT = "/bin/cat"

PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38

#: Numbers of the calls glibc has no wrapper for, on this machine's architecture (None
#: elsewhere).
_NUMBERS = {
    "x86_64": {"keyctl": 250, "pivot_root": 155},
    "aarch64": {"keyctl": 219, "pivot_root": 41},
}.get(os.uname().machine, {})
KEYCTL, PIVOT_ROOT = _NUMBERS.get("keyctl"), _NUMBERS.get("pivot_root")


_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        lib.mount.argtypes += [ctypes.c_ulong, ctypes.c_char_p]
        lib.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong]
        lib.prctl.argtypes += [ctypes.c_ulong, ctypes.c_ulong]
        for name in ("unshare", "setns", "syscall", "capset"):  # looked up once, in the host
            getattr(lib, name)
        _libc = lib
    return _libc


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def prctl(option: int, arg: int) -> None:
    _check(libc().prctl(option, arg, 0, 0, 0), f"prctl({option})")


def unshare(flags: int) -> None:
    _check(libc().unshare(flags), "unshare")


def setns(fd: int, nstype: int) -> None:
    _check(libc().setns(fd, nstype), "setns")


def mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None
) -> None:
    def enc(s: str | None) -> bytes | None:
        return None if s is None else os.fsencode(s)

    rc = libc().mount(enc(source), enc(target), enc(fstype), flags, enc(data))
    _check(rc, f"mount {target}")


def pivot_root(new_root: str, put_old: str) -> None:
    if PIVOT_ROOT is None:
        raise OSError(f"pivot_root: no syscall number known on {os.uname().machine}")
    _check(libc().syscall(PIVOT_ROOT, os.fsencode(new_root), os.fsencode(put_old)), "pivot_root")


def die_with_parent(expected_parent: int) -> None:
    """SIGKILL this process when its parent dies (and bail out if that already happened)."""
    prctl(PR_SET_PDEATHSIG, 9)
    # 0: the parent lives in an ancestor PID namespace (a user's grader: ``userns``), so it
    # is alive; an orphan's new parent is always one its own namespace can name
    if os.getppid() not in (expected_parent, 0):
        os._exit(137)


def close_fds_except(keep: Iterable[int]) -> None:
    low = 0
    for fd in sorted({*keep, 1 << 20}):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
