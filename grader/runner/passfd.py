"""Hand a run's descriptors from the caller to the host: its four pipes, and one more.

The one more is for a conversation the caller holds with the student's process (the
grader's oracle: the implementation under test runs on the caller's side, in its oracle
process; the student's process holds a proxy). The caller keeps one end of a
``socketpair`` and passes the other; the student's process finds it as fd ``PASSED_FD``.

**Why the caller makes the run's pipes too.** A pipe's or a socket's inode number comes
from one counter, and a run can read the numbers of its descriptors (``/proc/self/fd``,
``fstat``) and their times. Descriptors made at different moments would tell a run
something about its place in the batch (how many were made in between; R5 in
``tests/hostile/FINDINGS.md``). So the caller makes the socket and, straight after, the
run's pipes (``make_pipes``), in one thread, just before it sends the run: every run's
descriptors are one block made at its own start, the same distance apart in every run.

The client sends them over a unix datagram socket (``SCM_RIGHTS``) just before the run's
frame, and closes its copies; the host receives them, the run's process tree keeps its
ends, and the host closes its copy of the passed one as soon as the run is forked. Nothing
but descriptors travels: no bytes of the conversation ever pass through the host.
"""

from __future__ import annotations

import contextlib
import os
import socket

#: The descriptor number the passed socket gets in the student's process.
PASSED_FD = 4
_TAG = b"run:"
#: A run's pipes, out, err, chan and stat, each as (read end, write end).
Pipes = tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]
_PIPE_FDS = 8


def pair() -> tuple[socket.socket, socket.socket]:
    """(client end, host end) of the descriptor channel (datagrams keep messages apart)."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)


def make_pipes() -> Pipes:
    """A run's four pipes, made back to back (call it right after making the passed socket)."""
    return (os.pipe(), os.pipe(), os.pipe(), os.pipe())


def close_pipes(pipes: Pipes) -> None:
    for pipe in pipes:
        for fd in pipe:
            _close(fd)


def send(channel: socket.socket, rid: int, pipes: Pipes, passed: int | None) -> None:
    """Client side: pass ``pipes`` and ``passed`` for run ``rid`` (the host gets duplicates;
    the caller still closes its own)."""
    fds = [fd for pipe in pipes for fd in pipe] + ([] if passed is None else [passed])
    socket.send_fds(channel, [_TAG + str(rid).encode()], fds)


def receive(channel_fd: int, rid: int, *, passed: bool) -> tuple[Pipes, int | None]:
    """Host side: the descriptors sent for run ``rid`` (sent before its frame, so waiting)."""
    with socket.socket(fileno=channel_fd) as channel:
        channel.settimeout(5.0)
        try:
            data, fds, _, _ = socket.recv_fds(channel, 64, _PIPE_FDS + 1)
        finally:
            channel.detach()  # the host keeps using the same descriptor
    if data != _TAG + str(rid).encode() or len(fds) != _PIPE_FDS + passed:
        for fd in fds:
            _close(fd)
        raise ValueError(f"expected the descriptors of run {rid}, got {data!r} with {len(fds)}")
    for fd in fds:
        os.set_inheritable(fd, False)  # the run's PID 1 is exec'd: it must not hold them
    pipes: Pipes = ((fds[0], fds[1]), (fds[2], fds[3]), (fds[4], fds[5]), (fds[6], fds[7]))
    return pipes, fds[8] if passed else None


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
