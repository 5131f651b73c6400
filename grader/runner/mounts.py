"""Which host paths a run's interpreter needs (``needed_paths``: whether uid ``nobody`` can
reach them decides the rlimits mode's privilege drop), and covering the hidden paths inside
the run's view (``hide``, as root in the run's fresh namespaces; see
``grader.runner.sandbox`` for the order and ``grader.runner.view`` for the view itself).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from grader.runner.syscalls import (
    _SAFE,
    MS_BIND,
    MS_NOEXEC,
    MS_NOSUID,
    MS_RDONLY,
    MS_REMOUNT,
    NOBODY,
    mount,
)

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


def hide(paths: Iterable[str]) -> None:
    """Cover existing paths: a directory with an empty read-only tmpfs, a file with /dev/null."""
    for path in paths:
        real = os.path.realpath(path)
        if os.path.isdir(real):
            mount("tmpfs", real, "tmpfs", MS_RDONLY | _SAFE | MS_NOEXEC, "size=4k,mode=0555")
        elif os.path.exists(real):
            mount("/dev/null", real, None, MS_BIND, None)  # reads as empty, writes vanish
            mount(None, real, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, None)
