"""The process tree of one run, and who reports its truthful exit status.

"namespaces"::

    host (root) --fork--> A: unshare(mnt|pid|net|ipc|uts), waits for B
                           \\--fork--> B: PID 1 of the new pid ns (root): mounts, waits for C,
                                          writes C's wait status + rusage on the status pipe
                                          \\--fork--> C: prelude, hide, drop to nobody, student

    The host kills A on timeout; B has PR_SET_PDEATHSIG(SIGKILL) and when B (PID 1) dies the
    kernel kills every process of the namespace.

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
    host = os.getpid()
    group, scratch = housing
    workdir = None if mode == "namespaces" else tempfile.mkdtemp(prefix="run-", dir=scratch)
    lifeline = os.pipe()
    pid = os.fork()
    if pid == 0:
        for fd in reads:
            os.close(fd)
        forget()
        if mode == "namespaces":
            _guarded(writes[3], lambda: _ns_top(box, writes, hide, plan, host, lifeline))
        assert workdir is not None
        _guarded(writes[3], lambda: _supervisor(box, writes, workdir, host, drop, group))
    for fd in (*writes, *lifeline):
        os.close(fd)
    return Launched(pid, reads[0], reads[1], reads[2], reads[3], workdir)


def _guarded(stat_w: int, body: Callable[[], object]) -> NoReturn:
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        body()
    except BaseException:
        write_status(stat_w, {"setup_error": traceback.format_exc(), "stage": "setup"})
    finally:
        os._exit(child.SETUP_FAILED)


def _ns_top(
    box: list[RunRequest],
    fds: tuple[int, int, int, int],
    hide: Sequence[str],
    plan: dict[str, list[str]],
    host: int,
    lifeline: tuple[int, int],
) -> NoReturn:
    sandbox.die_with_parent(host)
    sandbox.close_fds_except({2, *fds, *lifeline, *passed_fds(box)})
    sandbox.unshare(sandbox.NS_FLAGS)
    init = os.fork()
    if init == 0:
        _guarded(fds[3], lambda: _ns_init(box, fds, hide, plan, lifeline))
    sandbox.close_fds_except({2, lifeline[1]})
    _, status = os.waitpid(init, 0)
    os._exit(_mirror(status))


def _ns_init(
    box: list[RunRequest],
    fds: tuple[int, int, int, int],
    hide: Sequence[str],
    plan: dict[str, list[str]],
    lifeline: tuple[int, int],
) -> NoReturn:
    os.close(lifeline[1])
    sandbox.prctl(sandbox.PR_SET_PDEATHSIG, signal.SIGKILL)
    if select.select([lifeline[0]], [], [], 0)[0]:  # EOF: A died before PDEATHSIG was armed
        os._exit(137)
    os.close(lifeline[0])
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


def _mirror(status: int) -> int:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    return 128 + (os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0)


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
