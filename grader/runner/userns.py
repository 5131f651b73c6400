"""The grader as root of a user namespace of its own: "namespaces" isolation without root.

Where the grader runs as an ordinary user (a student's JupyterLab, an instructor's account)
and the kernel lets users make user namespaces (as bubblewrap relies on), the master, or a
stand-alone host, first becomes root of a user namespace it made, in which only its own uid
and gid exist (as 0). There it holds every capability over the namespaces it makes next
(mount, PID, network, IPC, UTS), so the "namespaces" construction runs as it does for root.
What the kernel rules out for a user, and what the grader does instead:

* mounts copied from the machine are locked, and an overlay cannot take a directory with
  locked mounts below it (``/``) as its lower layer: the view is one overlay per directory
  with no mount below it (``view``, the same construction as for root);
* no device node can be made (``mknod`` needs ``CAP_MKNOD`` in the machine's namespace, and a
  node on a mount a user namespace made does not open): a run's ``/dev`` binds the machine's
  null, zero, full, random and urandom, read-only (``view``);
* a process may return only to namespaces its user namespace owns (``setns``), and the run's
  host side returns to its own PID and network namespaces after each run (``spawn``): so
  the grader's processes live in a PID namespace of its own, held by a ``cat`` as its PID 1
  for as long as any of them lives, and the zygote makes a network namespace of its own;
* only one uid exists: the student's code runs as uid 65534 of a nested user namespace whose
  65534 is this namespace's 0, with no capabilities (``sandbox.drop_privileges``). On the
  machine it is the user's own uid, which the run's namespaces confine: it sees no process,
  file, socket or keyring of the user's beyond its view.
"""

from __future__ import annotations

import functools
import os

from grader.runner.syscalls import CLONE_NEWPID, INIT, NOBODY, unshare

CLONE_NEWUSER = 0x10000000

_entered = False
#: The write end of the PID namespace's holder's stdin: every process forked from here
#: inherits it, and the holder (PID 1: its end ends the namespace) exits once all are gone.
_holder_line = -1


def enter() -> None:
    """Become root of a fresh user namespace holding only this process's uid and gid.

    The process must be single-threaded (the kernel refuses otherwise). Every process it
    forks afterwards stays in that namespace."""
    global _entered, _holder_line
    uid, gid = os.geteuid(), os.getegid()
    unshare(CLONE_NEWUSER)
    for path, text in (
        ("/proc/self/setgroups", "deny"),  # required before an unprivileged gid_map
        ("/proc/self/uid_map", f"0 {uid} 1\n"),
        ("/proc/self/gid_map", f"0 {gid} 1\n"),
    ):
        with open(path, "w", encoding="ascii") as f:
            f.write(text)
    unshare(CLONE_NEWPID)  # our children's: owned by our user namespace
    read_end, _holder_line = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - PID 1 of that namespace: its end of the pipe, no other
        try:
            os.dup2(read_end, 0)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.closerange(3, os.sysconf("SC_OPEN_MAX"))
            os.setsid()
            os.execv(INIT, ["cat"])
        finally:
            os._exit(127)
    os.close(read_end)
    _entered = True


def entered() -> bool:
    """True in the process that called ``enter`` and everything it forked afterwards."""
    return _entered


def inside() -> bool:
    """True in any user namespace but the machine's: one ``enter`` made, or a rootless
    container's. The same two rules hold in both: mounts copied from outside are locked, and
    no device node can be made (``view``)."""
    return _entered or _uid_map() != [["0", "0", "4294967295"]]


def one_id() -> bool:
    """True where uid 65534 does not exist (``enter``'s namespace, a container mapping only
    root): the student is then 65534 of a nested namespace whose 65534 is our 0."""
    return _entered or not any(
        int(inner) <= NOBODY < int(inner) + int(count) for inner, _, count in _uid_map()
    )


@functools.cache  # read in the grader before it forks: runs never read it again
def _uid_map() -> list[list[str]]:
    try:
        with open("/proc/self/uid_map", encoding="ascii") as f:
            return [line.split() for line in f if line.strip()]  # never changes but by ``enter``
    except OSError:  # no /proc: the machine's namespace is all there is to assume
        return [["0", "0", "4294967295"]]


#: The student's nested user namespace in a user's grader: its 65534 is our 0.
NESTED_ID_MAP = b"65534 0 1\n"
