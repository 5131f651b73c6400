"""Runaway student code: every run ends in bounded time, with bounded memory, leaving nothing."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits

from .helpers import marker, processes_with, run, server_for


def nproc_enforced(server: ForkServer) -> bool:
    """False in rlimits mode when the student runs as root (nobody cannot reach this
    Python): the kernel ignores RLIMIT_NPROC for root. Those runs get a self-bounded bomb
    and are held to the guarantee that remains: bounded time and nothing left alive."""
    return not (os.geteuid() == 0 and not server.runs_as_nobody)


#: The "rlimits" fallback (only where the kernel refuses user namespaces) is held to a few
#: cases: these run in both modes, the rest in "namespaces" only.
BOTH = pytest.mark.parametrize("server", ["namespaces", "rlimits"], indirect=True)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(getattr(request, "param", "namespaces"))


@BOTH
def test_infinite_loop_times_out(server: ForkServer) -> None:
    start = time.monotonic()
    limits = Limits(wall_seconds=1.0, wall_ceiling_seconds=1.0)  # no slack for a busy CPU here
    obs = run(server, "print('before')\nwhile True:\n    pass\n", limits=limits)
    assert obs.stdout == "before\n"  # printed lines survive the kill
    assert time.monotonic() - start < 2.0
    assert obs.timed_out is True
    assert obs.limit_hit == "wall"
    assert obs.signal == signal.SIGKILL
    assert obs.exit_code is None
    assert 1.0 <= obs.wall_seconds < 2.0


def test_ignoring_sigterm_and_alarm_does_not_help(server: ForkServer) -> None:
    source = (
        "import signal, time\n"
        "for s in (signal.SIGTERM, signal.SIGALRM, signal.SIGINT, signal.SIGHUP):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "while True:\n"
        "    time.sleep(0.01)\n"
    )
    start = time.monotonic()
    obs = run(server, source, limits=Limits(wall_seconds=0.5))
    assert time.monotonic() - start < 1.5
    assert obs.timed_out


@BOTH
@pytest.mark.parametrize("times_out", [False, True], ids=["main-exits", "main-times-out"])
def test_setsid_grandchild_and_daemon_thread_are_killed(
    server: ForkServer, times_out: bool
) -> None:
    tag = marker()
    source = (
        "import os, threading, time\n"
        "threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{tag}'])\n"
        "    os._exit(0)\n"
        "time.sleep(0.3)\n"
        "print('parent done', flush=True)\n" + ("while True:\n    pass\n" if times_out else "")
    )
    obs = run(server, source, limits=Limits(wall_seconds=1.5, wall_ceiling_seconds=1.5))
    assert obs.stdout == "parent done\n"
    assert obs.timed_out is times_out
    assert obs.wall_seconds < 2.6
    assert processes_with(tag) == []


@BOTH
def test_memory_bomb_hits_memory_limit(server: ForkServer) -> None:
    source = "hoard = []\nwhile True:\n    hoard.append(bytearray(16 << 20))\n"
    obs = run(server, source, limits=Limits(memory_bytes=256 << 20))
    assert obs.exit_code == 1
    assert obs.uncaught is not None and obs.uncaught["type"] == "MemoryError"
    assert obs.limit_hit == "memory"
    assert obs.max_rss_bytes is not None and obs.max_rss_bytes < 300 << 20


@BOTH
def test_output_flood_is_cut_fast(server: ForkServer) -> None:
    source = "import sys\nfor _ in range(1600):  # 100 MiB\n    sys.stdout.write('x' * 65536)\n"
    start = time.monotonic()
    obs = run(server, source, limits=Limits(output_bytes=256 * 1024))
    assert time.monotonic() - start < 2.0
    assert obs.limit_hit == "output"
    assert obs.stdout_truncated is True
    assert obs.stderr_truncated is False
    assert len(obs.stdout) == 256 * 1024
    assert obs.signal == signal.SIGKILL


def test_stderr_flood_is_cut_too(server: ForkServer) -> None:
    obs = run(server, "import sys\nwhile True:\n    print('e' * 1000, file=sys.stderr)\n")
    assert obs.limit_hit == "output"
    assert obs.stderr_truncated is True
    assert len(obs.stderr) == 256 * 1024


def test_file_size_bomb_gets_efbig(server: ForkServer) -> None:
    source = "with open('big.bin', 'wb') as f:\n    f.write(b'x' * (4 << 20))\n"
    obs = run(server, source, limits=Limits(file_size_bytes=1 << 20))
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert "[Errno 27]" in obs.uncaught["message"]
    assert obs.limit_hit == "file_size"


def test_file_size_bomb_with_default_sigxfsz_is_killed(server: ForkServer) -> None:
    source = (
        "import signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
        "with open('big.bin', 'wb') as f:\n    f.write(b'x' * (4 << 20))\n"
    )
    obs = run(server, source, limits=Limits(file_size_bytes=1 << 20))
    assert obs.signal == signal.SIGXFSZ
    assert obs.limit_hit == "file_size"


def test_cpu_limit(server: ForkServer) -> None:
    obs = run(server, "while True:\n    pass\n", limits=Limits(cpu_seconds=1, wall_seconds=5))
    assert obs.signal == signal.SIGXCPU
    assert obs.limit_hit == "cpu"
    assert obs.timed_out is False
    assert obs.cpu_time is not None and obs.cpu_time > 0.5  # rusage is tick-sampled


@BOTH
def test_fork_bomb_is_bounded_and_cleaned_up(server: ForkServer) -> None:
    tag = marker()
    loop = "while True:" if nproc_enforced(server) else "for _ in range(150):"
    source = (
        "import os, time\n"
        f"{loop}\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        f"            os.execvp('sleep', ['sleep', '{tag}'])\n"
        "    except OSError:\n"
        "        pass\n"
        "time.sleep(60)\n"
    )
    start = time.monotonic()
    limits = Limits(wall_seconds=1.5, wall_ceiling_seconds=1.5, max_processes=24)
    obs = run(server, source, limits=limits)
    assert time.monotonic() - start < 3.0
    assert obs.timed_out
    assert processes_with(tag) == []


def test_python_fork_bomb_reports_processes_limit(server: ForkServer) -> None:
    tag = marker()
    source = (
        "import os, time\n"
        "for _ in range(100):\n"
        "    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{tag}'])\n"
        "time.sleep(60)\n"
    )
    obs = run(server, source, limits=Limits(wall_seconds=2, max_processes=8))
    if nproc_enforced(server):
        assert obs.exit_code == 1
        assert obs.uncaught is not None and obs.uncaught["type"] == "BlockingIOError"
        assert obs.limit_hit == "processes"
        assert obs.wall_seconds < 3
    else:  # all 100 forks succeed as root: the run must still end and leave nothing
        assert obs.timed_out
    assert processes_with(tag) == []
