"""Turn what the host collected about a finished run into a ``result`` (or ``error``) message.

Exit status, signal and rusage: in "namespaces" mode the zygote's ``wait4`` of the
student's process (its child), sent to the host; in "rlimits" mode the supervisor's status
pipe, falling back to the host's own waitpid of the supervisor. ``uncaught`` is a channel
claim and is only kept when the exit status is 1.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from grader.runner.channel import parse_claim
from grader.runner.model import Observations

if TYPE_CHECKING:
    from grader.runner.runstate import Run


def finish(run: Run, mode: str) -> dict[str, Any]:
    """Turn what was collected about a finished run into a ``result`` or ``error`` message."""
    status = read_status(run.status_lines)
    if "setup_error" in status:
        kind = "prelude" if status.get("stage") == "prelude" else "setup"
        return {"op": "error", "id": run.rid, "kind": kind, "message": status["setup_error"]}
    channel = run.channel
    channel.close()
    exit_code: int | None = None
    sig: int | None = None
    kill_reason = run.kill_reason
    raw, cpu, maxrss = _ended(run, status, mode)
    if isinstance(raw, int):  # the student's main process ended by itself
        exit_code, sig = _decode(raw)
        if kill_reason == "wall":
            kill_reason = None
    elif kill_reason is not None:
        sig = signal.SIGKILL
    elif run.top_status is not None:  # supervisor gone without a report (rlimits: killed)
        exit_code, sig = _decode(run.top_status)
    limits = run.request.limits
    uncaught = channel.uncaught if exit_code == 1 else None
    obs = Observations(
        exit_code=exit_code,
        signal=sig,
        timed_out=kill_reason == "wall",
        limit_hit=classify(kill_reason, sig, uncaught, cpu, limits.cpu_seconds),
        stdout=run.out.decode("utf-8", "replace"),
        stderr=run.err.decode("utf-8", "replace"),
        stdout_truncated=run.out_truncated,
        stderr_truncated=run.err_truncated,
        records=tuple(channel.records),
        uncaught=uncaught,
        wall_seconds=round((run.ended or time.monotonic()) - run.started, 6),
        isolation=mode,
        records_dropped=channel.dropped,
        records_truncated=channel.truncated,
        cpu_time=cpu,
        max_rss_bytes=maxrss,
        cpu_wait_seconds=None if run.waited is None else round(run.waited, 3),
    )
    return {"op": "result", "id": run.rid, "observations": obs.to_json()}


def _ended(run: Run, status: dict[str, Any], mode: str) -> tuple[Any, Any, Any]:
    """(wait status of the student's main process if it ended by itself, CPU s, max RSS)."""
    if mode != "namespaces":
        return status.get("exit"), status.get("cpu"), status.get("maxrss")
    raw, (cpu, maxrss) = run.top_status, run.usage or (None, None)
    killed = raw is not None and os.WIFSIGNALED(raw) and os.WTERMSIG(raw) == signal.SIGKILL
    if killed and run.kill_reason is not None:
        raw = None  # the host's kill ended it (the namespace's end), not the student
    return raw, cpu, maxrss


#: Each status field and the test its value must pass; anything else on the pipe is ignored.
_STATUS_FIELDS: dict[str, Callable[[Any], bool]] = {
    "exit": lambda v: type(v) is int and 0 <= v <= 0xFFFF,
    "started": lambda v: type(v) is int and 1 < v < 1 << 22,
    "cpu": lambda v: type(v) is float and 0.0 <= v < 1e9,
    "maxrss": lambda v: type(v) is int and 0 <= v < 1 << 50,
    "setup_error": lambda v: isinstance(v, str),
    "stage": lambda v: isinstance(v, str),
}


def read_status(lines: bytes | bytearray) -> dict[str, Any]:
    """The supervisor's status lines, later lines winning, each field type- and range-checked.

    Written by trusted code, but in "rlimits" mode a student with the host's uid can write
    to the pipe too: a forged line must not crash the host (depth, encoding) nor feed it a
    value it would act on wrongly (a pid of 1 to signal, an exit status out of range).
    """
    status: dict[str, Any] = {}
    for line in lines.splitlines():
        message = parse_claim(line)
        for key, value in (message or {}).items():
            check = _STATUS_FIELDS.get(key)
            if check is not None and check(value):
                status[key] = value
    return status


def _decode(status: int) -> tuple[int | None, int | None]:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status), None
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return None, None


def classify(
    kill_reason: str | None,
    sig: int | None,
    uncaught: dict[str, Any] | None,
    cpu: float | None,
    cpu_limit: int,
) -> str | None:
    """Best-effort name of the limit that ended the run (``None`` if none is evident)."""
    if kill_reason in ("output", "wall"):
        return kill_reason
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu is not None and cpu >= cpu_limit):
        return "cpu"
    if sig == signal.SIGXFSZ:
        return "file_size"
    if uncaught:
        kind, message = str(uncaught.get("type")), str(uncaught.get("message"))
        text = str(uncaught.get("traceback"))
        if kind == "MemoryError":
            return "memory"
        if "[Errno 27]" in message:
            return "file_size"
        if (kind == "BlockingIOError" and "fork" in text) or "can't start new thread" in message:
            return "processes"
    return None
