"""The spare master process of a one-shot ``grader check``, launched before anything else.

``launch_spare`` starts a master's interpreter (``master_main``) while the grader is still
importing itself: it imports only the standard library modules it needs, so the CLI calls it
before the rest of the runner (or anything else) is loaded. The spare holds nothing until
its hello; ``grader.runner.master`` greets it, adopts it or ends it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from typing import Any

#: The folder holding the ``grader`` package (put first on the master's and hosts' path).
GRADER_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
#: The whole environment of a master or host process (and so of every run), never the
#: caller's: a student can read its process's initial environment block (/proc/self/environ)
#: even after scrubbing.
#: Set to "1" (tests only), it makes the run's seccomp policy kill, and the kernel log, any
#: call off its list (``grader.runner.allowlist``); the only variable a host inherits.
AUDIT_VARIABLE = "GRADER_SECCOMP_AUDIT"
HOST_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
BOOTSTRAP = (
    f"import sys; sys.path.insert(0, {GRADER_ROOT!r}); "
    "from grader.runner.master_main import run; run(int(sys.argv[1]))"
)

Spare = tuple[subprocess.Popen[bytes], socket.socket, int, "dict[str, Any] | None"]
#: The spare: process, our end, owner pid, and the hello it was already sent, if any.
_spare: Spare | None = None


class LaunchError(OSError):
    """The master's interpreter could not be started."""


def start_interpreter(
    code: str, *args: str, stdin: int, stdout: int, pass_fds: tuple[int, ...]
) -> subprocess.Popen[bytes]:
    """``python -I -c code args`` in a session of its own, at ``/``, with ``HOST_ENV`` as its
    whole environment: how a master or a runner host starts."""
    return subprocess.Popen(
        [sys.executable, "-I", "-c", code, *args],
        stdin=stdin,
        stdout=stdout,
        env={**HOST_ENV, **_audit()},
        cwd="/",
        start_new_session=True,
        pass_fds=pass_fds,
    )


def _audit() -> dict[str, str]:
    """The seccomp audit switch (tests only: ``grader.runner.allowlist``) reaches the host."""
    value = os.environ.get(AUDIT_VARIABLE)
    return {} if value is None else {AUDIT_VARIABLE: value}


def launch() -> tuple[subprocess.Popen[bytes], socket.socket]:
    """A new master process, waiting for its hello on the returned socket."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        proc = start_interpreter(
            BOOTSTRAP,
            str(theirs.fileno()),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
        )
    except OSError as exc:
        ours.close()
        raise LaunchError(f"could not start the master fork server: {exc}") from exc
    finally:
        theirs.close()
    return proc, ours


def launch_spare() -> None:
    """Start a master's process now, before anything is known about it (it waits for its
    hello, so it holds nothing): the next ``Master`` of this process adopts it. A one-shot
    ``grader check`` calls this first thing, so the master's interpreter start-up overlaps
    the grader's own imports instead of following them. ``discard_spare`` ends it unused."""
    global _spare
    if _spare is None:
        proc, sock = launch()
        _spare = (proc, sock, os.getpid(), None)


def greet(hello: dict[str, Any]) -> bool:
    """Send this process's unspoken-for spare its ``hello`` (once); False if there is none
    or it could not be sent (then it is ended)."""
    global _spare
    if _spare is None or _spare[3] is not None or _spare[2] != os.getpid():
        return False
    try:
        _spare[1].settimeout(5.0)
        _spare[1].send(json.dumps(hello).encode())
    except OSError:
        discard_spare()
        return False
    _spare = (*_spare[:3], hello)
    return True


def spare() -> Spare | None:
    return _spare


def set_spare(value: Spare | None) -> None:
    global _spare
    _spare = value


def take_spare() -> tuple[subprocess.Popen[bytes], socket.socket, dict[str, Any] | None] | None:
    """The spare, now ours alone (None if there is none, it is a forked parent's, or dead)."""
    global _spare
    taken, _spare = _spare, None
    if taken is None:
        return None
    proc, sock, owner, greeted = taken
    if owner != os.getpid():  # inherited through a fork: the parent's, not ours
        return None
    if proc.poll() is not None:
        sock.close()
        return None
    return proc, sock, greeted


def end_spare(proc: subprocess.Popen[bytes], sock: socket.socket) -> None:
    sock.close()
    proc.kill()  # it holds nothing secret; waiting for it to notice would cost its start-up
    proc.wait()


def discard_spare() -> None:
    """End the spare master process if no ``Master`` adopted it."""
    taken = take_spare()
    if taken is not None:
        end_spare(*taken[:2])


def _drop_in_forked_child() -> None:
    """A forked child never uses its parent's spare: close our copy of its socket (a copy
    left open would keep the spare alive after the parent is gone: it ends on EOF)."""
    if _spare is not None:
        _spare[1].close()


if hasattr(os, "register_at_fork"):  # not on Windows, where the portable runner is used
    os.register_at_fork(after_in_child=_drop_in_forked_child)
