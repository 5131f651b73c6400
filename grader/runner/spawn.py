"""The process tree of one run, and who reports its truthful exit status.

"namespaces"::

    zygote (root; ``grader.runner.zygote``, forked by the host before its first run):
    unshare(pid|net|mnt) (its next children are born in those), then
      \\--posix_spawn--> I: ``cat`` (PID 1 of the new pid ns): reads the lifeline until EOF
      \\--fork--> C (PID 2): setsid, reads its request, unshare(ipc|uts), mounts, prelude,
                  hide, drop to nobody, student
    and setns back to its own namespaces.

    C is the zygote's own child: its exit status and rusage are the zygote's ``wait4``,
    which nothing in the run can forge, sent to the host. When C is reaped, or the host asks
    to end the run early, the zygote kills I, and the kernel kills every process of the
    namespace with it. I holds only the read end of its lifeline, whose write end only the
    zygote holds: if the zygote dies (it dies with the host), I reads EOF, exits, and the
    run dies with it (I's own exit completes once C's zombie is reaped by its new parent).
    I is a small exec'd program, not a copy of the preloaded heap: forking and tearing down
    such a copy costs 2 to 3 ms per run.

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
import dataclasses
import functools
import json
import os
import signal
import tempfile
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import NoReturn

from grader.runner import cgroups, child, sandbox, view
from grader.runner.model import RunRequest
from grader.runner.passfd import Pipes, close_pipes
from grader.runner.protocol import write_status
from grader.runner.syscalls import CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWPID
from grader.runner.view import View

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
    #: The write end of I's lifeline ("namespaces"): the host closes it when the run is over.
    lifeline: int | None = None
    #: I, PID 1 of the run's pid namespace ("namespaces"); ``top`` is then C itself.
    init: int | None = None


def launch(
    box: list[RunRequest],
    pipes: Pipes,
    *,
    drop: bool = True,
    forget: Callable[[], None] = lambda: None,
    housing: tuple[str | None, str | None] = (None, None),
) -> Launched:
    """ "rlimits": fork the run's process tree ("namespaces" runs are the zygote's:
    ``launch_from_pipe``). ``box`` holds the one request (see ``child.main``);
    ``forget`` runs first thing in the child to drop the host's other state (other runs'
    requests) from the copy of the host's memory that the student will inherit.
    ``housing`` ("rlimits"): the run's cgroup, which the supervisor joins before anything
    else, and the directory its workdir goes in. ``pipes`` (out, err, chan, stat) are the
    run's: their read ends are the host's once this returns; if it raises, all are closed."""
    reads = [r for r, _ in pipes]
    writes = (pipes[0][1], pipes[1][1], pipes[2][1], pipes[3][1])
    try:
        host = os.getpid()
        group, scratch = housing
        workdir = tempfile.mkdtemp(prefix="run-", dir=scratch)
        pid = os.fork()
    except BaseException:
        close_pipes(pipes)
        raise
    if pid == 0:
        for fd in reads:
            os.close(fd)
        forget()
        _guarded(writes[3], lambda: _supervisor(box, writes, workdir, host, drop, group))
    for fd in writes:
        os.close(fd)
    return Launched(pid, reads[0], reads[1], reads[2], reads[3], workdir)


def launch_from_pipe(
    request_r: int,
    writes: tuple[int, int, int, int],
    passed: int | None,
    hide: Sequence[str],
    plan: View | None,
    forget: Callable[[], None] = lambda: None,
) -> Launched:
    """In the zygote: start I, then fork C beside it, in fresh namespaces (see the module
    docstring). C reads its request from ``request_r``; ``writes`` (out, err, chan, stat)
    and ``passed`` are C's; all three are closed here once C has them. ``forget`` runs first
    thing in C: it drops the zygote's table of runs. I's pid is never a local here either:
    pids count up, so C must not find its I's, nor other runs' (H14)."""
    lifeline = os.pipe()
    init: list[int] = []
    runs = (*writes, request_r, *(() if passed is None else (passed,)))  # C's, not I's
    _own_namespaces()  # opened before the first unshare, which moves our net and mnt
    sandbox.unshare(_HOST_SIDE)  # our own pid ns stays; our next children move
    try:
        init.append(_spawn_init(lifeline[0], runs))
        pid = os.fork()
    except BaseException:
        _back_to_own_namespaces()
        if init:
            _end_init(init[0])
        for fd in lifeline:
            os.close(fd)
        raise
    if pid == 0:
        init.clear()
        forget()
        for fd in lifeline:
            os.close(fd)
        _guarded(writes[3], lambda: _ns_student(request_r, writes, passed, hide, plan))
    _back_to_own_namespaces()
    for fd in (*runs, lifeline[0]):
        os.close(fd)
    return Launched(pid, -1, -1, -1, -1, None, lifeline[1], init[0])


def read_request(fd: int) -> RunRequest:
    """In C: its request, read whole from its pipe (the host closes the other end)."""
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    os.close(fd)
    return RunRequest.from_json(json.loads(b"".join(chunks)))


#: The namespaces the host enters for an instant per run, so that I is born in them too
#: (I's /proc entries then show the run's own mounts and sockets, never the machine's).
_HOST_SIDE = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS


def _spawn_init(lifeline_r: int, runs: Sequence[int]) -> int:
    """I: its stdin the lifeline, its output /dev/null, its own session, no other fd (the
    host's descriptors are close-on-exec, a passed one is made so on receipt, and ``runs``,
    the run's descriptors the zygote received, are closed)."""
    return os.posix_spawn(
        sandbox.INIT,
        ["cat"],
        {},
        file_actions=[
            (os.POSIX_SPAWN_DUP2, lifeline_r, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, 1, 2),
            *((os.POSIX_SPAWN_CLOSE, fd) for fd in runs),
        ],
        setsid=True,
    )


def _end_init(init: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(init, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(init, 0)


@functools.cache
def _own_namespaces() -> tuple[tuple[int, int], ...]:
    """The zygote's own namespaces and working directory, opened on first use."""
    flags = {"mnt": CLONE_NEWNS, "net": CLONE_NEWNET, "pid": CLONE_NEWPID}
    own = [(os.open(f"/proc/self/ns/{n}", os.O_RDONLY | os.O_CLOEXEC), f) for n, f in flags.items()]
    return (*own, (os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC), 0))


def _back_to_own_namespaces() -> None:
    """The host leaves the run's namespaces (the next run must not land in this one). It
    cannot serve another run from anywhere else: if that fails, it ends at once."""
    try:
        *spaces, (cwd, _) = _own_namespaces()
        for fd, kind in spaces:
            sandbox.setns(fd, kind)
        os.fchdir(cwd)  # entering a mount namespace moves to its root
    except BaseException:
        os._exit(SETNS_FAILED)


#: Exit status of a host that could not return to its own namespaces after starting a run.
SETNS_FAILED = 70


def _guarded(stat_w: int, body: Callable[[], object]) -> NoReturn:
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        body()
    except BaseException:
        write_status(stat_w, {"setup_error": traceback.format_exc(), "stage": "setup"})
    finally:
        os._exit(child.SETUP_FAILED)


def _ns_student(
    request_r: int,
    fds: tuple[int, int, int, int],
    passed: int | None,
    hide: Sequence[str],
    plan: View | None,
) -> NoReturn:
    os.setsid()  # never in the zygote's process group: kill(0, ...) would reach every run
    box = [dataclasses.replace(read_request(request_r), pass_fd=passed)]
    sandbox.close_fds_except({2, *fds, *passed_fds(box)})  # the zygote's, other runs', I's
    sandbox.unshare(sandbox.NS_FLAGS & ~_HOST_SIDE)  # pid, net, mnt: born in them, with I
    if plan is None:  # never: "namespaces" hosts always have a view (``housing``)
        raise RuntimeError("a namespaces run without a file-system view")
    view.enter(plan, box[0].limits.tmpfs_bytes)
    child.main(box, mode="namespaces", fds=fds, hide=hide, workdir=NS_WORKDIR, drop=True)


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
    _report_exit(fds[3], student)
    os._exit(0)


def passed_fds(box: list[RunRequest]) -> tuple[int, ...]:
    """The descriptor the caller passed for this run (``passfd``): kept for the student."""
    fd = box[0].pass_fd if box else None
    return () if fd is None else (fd,)


def _report_exit(stat_w: int, student: int) -> None:
    """rlimits: reap everything until the student's main process is gone, end what it left,
    report its status."""
    while True:
        pid, status, usage = os.wait4(-1, 0)
        if pid == student:
            break
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


def reaped() -> Iterator[tuple[int, int, tuple[float, int]]]:
    """Every child that has ended, without waiting: (pid, wait status, (CPU s, max RSS))."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, status, (usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


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
