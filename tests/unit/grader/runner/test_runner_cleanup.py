"""rlimits mode: every process a run starts dies with the run, and nothing is left in /tmp.

The attacks run as the host's uid (root here), the strongest student this mode has: they
double-fork into a new session, forge the supervisor's "clean exit" report and kill it,
or kill the host itself.
"""

from __future__ import annotations

import glob
import os
import time
from pathlib import Path

import pytest

from grader.runner import ForkServer, RunnerError, cgroups
from tests.unit.grader.runner.helpers import marker, processes_with, run

DAEMON = """
import os, signal, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.executable, [sys.executable, "-c", {body!r}])
    os._exit(0)
time.sleep(0.3)
"""
DAEMON_BODY = """
import os, sys, time
time.sleep(1.0)  # {tag}
for _ in range(100):
    with open({drop!r}, "a") as f:
        f.write("alive\\n")
    time.sleep(0.1)
"""
FORGE_AND_KILL_SUPERVISOR = """
supervisor = os.getppid()
for name in os.listdir(f"/proc/{supervisor}/fd"):
    try:
        fd = os.open(f"/proc/{supervisor}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b'{"exit": 0, "cpu": 0.1, "maxrss": 1}\\n')
        os.close(fd)
    except OSError:
        pass
print("done", flush=True)  # before the kill: the host may end the run the moment it sees it
os.kill(supervisor, signal.SIGKILL)
"""
KILL_THE_HOST = """
supervisor = os.getppid()
with open(f"/proc/{supervisor}/stat") as f:
    host = int(f.read().rsplit(")", 1)[1].split()[1])
os.kill(host, signal.SIGKILL)
"""


def _daemon(tmp_path: Path) -> tuple[str, str, Path]:
    tag, drop = marker(), tmp_path / "drop"
    body = DAEMON_BODY.format(tag=tag, drop=str(drop))
    return DAEMON.format(body=body), tag, drop


def _nothing_survives(tag: str, drop: Path, server_pid: int) -> None:
    time.sleep(2.0)  # the daemon writes 1 s after it started
    assert processes_with(tag) == []
    assert not drop.exists()
    assert glob.glob(f"/tmp/grader-host-{server_pid}-*") == []


def test_daemon_dies_with_its_run(tmp_path: Path) -> None:
    source, tag, drop = _daemon(tmp_path)
    with ForkServer(isolation="rlimits") as server:
        obs = run(server, source + "print('done')\n")
        assert obs.stdout == "done\n", obs.stderr
        pid = server.pid
    _nothing_survives(tag, drop, pid)


def test_daemon_dies_even_when_the_supervisor_is_forged_and_killed(tmp_path: Path) -> None:
    source, tag, drop = _daemon(tmp_path)
    with ForkServer(isolation="rlimits") as server:
        obs = run(server, source + FORGE_AND_KILL_SUPERVISOR)
        assert obs.stdout == "done\n", obs.stderr
        assert server.alive
        pid = server.pid
    _nothing_survives(tag, drop, pid)


def test_daemon_dies_even_when_the_host_is_killed(tmp_path: Path) -> None:
    if cgroups.HostGroups.create() is None:
        pytest.skip("requires a writable cgroup v2 hierarchy, not available here")
    source, tag, drop = _daemon(tmp_path)
    server = ForkServer(isolation="rlimits")
    pid = server.pid
    with pytest.raises(RunnerError):
        run(server, source + KILL_THE_HOST)
    server.close()  # the client cleans up what the dead host could not
    _nothing_survives(tag, drop, pid)


def test_host_cgroup_is_removed_on_close() -> None:
    with ForkServer(isolation="rlimits") as server:
        assert run(server, "print(1)").stdout == "1\n"
        base = server.cleanup.get("cgroup")
        if base is None:
            pytest.skip("requires a writable cgroup v2 hierarchy, not available here")
        assert os.path.isdir(base)
    assert not os.path.exists(base)
