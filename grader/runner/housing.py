"""Where a host's runs live: the isolation mode, the preload, the runs' file-system layout,
and in "rlimits" mode their cgroups and scratch directory (so nothing outlives a run).

Worked out once per host, or once per master for every host it forks (``master_main``).
"""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
from collections.abc import Collection

from grader.runner import cgroups, reach, sandbox, spawn, userns, view
from grader.runner.model import RunnerError

#: The runs' file-system view ("namespaces" only) and whether they drop to nobody.
Layout = tuple[view.View | None, bool]


def host_layout(mode: str) -> Layout:
    """The runs' file-system view and whether they drop to nobody (worked out once, after
    the preload; a master works it out for every host it forks). "namespaces": this process
    moves to a mount namespace of its own, where the view's staging layers live."""
    if mode == "namespaces":
        return view.build(reach.allowed_paths()), True
    # rlimits mode as root: run the student as nobody when nobody can reach the interpreter
    # (only this mode needs the paths: ~10 ms a master, on a one-shot check's critical path)
    drop = os.geteuid() == 0 and not sandbox.unreachable_for_nobody(sandbox.needed_paths())
    return None, drop


class Housing:
    """rlimits: the host's cgroup (None where cgroup v2 is not writable) and the scratch
    directory holding the runs' workdirs (0711: a run dropped to nobody reaches its own).
    In "namespaces" mode a run's pid namespace and tmpfs already do all this: no-ops."""

    def __init__(self, mode: str, groups: cgroups.HostGroups | None, scratch: str | None):
        self.mode, self.groups, self.scratch = mode, groups, scratch

    @classmethod
    def create(cls, mode: str) -> Housing:
        if mode != "rlimits":
            return cls(mode, None, None)
        scratch = tempfile.mkdtemp(prefix=f"grader-host-{os.getpid()}-")
        os.chmod(scratch, 0o711)
        return cls(mode, cgroups.HostGroups.create(), scratch)

    def run_group(self, rid: int) -> str | None:
        return self.groups.run(rid) if self.groups else None

    def end_run(self, group: str | None, active: Collection[int]) -> None:
        """The run's cgroup is killed, then whatever was re-parented to the host (a
        subreaper) and is no ``active`` run's supervisor: always, since a student with the
        host's uid can forge its supervisor's report and kill it."""
        if self.groups and group:
            self.groups.end_run(group)
        spawn.sweep(os.getpid(), exclude=active)

    def release(self) -> None:
        """At exit: nothing of any run survives the host, nor any of its files."""
        if self.mode == "rlimits":
            if self.groups:
                self.groups.close()
            spawn.sweep(os.getpid())
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)

    @property
    def cleanup(self) -> dict[str, str]:
        """What the client removes if the host dies before ``release`` (see client)."""
        found = {"cgroup": self.groups.base if self.groups else None, "scratch": self.scratch}
        return {key: value for key, value in found.items() if value}


def preload(entry: str) -> None:
    """``"pkg.module"`` is imported; ``"pkg.module:function"`` is imported and called."""
    module_name, _, function_name = entry.partition(":")
    module = importlib.import_module(module_name)
    if function_name:
        getattr(module, function_name)()


def choose_isolation(requested: str) -> str:
    """The mode this process's runs get. "namespaces" not as root: this process becomes root
    of a user namespace of its own first (``userns``), so call it before starting a thread."""
    if requested == "rlimits":
        return "rlimits"
    reason = sandbox.namespaces_unavailable()
    if reason is None:
        if os.geteuid() != 0:
            userns.enter()
        return "namespaces"
    if requested == "namespaces":
        raise RunnerError(f"isolation='namespaces' is not available: {reason}")
    return "rlimits"
