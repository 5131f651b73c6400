"""The run's file-system view: which host paths a run needs, and the mounts that make
everything else read-only, give it fresh /tmp-like dirs and cover the hidden paths.

``needed_paths`` / ``overlay_plan`` run in the host; ``prepare_mounts`` and ``hide`` run
as root in PID 1 of the fresh namespaces (see ``grader.runner.sandbox`` for the order).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterable, Sequence

from grader.runner.syscalls import (
    _SAFE,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    NOBODY,
    libc,
    mount,
)

#: Fresh writable tmpfs per run.
TMPFS_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
#: Covered by an empty read-only tmpfs: local services' unix sockets (trust-auth databases).
EMPTY_DIRS = ("/run",)


# -- which directories nobody needs to reach -----------------------------------------------


def _traversable(st: os.stat_result) -> bool:
    if st.st_uid == NOBODY:
        return bool(st.st_mode & 0o100)
    if st.st_gid == NOBODY:
        return bool(st.st_mode & 0o010)
    return bool(st.st_mode & 0o001)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def needed_paths() -> list[str]:
    """Directories the student's interpreter must read: sys.path, prefixes, loaded packages."""
    found: set[str] = set()
    candidates = [*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix]
    candidates.append(os.path.dirname(os.path.realpath(sys.executable)))
    for module in list(sys.modules.values()):
        spec_file = getattr(module, "__file__", None)
        if isinstance(spec_file, str):  # a package's parent, or a plain module's directory
            parent = os.path.dirname(spec_file)
            is_package = os.path.basename(spec_file).startswith("__init__.")
            candidates.append(os.path.dirname(parent) if is_package else parent)
    for entry in candidates:
        if not entry:
            continue
        real = os.path.realpath(entry)
        if os.path.isdir(real):
            found.add(real)
    result: list[str] = []
    for path in sorted(found):
        if not any(_under(path, kept) for kept in result):
            result.append(path)
    return result


def unreachable_for_nobody(paths: Sequence[str]) -> list[str]:
    """The paths that uid ``nobody`` could not traverse on the real filesystem."""
    blocked = []
    for path in paths:
        current = ""
        for part in path.strip("/").split("/"):
            current += "/" + part
            try:
                if not _traversable(os.stat(current)):
                    blocked.append(path)
                    break
            except OSError:
                break
    return blocked


def overlay_plan(paths: Sequence[str]) -> dict[str, list[str]]:
    """``{dir_to_cover_with_tmpfs: [paths to bind back inside it]}``.

    Covers the top-most ancestor that uid ``nobody`` cannot traverse (e.g. /root) and the
    per-run tmpfs dirs, re-exposing only the needed trees (read-only).
    """
    special = (*TMPFS_DIRS, *EMPTY_DIRS)
    plan: dict[str, list[str]] = {d: [] for d in special}
    for path in paths:
        if path == "/" or path in special:  # cannot re-expose a whole per-run directory
            continue
        covered = [d for d in special if _under(path, d)]
        if covered:
            plan[covered[0]].append(path)
            continue
        current = ""
        for part in path.strip("/").split("/")[:-1]:
            current += "/" + part
            try:
                if not _traversable(os.stat(current)):
                    plan.setdefault(current, []).append(path)
                    break
            except OSError:
                break
    return plan


# -- inside the namespace ---------------------------------------------------------------


def _mkdirs(path: str) -> None:
    current = ""
    for part in path.strip("/").split("/"):
        current += "/" + part
        if not os.path.isdir(current):
            os.mkdir(current)
            os.chmod(current, 0o755)


def _overlay(target: str, keep: Sequence[str], flags: int, options: str) -> None:
    fds = []
    for path in keep:
        with contextlib.suppress(OSError):  # gone since the host planned it: nothing to expose
            fds.append((path, os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)))
    mount("tmpfs", target, "tmpfs", flags & ~MS_RDONLY | _SAFE, options)
    for path, fd in fds:
        _mkdirs(path)
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC, None)
        mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _SAFE, None)
        os.close(fd)
    if flags & MS_RDONLY:
        mount(None, target, None, MS_REMOUNT | MS_RDONLY | _SAFE, options)


class _MountAttr(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in ("attr_set", "attr_clr", "propagation", "userns")]


def _all_read_only() -> None:
    attr = _MountAttr(1, 0, 0, 0)  # MOUNT_ATTR_RDONLY
    rc = libc().syscall(442, -100, b"/", 0x8000, ctypes.byref(attr), ctypes.c_size_t(32))
    if rc == 0:  # mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, ...) since Linux 5.12
        return
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        points = [line.split()[4] for line in f]
    for raw in points:
        point = raw.encode().decode("unicode_escape")
        try:
            st = os.statvfs(point)
        except OSError:
            continue
        keep = st.f_flag & (MS_NOSUID | MS_NODEV | MS_NOEXEC)
        with contextlib.suppress(OSError):
            mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | keep, None)


def prepare_mounts(plan: dict[str, list[str]], tmpfs_bytes: int) -> None:
    """Runs as root in PID 1 of the fresh namespaces, before the prelude."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    special = (*TMPFS_DIRS, *EMPTY_DIRS)
    for target, keep in plan.items():
        if target not in special:
            _overlay(target, keep, MS_RDONLY, "size=1m,mode=0755")
    _all_read_only()
    for target in special:
        if os.path.isdir(target) and not os.path.islink(target):
            if target in TMPFS_DIRS:
                options = f"size={tmpfs_bytes},nr_inodes=16384,mode=1777"
                _overlay(target, plan.get(target, []), 0, options)
            else:
                _overlay(target, plan.get(target, []), MS_RDONLY, "size=4k,mode=0755")
    try:  # ptys of this run only (a shared devpts would let runs open each other's ptys)
        mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,mode=0620")
    except OSError:
        mount("tmpfs", "/dev/pts", "tmpfs", MS_RDONLY | _SAFE | MS_NOEXEC, "size=4k,mode=0555")
    # if this fails the host's /proc stays visible (documented; pids there are not ours)
    with contextlib.suppress(OSError):
        mount("proc", "/proc", "proc", _SAFE | MS_NOEXEC, None)


def hide(paths: Iterable[str]) -> None:
    """Cover existing paths: a directory with an empty read-only tmpfs, a file with /dev/null."""
    for path in paths:
        real = os.path.realpath(path)
        if os.path.isdir(real):
            mount("tmpfs", real, "tmpfs", MS_RDONLY | _SAFE | MS_NOEXEC, "size=4k,mode=0555")
        elif os.path.exists(real):
            mount("/dev/null", real, None, MS_BIND, None)  # reads as empty, writes vanish
            mount(None, real, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, None)
