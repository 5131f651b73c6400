"""The residue check blames a run only for processes of this test session: another session
running the same corpus on the same machine (``make test`` twice at once) is not a leftover."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid

import pytest

from tests.hostile.corpus import PROCESS_MARKER
from tests.hostile.residue import marked_processes, ours

pytestmark = [pytest.mark.hostile, pytest.mark.xdist_group("hostile-corpus")]

ME = 5000
#: A process table: pid -> parent. 5000 is the test process; 7000 another session's worker.
TABLE = {6001: ME, 6002: 6001, 6003: 1, 7001: 7000, 7000: 1, 7002: 7001, 8001: 0}


@pytest.mark.parametrize(
    ("pid", "blamed"),
    [
        (6001, True),  # our child
        (6002, True),  # our grandchild (a run's process under our grader)
        (6003, True),  # escaped every tree: its parent is PID 1
        (7001, False),  # another session's worker's child
        (7002, False),  # ... and its grandchild
        (8001, False),  # gone while we looked
    ],
)
def test_only_this_sessions_processes_are_blamed(pid: int, blamed: bool) -> None:
    assert ours(pid, parent_of=lambda p: TABLE.get(p, 0), me=ME) is blamed


def test_a_marked_child_of_this_process_is_found() -> None:
    """The real scan: a marked process this test started is found (and only then killed)."""
    sleeper = f"import time; time.sleep(30)  # {PROCESS_MARKER} {uuid.uuid4().hex}"
    child = subprocess.Popen([sys.executable, "-c", sleeper])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if any(line.startswith(f"{child.pid}:") for line in marked_processes()):
                break
            time.sleep(0.1)
        assert any(line.startswith(f"{child.pid}:") for line in marked_processes())
    finally:
        child.kill()
        child.wait()
