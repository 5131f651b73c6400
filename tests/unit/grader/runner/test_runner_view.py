"""The run's file-system view is an allow-list (``grader.runner.view``), and nothing a run does
to a file it can see reaches another run.

Attacks first: two runs alive at once voted through ``flock`` on a shared file (H15, 60 % full
passes of EX-11-01 before any defence); ``/dev/null`` and ``/etc/passwd`` are as shared as the
interpreter's files; an access time is a bit a run could leave on a file for a later run.
Honest work: SQLite's locks inside one run behave exactly as outside the sandbox.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.runner import ForkServer, Limits, RunRequest, reach, view
from tests.support.access_time import STDLIB_FILE, stale_access_time
from tests.support.lock_probes import HOLD, LOOK

from .helpers import server_for

REPO = Path(__file__).resolve().parents[4]
LIMITS = Limits(wall_seconds=20)
#: The C library this process runs on, and the system library folder that holds it.
LIBC = next(
    line.split()[-1]
    for line in Path("/proc/self/maps").read_text().splitlines()
    if "/libc.so" in line or "/libc-" in line
)
LIBDIR = os.path.dirname(LIBC)


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    yield from server_for("namespaces")


# -- what a run can see ---------------------------------------------------------------------

LOOK_AROUND = r"""
import json, os, sys
def listing(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return exc.__class__.__name__
print(json.dumps({
    "etc": listing("/etc"),
    "top": listing("/"),
    "dev": listing("/dev"),
    "libs": listing(%(libdir)r),
    "repo": listing(%(repo)r),
    "solutions": [os.path.exists(p) for p in (%(solutions)r, "/proc/1/root" + %(solutions)r,
                                              "/proc/self/root" + %(solutions)r)],
    "gone": {p: os.path.exists(p) for p in ("/home", "/run", "/sys", "/var/lib", "/srv", "/opt",
                                             "/boot", "/bin/sh", "/usr/bin", "/root/.ssh")},
}))
"""


def _look_around(server: ForkServer) -> dict[str, object]:
    source = LOOK_AROUND % {
        "repo": str(REPO),
        "solutions": str(REPO / "solutions"),
        "libdir": LIBDIR,
    }
    result = server.run(RunRequest(source, "probe.py", limits=LIMITS))
    assert result.ok, result.stderr
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_etc_holds_only_what_a_run_needs(server: ForkServer) -> None:
    expected = {*(os.path.basename(p) for p in view.SYNTHETIC)}
    expected |= {os.path.basename(p) for p in reach.ETC_FILES if os.path.lexists(p)}
    assert _look_around(server)["etc"] == sorted(expected)


def test_the_machine_beyond_the_interpreter_does_not_exist(server: ForkServer) -> None:
    found = _look_around(server)
    gone = found["gone"]
    assert isinstance(gone, dict) and not any(gone.values()), gone
    assert found["solutions"] == [False, False, False]  # nor through the old root (under /proc)
    repo = found["repo"]
    assert isinstance(repo, list) and "solutions" not in repo and ".git" not in repo, repo
    top = found["top"]
    usual = {"dev", "etc", "lib", "lib64", "proc", "root", "tmp", "usr", "var", REPO.parts[1]}
    assert isinstance(top, list) and set(top) <= usual, top


def test_only_libraries_the_interpreter_loads_are_there(server: ForkServer) -> None:
    libs = _look_around(server)["libs"]
    assert isinstance(libs, list) and os.path.basename(LIBC) in libs, libs
    # shared objects, and the C library's own character-set cache (gconv/, mapped at start)
    assert {n for n in libs if ".so" not in n} <= {"gconv"}, libs
    assert len(libs) < len(os.listdir(LIBDIR)) // 4


def test_devices_are_the_runs_own(server: ForkServer) -> None:
    dev = _look_around(server)["dev"]
    expected = ["fd", "full", "null", "ptmx", "pts", "random", "shm", "stderr", "stdin", "stdout"]
    assert dev == sorted([*expected, "urandom", "zero"])


# -- nothing crosses from one run to another -----------------------------------------------

SHARED = ("os.__file__", "'/dev/null'", "'/etc/passwd'", "'/etc/ld.so.cache'")


def test_a_lock_one_run_takes_is_never_seen_by_another(server: ForkServer) -> None:
    """The attack (H15): before any defence the second run printed "held by another run"."""
    shared = ", ".join(SHARED)
    hold, look = server.run_many(
        [
            RunRequest(HOLD.format(shared=shared), "probe.py", limits=LIMITS),
            RunRequest(LOOK.format(shared=shared), "probe.py", limits=LIMITS),
        ],
        max_parallel=2,
    )
    assert hold.ok and hold.stdout == "holding\n", hold.stderr
    # every lock free, and /proc/locks lists only the run's own (its flocks: one per file)
    assert look.stdout == f"{['free'] * len(SHARED)} {len(SHARED)}\n", (look.stdout, look.stderr)


READ_IT = """
with open({path!r}, "rb") as f:
    print(len(f.read()))
"""


def test_reading_a_file_leaves_its_access_time_alone(server: ForkServer) -> None:
    """An access time that a read could move is a bit for a later run to find."""
    with stale_access_time() as old:
        read = READ_IT.format(path=str(STDLIB_FILE))
        result = server.run(RunRequest(read, "probe.py", limits=LIMITS))
        assert result.ok and int(result.stdout) > 0, result.stderr
        assert os.stat(STDLIB_FILE).st_atime == pytest.approx(old, abs=1)


# -- honest work is unchanged ------------------------------------------------------------------

SQLITE = """
import sqlite3
first = sqlite3.connect("shop.db", timeout=0)
first.execute("create table orders (id integer primary key)")
first.commit()
first.execute("begin immediate")
first.execute("insert into orders values (1)")
second = sqlite3.connect("shop.db", timeout=0)
try:
    second.execute("insert into orders values (2)")
    second.commit()
    print("second writer got in")
except sqlite3.OperationalError as exc:
    print("second writer:", exc)
first.commit()
second.execute("insert into orders values (2)")
second.commit()
print(first.execute("select count(*) from orders").fetchone()[0])
"""


def test_sqlite_locks_a_runs_own_files_as_outside(server: ForkServer, tmp_path: Path) -> None:
    """Lesson 13's point: the second writer is refused while the first holds the lock."""
    (tmp_path / "probe.py").write_text(SQLITE)
    outside = subprocess.run(
        [sys.executable, "probe.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    inside = server.run(RunRequest(SQLITE, "probe.py", limits=LIMITS))
    assert outside.stdout == "second writer: database is locked\n2\n", outside.stderr
    assert (inside.ok, inside.stdout) == (True, outside.stdout), inside.stderr
