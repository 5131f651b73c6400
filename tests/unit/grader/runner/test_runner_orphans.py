"""A grader killed with SIGKILL leaves nothing running: its master (and the fork servers,
oracle process and runs under it) notice the hang-up and end, whatever it was doing, even
when a child forked from the grader (a pool worker) outlives it: the fork does not keep the
master's socket open (``grader.runner.master``: closed in forked children).

The test process is a child subreaper for the whole session (``tests.support.leaks``), so
the orphans re-parent to it and are found among its descendants.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.leaks import descendants, reap_zombies

REPO = Path(__file__).resolve().parents[4]
MASTER = "grader.runner.master_main"

CLIENT = r"""
import os, sys, time
from pathlib import Path
from grader.judge.exercises import get_exercise
from grader.app.service import GradingService, GradingSettings
from grader.judge.submission import load_submission

stage = sys.argv[1]
exercise = get_exercise("EX-11-01")
probe = Path(sys.argv[2])
service = GradingService(GradingSettings.from_env(lang="en", use_cache=False))
if stage in ("idle master", "forked copy alive"):
    service.master(("sqlalchemy.orm",))
    fork = os.fork() if stage == "forked copy alive" else 1
    if fork == 0:
        time.sleep(300)
        os._exit(0)
    print("ready", fork if stage == "forked copy alive" else "", flush=True)
    time.sleep(300)
with service.student([exercise]) as session:
    session.server()
    print("ready", flush=True)
    session.judge(exercise, load_submission(exercise, probe))  # killed during this
    time.sleep(300)
"""


def _grader_processes(client: int) -> list[int]:
    return [p.pid for p in descendants(client) if MASTER in p.command]


@pytest.mark.parametrize("stage", ["idle master", "mid-judge", "forked copy alive"])
def test_a_killed_grader_leaves_no_master_server_or_oracle_behind(stage: str) -> None:
    probe = REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py"
    client = subprocess.Popen(
        [sys.executable, "-c", CLIENT, stage, str(probe)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert client.stdout is not None
        ready, *fork = client.stdout.readline().split()
        assert ready == "ready"
        time.sleep(0.5 if stage == "mid-judge" else 0.0)
        started = _grader_processes(client.pid)
        assert started  # the master at least (mid-judge: servers, oracle, runs too)
    finally:
        client.send_signal(signal.SIGKILL)
        client.wait()
        if client.stdout is not None:
            client.stdout.close()
    deadline = time.monotonic() + 30
    alive = started
    while alive and time.monotonic() < deadline:
        reap_zombies(os.getpid())
        alive = [pid for pid in started if _live(pid)]
        time.sleep(0.1)
    for pid in fork:  # the test's own stand-in for a pool worker: its job is done
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)
    assert alive == [], f"still running after their grader was killed: {alive}"


def _live(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"
