"""Kernel-level confinement of one run: namespaces, mounts, privileges, rlimits.

Security model
==============

Trusted: the caller, the host process (root in "namespaces" mode), the per-run supervisor
processes and the prelude (exercise code). Untrusted: the student's source and everything it
starts. Nothing here is a secret boundary *inside* the student's process: the prelude's
monkeypatches, ``prelude_args``, the channel fd and every object its forking process (the
zygote, or the host in "rlimits" mode) had in memory are readable by the student's code.
Only the host's and the zygote's own observations (wait status, rusage, timing, captured
bytes) are trustworthy.

"namespaces" (default when available: as root, or as a user where the kernel lets users
make user namespaces, ``userns``). Per run: new mount, PID, network, IPC and UTS
namespaces; the student runs as ``nobody`` (65534, no supplementary groups, no
capabilities, ``PR_SET_NO_NEW_PRIVS``, own user namespace and session keyring) as PID 2,
beside the namespace's PID 1 (``INIT``, root; see ``grader.runner.spawn``). For a user,
"root" is root of the grader's own user namespace, and the student is 65534 of a nested one:
on the machine both are the user's uid. PID 1 is then the student's uid, but it holds
capabilities the student lacks, so the kernel refuses the student its memory, descriptors
and /proc links (commoncap's ptrace rule) as it does for root's; the student may still
signal it, which ends only its own run.

* Prevents: seeing any file beyond the allow-list view (``grader.runner.view``: the
  interpreter, the packages loaded, the libraries they load, a synthetic /etc, its own
  devices); sharing a lock or an access time with another run (every file is an inode of the
  run's own overlay mount); writing anything persistent (the view is read-only; /tmp,
  /var/tmp and /dev/shm are fresh size-limited tmpfs discarded with the run, /dev/pts a fresh
  devpts); reading ``hide`` paths inside the view (an empty read-only tmpfs, or /dev/null for
  a file, is mounted over them); any network (the new network namespace has only a down
  loopback, so TCP to 127.0.0.1:5432 fails and abstract unix sockets of the machine are out
  of reach); connecting to local services' unix sockets (/run is not in the view);
  seeing or signalling processes outside the run, including the other run executing in
  parallel; sharing kernel keyrings or an RLIMIT_NPROC budget with other runs (fresh user
  namespace); signalling, ptracing or reading the fds, root, cwd or environment of PID 1
  (root's process; its mounts and sockets are the run's own); forging its exit status or
  rusage (the student's process is the zygote's child: the zygote's own ``wait4``); leaving
  processes behind: when the student's main process exits or the host ends the run, the
  zygote kills PID 1 and the kernel kills every process of the namespace (setsid, double
  fork, daemon threads); if the host dies, so does the zygote, and PID 1 reads EOF on its
  lifeline and exits; reading another run's output in the memory it inherits (it is a fork
  of the zygote, which never holds a run's data).
* Leaves open: reading the files of the view (the interpreter's installation, the venv);
  CPU and memory up to the rlimits, and RLIMIT_AS is per process, so up to
  ``max_processes`` processes may each use ``memory_bytes`` (no cgroup); kernel attack
  surface within the seccomp allow-list (``allowlist``: what CPython, the preloaded modules
  and SQLite use; no leases, inotify, socket cookies, namespaces or page-cache calls); lying on the
  observation channel; side channels between runs (system load, /sys/fs/cgroup and
  /proc/stat counters, pipe inode numbers: H18). If
  the kernel refuses unprivileged user namespaces (``drop_privileges`` returns False), all
  runs share uid 65534's persistent user keyring (a channel between runs, even sequential
  ones) and one RLIMIT_NPROC budget. For a user: the device nodes are the machine's (no
  user can make one), so a lock on one is seen by a run executing at the same time: a
  user's runs take turns on the machine, whichever host runs them (``turns``).

Order inside the namespace (the prelude needs files that get hidden later):
mounts made private -> the view becomes the root (``view.enter``: a read-only overlay of the
staging layer on the host, fresh /dev, /proc, /tmp, /var/tmp, /dev/shm, ``pivot_root``) ->
workdir /tmp/work created and made the cwd -> *the prelude is
imported and called, as root, with hide paths still visible* (the real /tmp is already gone;
files it writes into the cwd are handed to the student) -> source written -> hide paths
covered -> workdir chowned to nobody -> privileges dropped -> rlimits -> env scrubbed ->
student code.

"rlimits" (fallback where namespaces are unavailable, for a user where the kernel refuses
user namespaces; ``isolation="rlimits"`` forces it). The student runs in a new session, with
rlimits, a scrubbed environment and a throwaway workdir; a per-run supervisor (a child
subreaper) and the host (also a subreaper) kill whatever the run left behind. It runs with
the host's uid, except when the host is root and uid ``nobody`` can reach the Python
installation: then it drops to nobody as above (``ForkServer.runs_as_nobody`` tells), which
keeps it out of root-owned files and away from other users' processes.

* Prevents: runaway CPU/memory/output/file size per process, and processes surviving the run
  (the supervisor joins a per-run cgroup v2 killed at run end, where writable; orphans
  re-parent to the supervisor or the host, both subreapers, and are swept after every run).
* Leaves open: everything the host's uid may do: reading the solutions and ``hide`` paths
  (they are NOT hidden), writing anywhere that uid can write (/tmp, the repository when run
  as its owner), the network and local databases, killing or ptracing the supervisor and
  forging its status report (all of these only as far as its uid allows when it runs as
  nobody); when it runs as root, RLIMIT_NPROC is not enforced and ``kill(-1, SIGKILL)``
  kills every process on the machine.
  Use it for development, never to grade untrusted submissions.
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys

from grader.runner import userns, view
from grader.runner.model import RUN_ENVIRONMENT, Limits
from grader.runner.mounts import (
    hide,
    needed_paths,
    unreachable_for_nobody,
)
from grader.runner.syscalls import (
    CLONE_NEWNET,
    CLONE_NEWPID,
    INIT,
    KEYCTL,
    NOBODY,
    NS_FLAGS,
    PR_SET_CHILD_SUBREAPER,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_PDEATHSIG,
    _check,
    close_fds_except,
    die_with_parent,
    libc,
    prctl,
    setns,
    unshare,
)

__all__ = [
    "CLONE_NEWPID",
    "INIT",
    "NOBODY",
    "NS_FLAGS",
    "PR_SET_CHILD_SUBREAPER",
    "PR_SET_PDEATHSIG",
    "apply_rlimits",
    "close_fds_except",
    "die_with_parent",
    "drop_privileges",
    "hide",
    "namespaces_unavailable",
    "needed_paths",
    "prctl",
    "scrub_environ",
    "setns",
    "unreachable_for_nobody",
    "unshare",
]


def drop_privileges() -> bool:
    """Become uid/gid 65534 with no capabilities and no_new_privs; True if in a fresh user ns.

    Then, best effort, a fresh session keyring and a fresh user namespace (65534 mapped to
    itself): kernel keyrings are per (user namespace, uid), so without this every run of uid
    65534 would share one persistent user keyring, a channel between runs. It also gives the
    run its own RLIMIT_NPROC count. Skipped (False) when the kernel refuses unprivileged user
    namespaces or the prelude left threads running. In a user's grader (``userns``) only
    the nested namespace can make 65534 (from its root, the user's own uid): required there.
    """
    as_user = userns.one_id()
    if not as_user:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    _join_fresh_session_keyring()
    prctl(PR_SET_DUMPABLE, 1)  # else /proc/self/*_map belong to root after the setuid
    try:
        unshare(CLONE_NEWUSER)
    except OSError:
        if as_user:
            raise
        isolated = False
    else:
        isolated = True
        for path, text in _USER_ID_FILES if as_user else _ID_FILES:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, text)
            finally:
                os.close(fd)
        _drop_all_capabilities()  # the creator of a user ns holds every capability inside it
    if os.geteuid() != NOBODY or os.getegid() != NOBODY:
        raise OSError("privilege drop did not take effect")
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    return isolated


CLONE_NEWUSER = userns.CLONE_NEWUSER
_ID_MAP = f"{NOBODY} {NOBODY} 1\n".encode()
_ID_FILES = (
    (b"/proc/self/setgroups", b"deny"),
    (b"/proc/self/uid_map", _ID_MAP),
    (b"/proc/self/gid_map", _ID_MAP),
)
_USER_ID_FILES = (
    (b"/proc/self/setgroups", b"deny"),
    (b"/proc/self/uid_map", userns.NESTED_ID_MAP),
    (b"/proc/self/gid_map", userns.NESTED_ID_MAP),
)
_KEYCTL_JOIN_SESSION_KEYRING = 1


def _join_fresh_session_keyring() -> None:
    if KEYCTL is not None:  # best effort: an anonymous keyring instead of the host's session's
        libc().syscall(KEYCTL, _KEYCTL_JOIN_SESSION_KEYRING, None)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in ("effective", "permitted", "inheritable")]


def _drop_all_capabilities() -> None:
    _check(libc().capset(ctypes.byref(_CAP_HEADER), _NO_CAPABILITIES), "capset")


#: Built at import, in the host: a run only passes them (each build would copy heap pages).
_CAP_HEADER = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
_NO_CAPABILITIES = (_CapData * 2)()


def apply_rlimits(limits: Limits) -> None:
    def cap(which: int, soft: int, hard: int | None = None) -> None:
        hard = soft if hard is None else hard
        _, current = resource.getrlimit(which)
        if current != resource.RLIM_INFINITY:  # unprivileged: cannot raise a hard limit
            soft, hard = min(soft, current), min(hard, current)
        resource.setrlimit(which, (soft, hard))

    cap(resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)
    cap(resource.RLIMIT_AS, limits.memory_bytes)
    cap(resource.RLIMIT_NPROC, limits.max_processes)
    cap(resource.RLIMIT_FSIZE, limits.file_size_bytes)
    cap(resource.RLIMIT_NOFILE, limits.open_files)
    cap(resource.RLIMIT_CORE, 0)


def scrub_environ(home: str) -> None:
    bindir = os.path.dirname(sys.executable)
    os.environ.clear()
    os.environ.update(RUN_ENVIRONMENT, PATH=f"{bindir}:/usr/local/bin:/usr/bin:/bin", HOME=home)


def namespaces_unavailable() -> str | None:
    """Why "namespaces" isolation cannot be used here, or None if it can (forks a probe).

    The probe does what the grader's processes do: not as root, it first becomes root of a
    user namespace of its own (``userns``); it makes a run's namespaces, mounts a tmpfs and
    an overlay there, and returns to its own network and PID namespaces, as the zygote does
    after every run (refused where those belong to a user namespace it does not own)."""
    as_user = os.geteuid() != 0 and not userns.entered()
    if not os.access(INIT, os.X_OK):
        return f"namespaces isolation needs {INIT} (PID 1 of each run)"
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the probe child
        os.close(read_end)
        try:
            _probe(as_user, write_end)
        except BaseException as exc:
            os.write(write_end, f"{exc}".encode()[:400])
            os._exit(1)
        os._exit(0)
    os.close(write_end)
    message = b""
    while chunk := os.read(read_end, 512):
        message += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if status == 0:
        return None
    return message.decode(errors="replace") or f"namespace probe failed (status {status})"


def _probe(as_user: bool, report: int) -> None:  # pragma: no cover - in the probe child
    if as_user:
        try:
            userns.enter()
        except OSError as exc:
            raise OSError(f"the kernel refuses user namespaces: {exc}") from None
        middle = os.fork()  # in the PID namespace ``enter`` made, as the grader's are
        if middle != 0:
            _, status = os.waitpid(middle, 0)
            os._exit(0 if status == 0 else 1)
    if userns.entered():
        unshare(CLONE_NEWNET)  # as the zygote does (``zygote``)
    own = [(os.open(f"/proc/self/ns/{n}", os.O_RDONLY), f) for n, f in _RETURNS_TO]
    unshare(NS_FLAGS)
    inner = os.fork()
    if inner == 0:
        try:
            view.probe()
            os._exit(0)
        except BaseException as exc:
            os.write(report, f"mount setup failed: {exc}".encode()[:400])
            os._exit(1)
    try:
        for fd, kind in own:
            setns(fd, kind)
    except OSError as exc:
        os.write(report, f"cannot return to its own namespaces after a run: {exc}".encode())
        os._exit(1)
    _, status = os.waitpid(inner, 0)
    if status != 0:
        os._exit(1)


#: The namespaces the zygote returns to after starting each run (``spawn``).
_RETURNS_TO = (("net", CLONE_NEWNET), ("pid", CLONE_NEWPID))
