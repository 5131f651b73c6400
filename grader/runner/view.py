"""The run's file-system view, as an allow-list: the interpreter, the packages it may import,
the libraries they load, a few files of /etc, fresh devices, /proc, /tmp and its own working
folder; nothing else exists for it.

How (Linux, "namespaces" mode, as root of the machine or of the grader's own user namespace,
``userns``):

* ``build``, once per master (or stand-alone host), in the grader's own private mount
  namespace: a small tmpfs holds the *staging layers*, one per host directory the view
  reaches into (its anchor: for root, each mount point the view reaches, ``/`` first; for a
  user, each highest directory with no mount below it). A layer holds one overlayfs
  whiteout for every entry on the way to an allowed path that is not itself allowed, and
  the synthetic files (``/etc/passwd`` knows only root and nobody) and the directories
  where the run gets fresh mounts (/dev, /proc, /tmp, /var/tmp) that fall in its anchor;
  for a user, a base layer holds the rest (top folders, links, small files copied).
* ``enter``, per run, in the run's fresh mount namespace: read-only overlays of the layers on
  their anchors become the run's root (``pivot_root``; the old root is put under /proc and
  covered by the run's own procfs), with a fresh /dev (its own device nodes, or for a user
  the machine's, bound read-only), devpts, /proc and tmpfs /tmp, /var/tmp, /dev/shm.

Why overlays rather than bind mounts: every file of an overlay mount is an inode of that
mount, so a lock one run takes on a shared file (``flock``, ``fcntl``) is invisible to every
other run, while locks among the run's own processes work as SQLite documents. (A user's
device nodes are the machine's inodes: a user's runs take turns, ``turns``.) The
anchors' file systems are remounted read-only first in the run's namespace, so reading a
file never updates its access time on the host (no bit left for a later run).
Page-cache probes are refused by the system-call allow-list (``allowlist``).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterable
from dataclasses import dataclass

from grader.runner import userns
from grader.runner.reach import FRESH_DIRS, STAGING_AT, entries, under
from grader.runner.syscalls import (
    _SAFE,
    CLONE_NEWNS,
    MS_BIND,
    MS_NODEV,
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

#: Synthetic files: what a run needs to know about users and names, and nothing more.
SYNTHETIC = {
    "/etc/passwd": "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
    "/etc/group": "root:x:0:\nnogroup:x:65534:\n",
    "/etc/hosts": "127.0.0.1 localhost\n::1 localhost\n",
    "/etc/nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
}
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
    """What ``enter`` mounts. Each layer is (anchor, staging directory): the staging
    directory's whiteouts and synthetic files over the host directory ``anchor``, mounted
    on ``root`` + anchor, parents first. As root the anchors are the mount points the view
    reaches, ``/`` first. In a user namespace (a user's grader, a rootless container:
    ``userns.inside``) the machine's mounts are locked and an overlay cannot take a
    directory with a mount below it: each anchor is then the highest
    directory with none, and ``base`` (the run's top folders, links and copied files, over
    ``empty``) is the run's root beneath them; the host's mounts ``sealed`` are made
    read-only first; a user's devices are the machine's, bound (``bound_devices``)."""

    layers: tuple[tuple[str, str], ...]
    root: str
    base: str | None
    empty: str
    sealed: tuple[str, ...]
    bound_devices: bool


# -- the staging layers (in the host, once) ---------------------------------------------------


def _mount_points() -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        points = [line.split()[4].encode().decode("unicode_escape") for line in f]
    return sorted(set(points), key=len, reverse=True)


def build(allowed: Iterable[str]) -> View:
    """In the grader's own process, as root (of the machine, or of its own user namespace):
    leave the machine's mount namespace (a private copy that still receives the machine's
    new mounts) and write the staging layers."""
    unshare(CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_SLAVE, None)
    mount("tmpfs", STAGING_AT, "tmpfs", _SAFE | MS_NOEXEC, "size=4m,mode=0700")
    points = _mount_points()
    locked = userns.inside()  # the machine's mounts are locked for a user (``userns``)
    anchors: dict[str, set[str]] = {} if locked else {"/": set()}
    base = os.path.join(STAGING_AT, "base")
    pending = sorted(allowed)
    while pending:
        path = pending.pop()
        anchor = _anchor(path, points) if locked else _mount_of(path, points)
        if anchor is not None:
            anchors.setdefault(anchor, set()).add(path)
        elif os.path.islink(path):
            _place(base, path)
            os.symlink(os.readlink(path), base + path)
        elif os.path.isfile(path):
            _place(base, path)
            shutil.copyfile(path, base + path)
            os.chmod(base + path, 0o644)
        elif os.path.isdir(path):  # a mount lies below it: its entries one by one
            os.makedirs(base + path, 0o755, exist_ok=True)
            pending += [os.path.join(path, name) for name in entries(path)]
    if not locked:  # a mount point must show in the layer below it
        for point in [anchor for anchor in anchors if anchor != "/"]:
            while point != "/":
                below = _mount_of(os.path.dirname(point), points)
                anchors.setdefault(below, set()).add(point)
                point = below
    for path in (*FRESH_DIRS, *SYNTHETIC):
        owners = [anchor for anchor in anchors if under(path, anchor)]
        if owners:  # kept in that layer (a fresh dir is mounted over in each run)
            anchors[max(owners, key=len)].add(path)
        elif path in SYNTHETIC:
            _place(base, path)
            _write(base + path, SYNTHETIC[path])
        else:
            os.makedirs(base + path, 0o755, exist_ok=True)
    layers = []
    for index, (anchor, paths) in enumerate(sorted(anchors.items())):
        staging = os.path.join(STAGING_AT, f"layer{index}")
        os.mkdir(staging, 0o755)
        _whiteouts(anchor, staging, paths)
        if locked:
            os.makedirs(base + anchor, 0o755, exist_ok=True)  # where its overlay goes
        layers.append((anchor, staging))
    empty, root = os.path.join(STAGING_AT, "empty"), os.path.join(STAGING_AT, "root")
    os.mkdir(empty, 0o755)
    os.mkdir(root, 0o755)
    sealed = sorted({_mount_of(anchor, points) for anchor, _ in layers}, key=len)
    return View(tuple(layers), root, base if locked else None, empty, tuple(sealed), locked)


def _anchor(path: str, points: list[str]) -> str | None:
    """For a user: the shortest directory on the way to ``path`` (``path`` included, ``/``
    never) with no mount point below it, which an overlay may take as its lower layer
    though the machine's mounts are locked. None if there is none."""
    current = ""
    for part in path.strip("/").split("/"):
        current += "/" + part
        if os.path.islink(current) or not os.path.isdir(current):
            return None
        if not any(under(p, current) and p != current for p in points):
            return current
    return None


def _mount_of(path: str, points: list[str]) -> str:
    return next(p for p in points if under(path, p))  # longest first


def _place(base: str, path: str) -> None:
    os.makedirs(base + os.path.dirname(path), 0o755, exist_ok=True)


def _write(at: str, text: str) -> None:
    with open(at, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(at, 0o644)


def _whiteouts(point: str, staging: str, paths: set[str]) -> None:
    keep: dict[str, set[str]] = {}
    whole = {os.path.relpath(p, point) for p in paths}
    for relative in whole:
        parts = [] if relative == "." else relative.split("/")
        for index, part in enumerate(parts):
            keep.setdefault("/".join(parts[:index]), set()).add(part)
    for folder, names in keep.items():
        if "." in whole or (folder and any(under(folder, w) for w in whole)):
            continue  # inside a tree allowed whole (the anchor itself, for a user's mount)
        target = os.path.join(staging, folder)
        os.makedirs(target, 0o755, exist_ok=True)
        for name in entries(os.path.join(point, folder)):
            if name not in names:
                os.mknod(os.path.join(target, name), stat.S_IFCHR | 0o600, 0)  # a whiteout
    for path in (*FRESH_DIRS, *SYNTHETIC):
        if not under(path, point):
            continue
        at = os.path.join(staging, os.path.relpath(path, point))
        if path in SYNTHETIC:
            _place(staging, "/" + os.path.relpath(path, point))
            _write(at, SYNTHETIC[path])
        else:
            os.makedirs(at, 0o755, exist_ok=True)


# -- the run's root (in the run, as root in its fresh namespaces) -----------------------------


def enter(view: View, tmpfs_bytes: int) -> None:
    """Make the view the run's root; afterwards nothing outside it can be named."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    for point in view.sealed:
        # read-only first: the overlay's copy of the lower mount then never updates atimes
        mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _remount_flags(point), None)
    root = view.root
    if view.base is not None:
        lower = f"lowerdir={_escaped(view.base)}:{_escaped(view.empty)}"
        mount("overlay", root, "overlay", MS_RDONLY | _SAFE, lower)
    for anchor, staging in view.layers:  # parents first
        options = f"lowerdir={_escaped(staging)}:{_escaped(anchor)}"
        mount("overlay", root + anchor.rstrip("/"), "overlay", MS_RDONLY | _SAFE, options)
    _fresh_dev(root + "/dev", tmpfs_bytes, view.bound_devices)
    tmp = f"size={tmpfs_bytes},nr_inodes=16384,mode=1777"
    for folder in ("/tmp", "/var/tmp"):
        mount("tmpfs", root + folder, "tmpfs", _SAFE, tmp)
    os.chdir(root)
    # The old root goes under /proc, and the run's own /proc covers it: no path leads there.
    # (Unmounting it instead costs the run an RCU grace period: 1 to 30 ms of wall time.)
    pivot_root(".", "proc")
    os.chdir("/")
    mount("proc", "/proc", "proc", _SAFE | MS_NOEXEC, None)


def _fresh_dev(dev: str, tmpfs_bytes: int, bound: bool) -> None:
    mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755")
    for name, (major, minor) in _DEVICES.items():
        path = f"{dev}/{name}"
        if bound:  # a user cannot make a device node: the machine's, read-only (no atime)
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666))
            mount(f"/dev/{name}", path, None, MS_BIND, None)
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | _remount_flags(path)
            mount(None, path, None, flags, None)
        else:
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
    names = ("layer", "empty", "root")
    layer, empty, root = (os.path.join(STAGING_AT, name) for name in names)
    for folder in (layer, empty, root):
        os.mkdir(folder)
    mount("overlay", root, "overlay", MS_RDONLY | _SAFE, f"lowerdir={layer}:{empty}")


def _remount_flags(point: str) -> int:
    """The flags a bind remount must keep (the kernel refuses to drop a locked one): nosuid,
    nodev, noexec and the access-time rule (``ST_*`` bits, the same as ``MS_*`` but
    relatime's)."""
    flags = os.statvfs(point).f_flag
    kept = flags & (MS_NOSUID | MS_NODEV | MS_NOEXEC | _ST_NOATIME | _ST_NODIRATIME)
    if flags & _ST_RELATIME:
        return kept | _MS_RELATIME
    return kept if flags & _ST_NOATIME else kept | _MS_STRICTATIME


_ST_NOATIME, _ST_NODIRATIME, _ST_RELATIME = 1024, 2048, 4096
_MS_RELATIME, _MS_STRICTATIME = 1 << 21, 1 << 24


def _escaped(path: str) -> str:
    """overlayfs splits its options on ``,`` and layers on ``:``; a backslash escapes them."""
    return path.replace("\\", "\\\\").replace(",", "\\,").replace(":", "\\:")
