"""Hand one open file descriptor per run from the caller to the run's student process.

Used for a conversation the caller holds with the student's process (the grader's oracle:
the implementation under test runs on the caller's side, in its oracle process; the
student's process holds a proxy). The caller keeps one end of a ``socketpair`` and passes
the other here: the client sends it to the host over a unix datagram socket (``SCM_RIGHTS``)
just before the run's frame; the host receives it, the run's process tree keeps it, and the
student's process finds it as fd ``PASSED_FD``. The host closes its copy as soon as the run
is forked, so the descriptor never outlives the run in the host, and nothing but the
descriptor travels: no bytes of the conversation ever pass through the host's memory.
"""

from __future__ import annotations

import contextlib
import os
import socket

#: The descriptor number the passed socket gets in the student's process.
PASSED_FD = 4
_TAG = b"run:"


def pair() -> tuple[socket.socket, socket.socket]:
    """(client end, host end) of the descriptor channel (datagrams keep messages apart)."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)


def send(channel: socket.socket, rid: int, fd: int) -> None:
    """Client side: pass ``fd`` for run ``rid`` (the host gets its own duplicate)."""
    socket.send_fds(channel, [_TAG + str(rid).encode()], [fd])


def receive(channel_fd: int, rid: int) -> int:
    """Host side: the descriptor sent for run ``rid`` (sent before its frame, so waiting)."""
    with socket.socket(fileno=channel_fd) as channel:
        channel.settimeout(5.0)
        try:
            data, fds, _, _ = socket.recv_fds(channel, 64, 4)
        finally:
            channel.detach()  # the host keeps using the same descriptor
    if data != _TAG + str(rid).encode() or len(fds) != 1:
        for fd in fds:
            _close(fd)
        raise ValueError(f"expected one descriptor for run {rid}, got {data!r} with {len(fds)}")
    os.set_inheritable(fds[0], False)  # the run's PID 1 is exec'd: it must not hold it
    return fds[0]


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
