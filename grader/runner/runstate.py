"""What the host knows about one run in flight (its pipes, output so far, wall deadline)."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.runner import spawn
from grader.runner.channel import ChannelReader
from grader.runner.model import RunRequest


@dataclass
class Run:
    rid: int
    request: RunRequest
    proc: spawn.Launched
    started: float
    open_fds: dict[int, str]
    channel: ChannelReader
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    out_truncated: bool = False
    err_truncated: bool = False
    status_lines: bytearray = field(default_factory=bytearray)
    #: How the top process ended (namespaces: the zygote's ``wait4``; rlimits: the host's):
    #: its wait status, and (CPU s, max RSS bytes).
    top_status: int | None = None
    usage: tuple[float, int] | None = None
    ended: float | None = None
    kill_reason: str | None = None
    student_pid: int | None = None
    swept: bool = False
    #: The run's cgroup directory ("rlimits" mode, where cgroup v2 is writable).
    group: str | None = None

    #: When to look at the wall clock again (``fairwall``); at first the plain wall limit.
    deadline: float = 0.0
    #: Longest time one of its processes waited for a CPU, once measured (``fairwall``).
    waited: float | None = None

    def __post_init__(self) -> None:
        self.deadline = self.started + self.request.limits.wall_seconds
