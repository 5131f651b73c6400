"""The run's file-system view, as an allow-list: the interpreter, the packages it may import,
the libraries they load, a few files of /etc, fresh devices, /proc, /tmp and its own working
folder; nothing else exists for it.

How (Linux, "namespaces" mode, as root):

* ``build``, once per master (or stand-alone host), in the grader's own private mount
  namespace: a small tmpfs, the *staging layer*, holds one overlayfs whiteout for every
  entry of every directory on the way to an allowed path that is not itself allowed, the
  synthetic files (``/etc/passwd`` knows only root and nobody), and empty opaque
  directories where the run gets fresh mounts (/dev, /proc, /tmp, /var/tmp).
* ``enter``, per run, in the run's fresh mount namespace: a read-only overlay of the staging
  layer on the host's file system becomes the run's root (``pivot_root``; the old root is put
  under /proc and covered by the run's own procfs), with a fresh /dev (its own device nodes),
  devpts, /proc and tmpfs /tmp, /var/tmp, /dev/shm.

Why an overlay rather than bind mounts: every file of an overlay mount is an inode of that
mount, so a lock one run takes on a shared file (``flock``, ``fcntl``) is invisible to every
other run, while locks among the run's own processes work as SQLite documents. The
staging layer's lower file system is remounted read-only first in the run's namespace, so
reading a file never updates its access time on the host (no bit left for a later run).
Page-cache probes are refused by the system-call allow-list (``allowlist``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from grader.runner import elfdeps
from grader.runner.syscalls import (
    _SAFE,
    CLONE_NEWNS,
    MS_BIND,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    MS_SLAVE,
    mount,
    pivot_root,
    unshare,
)

#: Where the staging layers live, in the grader's own private mount namespace: the machine's
#: /run (local services' sockets) is of no use to the grader's processes, and a run's view
#: has none.
STAGING_AT = "/run"
#: Directories of the view that get fresh mounts in every run.
FRESH_DIRS = ("/dev", "/proc", "/tmp", "/var/tmp")
#: Files of /etc a run may read; the others do not exist for it.
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime")
#: Whole trees a run may read besides the interpreter's (time zones, the C.UTF-8 locale).
DATA_TREES = ("/usr/share/zoneinfo", "/usr/lib/locale/C.utf8")
#: Synthetic files: what a run needs to know about users and names, and nothing more.
SYNTHETIC = {
    "/etc/passwd": "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
    "/etc/group": "root:x:0:\nnogroup:x:65534:\n",
    "/etc/hosts": "127.0.0.1 localhost\n::1 localhost\n",
    "/etc/nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
}
#: Libraries loaded by name rather than by DT_NEEDED: by the C library itself (libgcc_s, to
#: unwind a cancelled thread) and by wheels, which may link the manylinux policy's system
#: libraries.
BY_NAME = (
    "libgcc_s.so.1",
    "libstdc++.so.6",
    "libm.so.6",
    "libdl.so.2",
    "librt.so.1",
    "libpthread.so.0",
    "libutil.so.1",
    "libresolv.so.2",
    "libz.so.1",
)
_DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}
_DEV_LINKS = {
    "fd": "/proc/self/fd",
    "stdin": "/proc/self/fd/0",
    "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2",
    "ptmx": "pts/ptmx",
}


@dataclass(frozen=True)
class View:
    """The staging layers, one per file system an allowed path lies on: (mount point on the
    host, staging directory), the root's first; and the empty directory the run's root is
    mounted on."""

    layers: tuple[tuple[str, str], ...]
    root: str


# -- what a run may see (in the host, after the preload) -------------------------------------


def allowed_paths() -> set[str]:
    """The interpreter and its prefixes, the top-level packages loaded from elsewhere, every
    file mapped into this process, the libraries the interpreter's extension modules load,
    and ``ETC_FILES``/``DATA_TREES``; each with the symbolic links on the way to it."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    wanted = {p for p in prefixes if os.path.isdir(p)}
    wanted.add(sys.executable)
    loader = elfdeps.interpreter(os.path.realpath(sys.executable))
    if loader:  # the path the kernel opens to execute the interpreter again
        wanted.add(loader)
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and not any(_under(path, p) for p in prefixes):
            wanted.add(_top_level(module.__name__, path))
    mapped = {p for p in _mapped_files() if os.path.isfile(p)}
    wanted |= mapped
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    dynload = os.path.join(sys.base_exec_prefix, "lib", version, "lib-dynload")
    modules = [os.path.join(dynload, n) for n in _listdir(dynload) if n.endswith(".so")]
    wanted |= elfdeps.needed([*modules, *(m for m in mapped if ".so" in m)])
    wanted |= elfdeps.found(BY_NAME)
    wanted |= {p for p in (*ETC_FILES, *DATA_TREES) if os.path.lexists(p)}
    found: set[str] = set()
    for path in wanted:
        found |= _resolved(os.path.abspath(path))
    # never a whole file system, nor what the run gets fresh (or never) anyway
    return {p for p in found if p != "/" and not any(_under(p, d) for d in _NOT_FROM_HOST)}


#: Paths never taken from the host: fresh in every run, or the grader's own staging.
_NOT_FROM_HOST = (*FRESH_DIRS, "/sys", "/dev/shm", STAGING_AT)


def _top_level(name: str, path: str) -> str:
    """A module's top-level package directory (or the plain module file itself)."""
    depth = name.count(".") + (1 if os.path.basename(path).startswith("__init__.") else 0)
    for _ in range(depth):
        path = os.path.dirname(path)
    return path


def _mapped_files() -> set[str]:
    found = set()
    with contextlib.suppress(OSError), open("/proc/self/maps", encoding="utf-8") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].startswith("/") and "(deleted)" not in fields[5]:
                found.add(fields[5].rstrip("\n"))
    return found


def _resolved(path: str, depth: int = 0) -> set[str]:
    """``path`` and every symbolic link met on the way to it (each link and its target)."""
    if depth > 16:
        return set()
    found: set[str] = set()
    current = "/"
    parts = [p for p in path.split("/") if p]
    for index, part in enumerate(parts):
        nxt = os.path.join(current, part)
        if os.path.islink(nxt):
            found.add(nxt)
            target = os.path.normpath(os.path.join(current, os.readlink(nxt)))
            rest = "/".join(parts[index + 1 :])
            return found | _resolved(os.path.join(target, rest) if rest else target, depth + 1)
        current = nxt
    if os.path.lexists(current):
        found.add(current)
    return found


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


# -- the staging layers (in the host, once) ---------------------------------------------------


def _mount_points() -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        points = [line.split()[4].encode().decode("unicode_escape") for line in f]
    return sorted(set(points), key=len, reverse=True)


def build(allowed: Iterable[str]) -> View:
    """In the grader's own process, as root: leave the machine's mount namespace (a private
    copy that still receives the machine's new mounts) and write the staging layers."""
    unshare(CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_SLAVE, None)
    mount("tmpfs", STAGING_AT, "tmpfs", _SAFE | MS_NOEXEC, "size=4m,mode=0700")
    points = _mount_points()
    by_fs: dict[str, set[str]] = {}
    for path in {*allowed, *FRESH_DIRS, *SYNTHETIC}:
        # fresh directories and synthetic files are the root layer's, whatever is mounted there
        own = path in FRESH_DIRS or path in SYNTHETIC
        point = "/" if own else next(p for p in points if _under(path, p))
        by_fs.setdefault(point, set()).add(path)
        while point != "/":  # the mount point itself must show in the layer below it
            below = next(p for p in points if p != point and _under(point, p))
            by_fs.setdefault(below, set()).add(point)
            point = below
    layers = []
    for index, (point, paths) in enumerate(sorted(by_fs.items(), key=lambda i: len(i[0]))):
        staging = os.path.join(STAGING_AT, f"layer{index}")
        os.mkdir(staging, 0o755)
        _whiteouts(point, staging, paths)
        layers.append((point, staging))
    root = os.path.join(STAGING_AT, "root")
    os.mkdir(root, 0o755)
    return View(tuple(layers), root)


def _whiteouts(point: str, staging: str, paths: set[str]) -> None:
    keep: dict[str, set[str]] = {}
    whole = {os.path.relpath(p, point) for p in paths}
    for relative in whole:
        parts = [] if relative == "." else relative.split("/")
        for index, part in enumerate(parts):
            keep.setdefault("/".join(parts[:index]), set()).add(part)
    for folder, names in keep.items():
        if folder and any(_under(folder, w) for w in whole if w != "."):
            continue  # inside a tree allowed whole
        target = os.path.join(staging, folder)
        os.makedirs(target, 0o755, exist_ok=True)
        for name in _listdir(os.path.join(point, folder)):
            if name not in names:
                os.mknod(os.path.join(target, name), stat.S_IFCHR | 0o600, 0)  # a whiteout
    for path in (*FRESH_DIRS, *SYNTHETIC):
        if not _under(path, point) or point != "/":
            continue
        at = os.path.join(staging, path.lstrip("/"))
        if path in SYNTHETIC:
            with open(at, "w", encoding="utf-8") as f:
                f.write(SYNTHETIC[path])
            os.chmod(at, 0o644)
        else:
            os.makedirs(at, 0o755, exist_ok=True)
            os.setxattr(at, "trusted.overlay.opaque", b"y")  # nothing of the host's shows


# -- the run's root (in the run, as root in its fresh namespaces) -----------------------------


def enter(view: View, tmpfs_bytes: int) -> None:
    """Make the view the run's root; afterwards nothing outside it can be named."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    for index, (point, staging) in enumerate(view.layers):
        # read-only first: the overlay's copy of the lower mount then never updates atimes
        mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _remount_flags(point), None)
        target = view.root if index == 0 else view.root + point
        options = f"lowerdir={_escaped(staging)}:{_escaped(point)}"
        mount("overlay", target, "overlay", MS_RDONLY | _SAFE, options)
    root = view.root
    _fresh_dev(root + "/dev", tmpfs_bytes)
    tmp = f"size={tmpfs_bytes},nr_inodes=16384,mode=1777"
    for folder in ("/tmp", "/var/tmp"):
        mount("tmpfs", root + folder, "tmpfs", _SAFE, tmp)
    os.chdir(root)
    # The old root goes under /proc, and the run's own /proc covers it: no path leads there.
    # (Unmounting it instead costs the run an RCU grace period: 1 to 30 ms of wall time.)
    pivot_root(".", "proc")
    os.chdir("/")
    mount("proc", "/proc", "proc", _SAFE | MS_NOEXEC, None)


def _fresh_dev(dev: str, tmpfs_bytes: int) -> None:
    mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755")
    for name, (major, minor) in _DEVICES.items():
        path = f"{dev}/{name}"
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
        os.chmod(path, 0o666)  # the umask took some bits
    for name, target in _DEV_LINKS.items():
        os.symlink(target, f"{dev}/{name}")
    os.mkdir(f"{dev}/pts", 0o755)
    os.mkdir(f"{dev}/shm", 0o1777)
    pts = "newinstance,ptmxmode=0666,mode=0620"
    mount("devpts", f"{dev}/pts", "devpts", MS_NOSUID | MS_NOEXEC, pts)
    shm = f"size={tmpfs_bytes},nr_inodes=16384,mode=1777"
    mount("tmpfs", f"{dev}/shm", "tmpfs", _SAFE, shm)
    mount(None, dev, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")


def probe() -> None:
    """In a fresh mount namespace: raise unless tmpfs and a read-only overlay can be mounted
    (``sandbox.namespaces_unavailable``)."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    mount("tmpfs", STAGING_AT, "tmpfs", _SAFE | MS_NOEXEC, "size=64k,mode=0700")
    layer, root = os.path.join(STAGING_AT, "layer"), os.path.join(STAGING_AT, "root")
    os.mkdir(layer)
    os.mkdir(root)
    mount("overlay", root, "overlay", MS_RDONLY | _SAFE, f"lowerdir={layer}:/")


def _remount_flags(point: str) -> int:
    """The flags a bind remount must keep (the kernel refuses to drop a locked one)."""
    flags = os.statvfs(point).f_flag
    return flags & (MS_NOSUID | 4 | MS_NOEXEC)  # ST_NOSUID, ST_NODEV, ST_NOEXEC


def _escaped(path: str) -> str:
    """overlayfs splits its options on ``,`` and layers on ``:``; a backslash escapes them."""
    return path.replace("\\", "\\\\").replace(",", "\\,").replace(":", "\\:")
