"""What a run may see: the allow-list of host paths behind the run's file-system view
(``view`` mounts it): the interpreter and its prefixes, the packages loaded, the libraries
they load, a few files of /etc and data trees, each with the links on the way to it.

Worked out in the host, after the preload (``housing.host_layout``).
"""

from __future__ import annotations

import contextlib
import os
import sys

from grader.runner import elfdeps

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
        if isinstance(path, str) and not any(under(path, p) for p in prefixes):
            wanted.add(_top_level(module.__name__, path))
    mapped = {p for p in _mapped_files() if os.path.isfile(p)}
    wanted |= mapped
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    dynload = os.path.join(sys.base_exec_prefix, "lib", version, "lib-dynload")
    modules = [os.path.join(dynload, n) for n in entries(dynload) if n.endswith(".so")]
    wanted |= elfdeps.needed([*modules, *(m for m in mapped if ".so" in m)])
    wanted |= elfdeps.found(BY_NAME)
    wanted |= {p for p in (*ETC_FILES, *DATA_TREES) if os.path.lexists(p)}
    found: set[str] = set()
    for path in wanted:
        found |= _resolved(os.path.abspath(path))
    # never a whole file system, nor what the run gets fresh (or never) anyway
    return {p for p in found if p != "/" and not any(under(p, d) for d in _NOT_FROM_HOST)}


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


def under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def entries(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []
