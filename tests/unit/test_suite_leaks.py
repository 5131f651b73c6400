"""The end-of-run leak check (``tests.support.leaks``), proven both ways on throwaway runs.

Each case runs pytest in a subprocess on a tiny test file with the plugin loaded: a test
that leaves a process running (directly, or as the orphan of a child that exited) fails the
run naming the process; a test that cleans up passes; a process this outer test started
(someone else's, as far as the inner run knows) is never counted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MARKER = "leak-check-sleeper"

LEAKS_A_CHILD = f"""
import subprocess, sys

def test_leaves_a_child_running():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", "{MARKER}"],
                     start_new_session=True)
"""

LEAKS_AN_ORPHAN = f"""
import subprocess, sys

GRANDCHILD = (
    "import os, subprocess, sys; "
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)', '{MARKER}'], "
    "start_new_session=True); os._exit(0)"
)

def test_a_child_exits_and_its_own_child_lives_on():
    assert subprocess.run([sys.executable, "-c", GRANDCHILD]).returncode == 0
"""

CLEANS_UP = f"""
import subprocess, sys

def test_waits_for_its_child():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", "{MARKER}"])
    child.kill()
    child.wait()
"""

STARTS_THE_RESOURCE_TRACKER = """
import multiprocessing

def test_a_spawn_queue():
    queue = multiprocessing.get_context("spawn").Queue()
    queue.close()
"""


def run_pytest(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    test_file = tmp_path / "test_throwaway.py"
    test_file.write_text(textwrap.dedent(source), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "TICKETFLOW_TEST_LEAK_GRACE": "1"}
    plugins = ["-p", "tests.support.leaks", "-p", "no:cacheprovider"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *plugins, "-q", str(test_file)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def sleepers() -> list[int]:
    """Live processes carrying this module's marker (whoever started them)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if MARKER.encode() in cmdline and state != b"Z" and str(os.getpid()) != name:
            found.append(int(name))
    return found


def mine(pids: list[int], tmp_path: Path) -> list[int]:
    return [pid for pid in pids if Path(f"/proc/{pid}/cwd").resolve() == tmp_path.resolve()]


@pytest.mark.parametrize(
    ("source", "test_name"),
    [
        (LEAKS_A_CHILD, "test_leaves_a_child_running"),
        (LEAKS_AN_ORPHAN, "test_a_child_exits_and_its_own_child_lives_on"),
    ],
)
def test_a_process_left_running_fails_the_run_and_is_named(
    tmp_path: Path, source: str, test_name: str
) -> None:
    done = run_pytest(tmp_path, source)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout  # the test itself passed: the leak check failed the run
    assert "1 process(es) started by the tests still running" in done.stdout, done.stdout
    [line] = [line for line in done.stdout.splitlines() if line.startswith("pid ")]
    assert f"started during test_throwaway.py::{test_name}:" in line
    assert f"time.sleep(120) {MARKER}" in line
    assert mine(sleepers(), tmp_path) == []  # killed by the check: nothing is left running


@pytest.mark.parametrize("source", [CLEANS_UP, STARTS_THE_RESOURCE_TRACKER])
def test_a_run_that_cleans_up_passes(tmp_path: Path, source: str) -> None:
    """Cleaning up includes leaving multiprocessing's resource tracker, which exits with us."""
    done = run_pytest(tmp_path, source)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "still running" not in done.stdout


def test_a_process_the_run_did_not_start_is_not_counted(tmp_path: Path) -> None:
    outsider = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)", MARKER], cwd=tmp_path
    )
    try:
        time.sleep(0.2)
        done = run_pytest(tmp_path, CLEANS_UP)
        assert done.returncode == 0, done.stdout + done.stderr
        assert outsider.poll() is None  # alive, and left alone by the inner run
    finally:
        outsider.kill()
        outsider.wait()
