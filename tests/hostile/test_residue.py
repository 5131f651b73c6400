"""The residue check blames a run only for processes of this test session: another session
running the same corpus on the same machine (``make test`` twice at once) is not a leftover."""

from __future__ import annotations

import contextlib
import ctypes
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.corpus import PROCESS_MARKER
from tests.hostile.residue import marked_processes

pytestmark = [pytest.mark.hostile, pytest.mark.xdist_group("hostile-corpus")]

SLEEPER = f"import time; time.sleep(30)  # {PROCESS_MARKER}"


@pytest.fixture
def cleanup() -> Iterator[list[int]]:
    pids: list[int] = []
    yield pids
    subprocess.run(["pkill", "-f", SLEEPER], check=False)


def _marked() -> set[int]:
    return {int(line.split(":")[0]) for line in marked_processes()}


def _pid_of_line(command: list[str]) -> int:
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True)
    return int(done.stdout.split()[0])


def test_own_and_escaped_processes_are_blamed(cleanup: list[int]) -> None:
    child = subprocess.Popen([sys.executable, "-c", SLEEPER])
    escaped = _pid_of_line(
        ["bash", "-c", f"setsid {sys.executable} -c '{SLEEPER}' >/dev/null 2>&1 & echo $!"]
    )
    time.sleep(0.5)  # bash has exited: the escaped sleeper's parent is PID 1 now
    assert {child.pid, escaped} <= _marked()
    child.kill()
    child.wait()


def _sleepers() -> set[int]:
    found = set()
    for name in os.listdir("/proc"):
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes() if name.isdigit() else b""
            if cmdline.startswith(sys.executable.encode()) and SLEEPER.encode() in cmdline:
                found.add(int(name))  # the sleeper itself, not the shells that started it
    return found


@pytest.fixture
def not_a_subreaper() -> Iterator[None]:
    """Orphans go to PID 1 meanwhile, as another session's processes never come to us."""
    libc, state = ctypes.CDLL(None, use_errno=True), ctypes.c_int(0)
    libc.prctl(37, ctypes.byref(state), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
    libc.prctl(36, 0, 0, 0, 0)
    yield
    libc.prctl(36, state.value, 0, 0, 0)


def test_another_sessions_marked_process_is_not_blamed(
    cleanup: list[int], not_a_subreaper: None
) -> None:
    """A parent that is not ours (its own parent gone), with a marked child: another
    session's worker and its run, as far as this process can tell."""
    before = _sleepers()
    inner = f"{sys.executable} -c '{SLEEPER}' & wait"
    subprocess.run(
        ["bash", "-c", f'setsid bash -c "{inner}" </dev/null >/dev/null 2>&1 &'],
        timeout=30,
        check=True,
    )
    deadline = time.monotonic() + 10
    while not _sleepers() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)  # the shell that started it has exited: its parent is not ours
    foreign = _sleepers() - before
    assert foreign, "the foreign sleeper did not start"
    assert not foreign & _marked(), (foreign, marked_processes())
