"""Whether this machine needs the portable runner (``grader.runner.portable``). Standard
library only and cheap: ``grader check`` asks before it starts its spare master process."""

from __future__ import annotations

import os
import socket
import sys

#: ``$GRADER_ISOLATION`` (``grader.app.settings``) asking for the portable runner.
PORTABLE = "portable"


def forking_unavailable() -> str | None:
    """Why the forking runner (fork servers, ``SCM_RIGHTS``, ``/proc``, ``prctl``) cannot
    work on this platform, or None where it can (Linux)."""
    if not sys.platform.startswith("linux"):
        return f"{sys.platform} is not Linux (no namespaces, seccomp or prctl)"
    if not hasattr(os, "fork") or not hasattr(socket, "send_fds"):
        return "this Python has no fork or no descriptor passing"
    return None


def portable_requested() -> bool:
    """``$GRADER_ISOLATION`` asks for the portable runner."""
    return os.environ.get("GRADER_ISOLATION", "").strip().lower() == PORTABLE


def spare_worth_starting() -> bool:
    """A one-shot check starts a spare master early only where it may use one."""
    return forking_unavailable() is None and not portable_requested()
