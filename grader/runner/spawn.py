"""The process tree of one run, and who reports its truthful exit status.

"namespaces"::

    host (root): unshare(pid) for its next child only, fork, setns back to its own pid ns
      \\--fork--> B: PID 1 of the new pid ns (root): unshare(mnt|net|ipc|uts), mounts,
                    waits for C, writes C's wait status + rusage on the status pipe
                    \\--fork--> C: prelude, hide, drop to nobody, student

    The host kills B on timeout; B has PR_SET_PDEATHSIG(SIGKILL) and when B (PID 1) dies the
    kernel kills every process of the namespace. The host holds the write end of B's
    lifeline pipe until the run is over: B sees EOF there if the host died before B armed
    PDEATHSIG (as PID 1 it cannot ask ``getppid``). One fork fewer than an intermediate
    process doing the unshare: each fork and exit of a preloaded host costs 1 to 2 ms.

"rlimits"::

    host (subreaper) --fork--> S: joins the run's cgroup, child subreaper, waits for C,
                                  kills C's leftovers, writes C's status
                                  \\--fork--> C: setsid, prelude, rlimits, student

    When S is gone the host kills the run's cgroup and sweeps its own children (it is a
    subreaper too), whatever S reported: S can be forged and killed by the student.

Every forked branch ends in ``os._exit``: nothing may ever return into the host's loop.
"""

from __future__ import annotations

import contextlib
import functools
import os
import select
import signal
import tempfile
import traceback
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NoReturn

from grader.runner import cgroups, child, sandbox
from grader.runner.model import RunRequest
from grader.runner.protocol import write_status

#: The student's working directory inside the namespace (on the run's fresh /tmp tmpfs).
NS_WORKDIR = "/tmp/work"


@dataclass
class Launched:
    top: int
    out_r: int
    err_r: int
    chan_r: int
    stat_r: int
    workdir: str | None  # host-side directory to delete afterwards ("rlimits" only)
    #: The write end of B's lifeline ("namespaces"): the host closes it when the run is over.
    lifeline: int | None = None


def launch(
    box: list[RunRequest],
    *,
    mode: str,
    hide: Sequence[str],
    plan: dict[str, list[str]],
    drop: bool = True,
    forget: Callable[[], None] = lambda: None,
    housing: tuple[str | None, str | None] = (None, None),
) -> Launched:
    """Fork the run's process tree. ``box`` holds the one request (see ``child.main``);
    ``forget`` runs first thing in the child to drop the host's other state (other runs'
    requests) from the copy of the host's memory that the student will inherit.
    ``housing`` ("rlimits"): the run's cgroup, which the supervisor joins before anything
    else, and the directory its workdir goes in."""
    pipes = [os.pipe() for _ in range(4)]
    reads = [r for r, _ in pipes]
    writes = (pipes[0][1], pipes[1][1], pipes[2][1], pipes[3][1])
    if mode == "namespaces":
        return _launch_namespaced(box, reads, writes, hide, plan, forget)
    host = os.getpid()
    group, scratch = housing
    workdir = tempfile.mkdtemp(prefix="run-", dir=scratch)
    pid = os.fork()
    if pid == 0:
        for fd in reads:
            os.close(fd)
        forget()
        _guarded(writes[3], lambda: _supervisor(box, writes, workdir, host, drop, group))
    for fd in writes:
        os.close(fd)
    return Launched(pid, reads[0], reads[1], reads[2], reads[3], workdir)


def _launch_namespaced(
    box: list[RunRequest],
    reads: list[int],
    writes: tuple[int, int, int, int],
    hide: Sequence[str],
    plan: dict[str, list[str]],
    forget: Callable[[], None],
) -> Launched:
    """Fork B straight into a fresh pid namespace (see the module docstring)."""
    lifeline = os.pipe()
    sandbox.unshare(sandbox.CLONE_NEWPID)  # for our next child only
    try:
        pid = os.fork()
    except BaseException:
        _back_to_own_pid_namespace()
        for fd in lifeline:
            os.close(fd)
        raise
    if pid == 0:
        for fd in reads:
            os.close(fd)
        forget()
        _guarded(writes[3], lambda: _ns_init(box, writes, hide, plan, lifeline))
    _back_to_own_pid_namespace()
    for fd in (*writes, lifeline[0]):
        os.close(fd)
    return Launched(pid, reads[0], reads[1], reads[2], reads[3], None, lifeline[1])


@functools.cache
def _own_pid_namespace() -> int:
    """The host's own pid namespace, opened on first use (its unshare(CLONE_NEWPID) moves
    only its children, never the host itself)."""
    return os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)


def _back_to_own_pid_namespace() -> None:
    """The host's later children (the next run's B) must not land in this run's namespace."""
    sandbox.setns(_own_pid_namespace(), sandbox.CLONE_NEWPID)


def _guarded(stat_w: int, body: Callable[[], object]) -> NoReturn:
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        body()
    except BaseException:
        write_status(stat_w, {"setup_error": traceback.format_exc(), "stage": "setup"})
    finally:
        os._exit(child.SETUP_FAILED)


def _ns_init(
    box: list[RunRequest],
    fds: tuple[int, int, int, int],
    hide: Sequence[str],
    plan: dict[str, list[str]],
    lifeline: tuple[int, int],
) -> NoReturn:
    sandbox.close_fds_except({2, *fds, lifeline[0], *passed_fds(box)})  # the host's, too
    sandbox.prctl(sandbox.PR_SET_PDEATHSIG, signal.SIGKILL)
    if select.select([lifeline[0]], [], [], 0)[0]:  # EOF: the host died before PDEATHSIG
        os._exit(137)
    os.close(lifeline[0])
    sandbox.unshare(sandbox.NS_FLAGS & ~sandbox.CLONE_NEWPID)  # already PID 1 of its own
    sandbox.prepare_mounts(plan, box[0].limits.tmpfs_bytes)
    student = os.fork()
    if student == 0:
        child.main(box, mode="namespaces", fds=fds, hide=hide, workdir=NS_WORKDIR, drop=True)
    for fd in (*fds[:3], *passed_fds(box)):
        os.close(fd)
    _report_exit(fds[3], student)
    os._exit(0)  # PID 1 exits: the kernel kills whatever the student left running


def _supervisor(
    box: list[RunRequest],
    fds: tuple[int, int, int, int],
    workdir: str,
    host: int,
    drop: bool,
    group: str | None,
) -> NoReturn:
    sandbox.die_with_parent(host)
    cgroups.join(group)  # before the student exists: all it starts is in the run's cgroup
    sandbox.close_fds_except({2, *fds, *passed_fds(box)})
    sandbox.prctl(sandbox.PR_SET_CHILD_SUBREAPER, 1)
    student = os.fork()
    if student == 0:
        try:
            os.setsid()
        finally:
            child.main(box, mode="rlimits", fds=fds, hide=(), workdir=workdir, drop=drop)
    for fd in (*fds[:3], *passed_fds(box)):
        os.close(fd)
    write_status(fds[3], {"started": student})
    _report_exit(fds[3], student, cleanup=True)
    os._exit(0)


def passed_fds(box: list[RunRequest]) -> tuple[int, ...]:
    """The descriptor the caller passed for this run (``passfd``): kept for the student."""
    fd = box[0].pass_fd if box else None
    return () if fd is None else (fd,)


def _report_exit(stat_w: int, student: int, cleanup: bool = False) -> None:
    """Reap everything until the student's main process is gone; report its status."""
    while True:
        pid, status, usage = os.wait4(-1, 0)
        if pid == student:
            break
    if cleanup:
        with contextlib.suppress(OSError):
            os.killpg(student, signal.SIGKILL)
        sweep(os.getpid())
    write_status(
        stat_w,
        {
            "exit": status,
            "cpu": usage.ru_utime + usage.ru_stime,
            "maxrss": usage.ru_maxrss * 1024,
        },
    )


def children_of(parent: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == parent:
            found.append(int(name))
    return found


def sweep(parent: int, exclude: Collection[int] = ()) -> int:
    """SIGKILL and reap every child of ``parent`` (a subreaper) until none is left."""
    killed = 0
    for _ in range(500):
        kids = [pid for pid in children_of(parent) if pid not in exclude]
        if not kids:
            break
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        for pid in kids:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
    return killed
