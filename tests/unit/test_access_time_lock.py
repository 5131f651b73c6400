"""``stale_access_time`` (tests/support/access_time.py): two blocks never overlap, even in two
processes (two suites side by side), and each finds the access time it set.

The attack first: without the lock, the block below begins while the other process's block
still runs, and that process's restore then moves the access time under it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.access_time import stale_access_time

REPO = Path(__file__).resolve().parents[2]
HOLDER = """
import sys, time
from pathlib import Path
from tests.support.access_time import stale_access_time
with stale_access_time(Path(sys.argv[1])):
    print("in", flush=True)
    time.sleep(1)
    print("leaving", time.monotonic(), flush=True)
"""


def test_a_second_block_waits_for_the_first_and_finds_its_own_time(tmp_path: Path) -> None:
    target = tmp_path / "read-by-runs.py"
    target.write_text("x = 1\n")
    os.utime(target, (1_000_000_000, 1_000_000_000))
    argv = [sys.executable, "-c", HOLDER, str(target)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=REPO) as holder:
        assert holder.stdout is not None
        try:
            assert holder.stdout.readline() == "in\n"
            with stale_access_time(target) as old:
                entered = time.monotonic()
                assert os.stat(target).st_atime == pytest.approx(old, abs=1)
            word, leaving = holder.stdout.readline().split()
            assert word == "leaving" and float(leaving) < entered  # the other block ended first
        finally:
            holder.kill()  # the ``with`` then waits for it and closes its pipe
    assert os.stat(target).st_atime == 1_000_000_000  # put back
