"""Fair limits: a run is not charged the wall time it spent waiting for a CPU.

A busy machine slows every run down; a correct probe must not fail for it. The wall limit
counts elapsed time minus the time the run's processes waited in the run queue, up to a
hard ceiling; a run that sleeps or blocks is still stopped at the plain wall limit.
Contention is made certain by pinning the host, its zygote (so every run) and the busy loops
to one CPU.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits, fairwall
from tests.unit.grader.runner.helpers import run, server_for

#: Busy loops on purpose: run after the parallel part of ``make test``, one at a time, so
#: they neither slow another test nor are slowed by one.
pytestmark = pytest.mark.alone

BUSY = "while True:\n    pass\n"
#: Burns ``{cpu}`` seconds of this process's CPU time, then says so.
BURN = "import time\nwhile time.process_time() < {cpu}:\n    pass\nprint('burned')\n"


@pytest.fixture(params=["namespaces", "rlimits"])
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(request.param)


@pytest.fixture
def crowded_cpu(server: ForkServer) -> Iterator[int]:
    """Three busy loops and the server's runs share one CPU: a run gets a quarter of it.

    Each loop starts a session of its own: with autogroup scheduling (Linux's default
    where ``kernel.sched_autogroup_enabled`` is 1) CPU time is shared between sessions
    first, and every run is a session (``setsid``). Three loops in the test's session
    would be one group: the run would get half of the CPU, or more when the test's
    session also has work on the other CPU (seen beside a second suite: 0.86 s of wall
    for 0.6 s of CPU, so never slowed)."""
    cpu = min(os.sched_getaffinity(0))
    for pid in fairwall.process_tree(server.pid):  # the host and its zygote, if any
        os.sched_setaffinity(pid, {cpu})
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", BUSY],
            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
            start_new_session=True,
        )
        for _ in range(3)
    ]
    try:
        yield cpu
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@pytest.mark.slow
def test_a_run_slowed_by_a_busy_cpu_is_not_killed_on_wall(
    server: ForkServer, crowded_cpu: int
) -> None:
    # 1 s of CPU on a CPU shared four ways takes about 4 s of wall: well past the plain limit
    # of 3 s, while what it is charged stays under it: its CPU, its start and, once its work
    # is done, the grader's own reporting, which nobody's CPU wait covers (about 0.9 s for
    # 0.8 s of CPU alone; 2.04 s once beside a second suite, in rlimits mode, against the
    # 2 s limit this test had then: benchmarks/HISTORY.md, 2026-12-04, afternoon)
    limits = Limits(wall_seconds=3.0, wall_ceiling_seconds=60.0)
    obs = run(server, BURN.format(cpu=1.0), limits=limits)
    if server.isolation == "rlimits" and obs.limit_hit == "wall" and obs.stdout == "burned\n":
        # its work was done: the supervisor starved while it reported (SECURITY.md, "What it
        # leaves open"); any other end of this run still fails the test
        pytest.xfail(f"known hole: the grader's reporting was charged ({obs.wall_seconds} s)")
    assert obs.exit_code == 0 and obs.stdout == "burned\n", (obs.limit_hit, obs.wall_seconds)
    assert obs.wall_seconds > 3.0  # it really was slowed past the plain wall limit
    assert obs.cpu_wait_seconds is not None and obs.cpu_wait_seconds > 0.3


@pytest.mark.slow
def test_a_starved_endless_loop_still_ends_at_the_ceiling(
    server: ForkServer, crowded_cpu: int
) -> None:
    limits = Limits(wall_seconds=0.5, wall_ceiling_seconds=1.5)
    obs = run(server, BUSY, limits=limits)
    assert obs.timed_out and obs.limit_hit == "wall"
    assert obs.wall_seconds >= limits.wall_seconds
    assert obs.wall_seconds < limits.wall_ceiling + 1.0


def test_a_sleeping_run_is_charged_every_second(server: ForkServer) -> None:
    obs = run(server, "import time\ntime.sleep(60)\n", limits=Limits(wall_seconds=1.0))
    assert obs.timed_out and obs.limit_hit == "wall"
    assert obs.wall_seconds < 1.0 + fairwall.RECHECK + 1.0
    assert obs.cpu_wait_seconds is not None and obs.cpu_wait_seconds < 0.5


@pytest.mark.parametrize(
    ("elapsed", "waited", "expected"),
    [
        (1.0, 0.0, None),  # charged 1.0 of 1.0: over
        (1.0, 0.6, 1.6),  # charged 0.4: the deadline moves by the wait
        (1.0, 0.01, 1.0 + fairwall.RECHECK),  # never re-checked sooner than RECHECK
        (2.9, 2.5, 3.0),  # capped at the ceiling
        (3.0, 2.9, None),  # at the ceiling: over, whatever the wait
    ],
)
def test_next_deadline(elapsed: float, waited: float, expected: float | None) -> None:
    limits = Limits(wall_seconds=1.0, wall_ceiling_seconds=3.0)
    got = fairwall.next_deadline(limits, elapsed=elapsed, waited=waited)
    assert got == (None if expected is None else pytest.approx(expected))
