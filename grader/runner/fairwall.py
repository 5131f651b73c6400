"""Fair wall limits: a run is not charged the time it spent waiting for a CPU.

On a busy machine a correct probe that needs 2 s of CPU can take 8 s or more of wall time;
with a plain 10 s wall limit an honest student fails because others were busy. So the host
charges a run ``elapsed - waited``, where ``waited`` is the longest time any process of the
run spent runnable but not running (``/proc/<pid>/schedstat``, second field: run-queue wait,
in ns). A run that sleeps, blocks or waits on the network waits in no run queue and is
charged every second; a busy loop is still stopped by its CPU limit. Whatever happens, a
run ends by ``Limits.wall_ceiling``: a run that starves itself (a low priority,
its own crowd of processes) gains at most that.

Only runs past their plain wall limit are measured, at most every ``RECHECK`` seconds.
"""

from __future__ import annotations

import os

from grader.runner.model import Limits

#: Seconds between two measurements of one overdue run.
RECHECK = 0.25


def next_deadline(limits: Limits, *, elapsed: float, waited: float) -> float | None:
    """Seconds after the start at which to look again, or None when the run is over time."""
    ceiling = limits.wall_ceiling
    if elapsed >= ceiling or elapsed - waited >= limits.wall_seconds:
        return None
    return min(ceiling, max(limits.wall_seconds + waited, elapsed + RECHECK))


def cpu_wait(top: int) -> float | None:
    """Longest run-queue wait (seconds) of ``top`` and its descendants; None if unreadable."""
    waits = []
    for pid in process_tree(top):
        try:
            with open(f"/proc/{pid}/schedstat", "rb") as f:
                waits.append(int(f.read().split()[1]) / 1e9)
        except (OSError, ValueError, IndexError):
            continue
    return max(waits) if waits else None


def process_tree(top: int) -> list[int]:
    """``top`` and every process below it (one pass over /proc)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    found, todo = [], [top]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found
