"""What a run was handed for its conversation with the caller (the grader's oracle).

In the forking modes ("namespaces", "rlimits") it is descriptor ``PASSED_FD`` (``passfd``).
In the portable mode (``portable``) there is no descriptor passing that works on every
platform: the run connects to a loopback socket of the caller and proves who it is with a
one-time secret (``portable_child``), and that connected socket is what it was handed.
Whoever reads the channel (the proxy's ``Conversation``) accepts either.
"""

from __future__ import annotations

import socket

from grader.runner.passfd import PASSED_FD

_handed: socket.socket | None = None


def passed_channel() -> int | socket.socket:
    """The run's channel to its caller: a connected socket (portable mode), else the fd."""
    return PASSED_FD if _handed is None else _handed


def hand(channel: socket.socket) -> None:
    """In a portable run, before its prelude: the socket it authenticated on."""
    global _handed
    _handed = channel
