"""One cgroup v2 directory per host and one per run, so that a run's processes die together.

Used in "rlimits" mode, where a run shares the machine's pid namespace: a student process
can double-fork, change session, hop to a new pid faster than a ``/proc`` sweep can see it,
or get its supervisor killed, and still be in its run's cgroup. ``cgroup.kill`` (Linux
5.14) then kills every process in it at once. The supervisor joins its run's cgroup before
it forks the student, so nothing the student starts is ever outside it (unless a student
with the host's uid, root, moves itself out: see the security model).

Best effort: where cgroup v2 is not mounted or not writable, ``HostGroups.create`` returns
None and the subreaper sweep (``spawn.sweep``) is all there is.
"""

from __future__ import annotations

import contextlib
import os
import time

#: Name of the per-host directory under the host's own cgroup.
PREFIX = "grader-host-"


def _cgroup2_mount() -> str | None:
    """Where cgroup v2 is mounted (``/sys/fs/cgroup`` or, on hybrid hosts, ``.../unified``)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        left, sep, right = line.partition(" - ")
        if sep and right.split(" ", 1)[0] == "cgroup2":
            return left.split(" ")[4].replace("\\040", " ")
    return None


def _own_cgroup() -> str | None:
    try:
        with open("/proc/self/cgroup", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("0::"):
                    return line[3:].strip()
    except OSError:
        pass
    return None


class HostGroups:
    """The host's cgroup directory; ``run(rid)`` makes a run's child directory in it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self._leftover: list[str] = []

    @classmethod
    def create(cls) -> HostGroups | None:
        mount, own = _cgroup2_mount(), _own_cgroup()
        if mount is None or own is None:
            return None
        base = os.path.join(mount, own.lstrip("/"), f"{PREFIX}{os.getpid()}")
        try:
            os.mkdir(base, 0o755)
        except FileExistsError:
            pass
        except OSError:
            return None
        if not os.path.exists(os.path.join(base, "cgroup.kill")):
            _remove(base)
            return None
        return cls(base)

    def run(self, rid: int) -> str | None:
        path = os.path.join(self.base, f"run-{rid}")
        try:
            os.mkdir(path, 0o755)
        except OSError:
            return None
        return path

    def end_run(self, path: str) -> None:
        """Kill everything in the run's cgroup and remove it (later if it is still busy)."""
        kill(path)
        if not _remove(path, patience=0.05):
            self._leftover.append(path)
        self._leftover = [p for p in self._leftover if not _remove(p)]

    def close(self) -> None:
        kill(self.base)
        clean(self.base)


def join(path: str | None) -> bool:
    """Move the calling process into the cgroup at ``path`` (True when it worked)."""
    if path is None:
        return False
    try:
        with open(os.path.join(path, "cgroup.procs"), "w", encoding="ascii") as f:
            f.write("0")
    except OSError:
        return False
    return True


def kill(path: str) -> None:
    with (
        contextlib.suppress(OSError),
        open(os.path.join(path, "cgroup.kill"), "w", encoding="ascii") as f,
    ):
        f.write("1")


def clean(base: str) -> None:
    """Remove a host's cgroup directory and its runs' (after ``kill``); used by the client
    too, when the host itself was killed before it could clean up."""
    if not os.path.isdir(base) or not os.path.basename(base).startswith(PREFIX):
        return
    kill(base)
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            if name.startswith("run-"):
                _remove(os.path.join(base, name), patience=1.0)
    _remove(base, patience=1.0)


def _remove(path: str, patience: float = 0.0) -> bool:
    """rmdir, retrying while the killed processes are still exiting (EBUSY)."""
    deadline = time.monotonic() + patience
    while True:
        try:
            os.rmdir(path)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
