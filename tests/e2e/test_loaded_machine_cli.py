"""A correct probe on a busy machine: the verdict must not depend on other people's load.

Two busy loops and ``grader check`` share one CPU (pinned, so the contention is the same on
any machine): every process of the check, its runs included, waits for the CPU most of
the time, and the probe spends about 0.75 s of CPU per run. The check must still pass,
through the real command. That a run slowed past its plain wall limit is not killed (the
fair wall limit itself) is proven with a 1 s limit in
``tests/unit/grader/runner/test_runner_fair_wall.py``; here each run would need 7 waves of
10 s to show it, over a minute of the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import FILES, Course, grader_command

#: Busy loops on purpose: run after the parallel part of ``make test``, one at a time, so
#: they neither slow another test nor are slowed by one.
pytestmark = pytest.mark.alone


@pytest.fixture
def one_busy_cpu() -> Iterator[int]:
    cpu = min(os.sched_getaffinity(0))
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", "while True:\n    pass\n"],
            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        )
        for _ in range(2)
    ]
    try:
        yield cpu
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@pytest.mark.slow
def test_a_cpu_heavy_correct_probe_passes_beside_two_busy_loops(
    course: Course, one_busy_cpu: int
) -> None:
    course.answer("EX-11-01", FILES / "probes" / "cpu_heavy_retry_policy_probe.py")
    done = subprocess.run(
        [*grader_command(), "check", "EX-11-01", "--json", "--lang", "en"],
        cwd=course.root,
        capture_output=True,
        text=True,
        timeout=900,
        preexec_fn=lambda: os.sched_setaffinity(0, {one_busy_cpu}),
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout[-3000:]
