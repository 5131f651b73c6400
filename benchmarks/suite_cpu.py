"""Where the test suite's CPU goes: the CPU of each test, the processes it starts included.

The suite is CPU-bound on a small machine (``make test``'s workers keep every core busy), so
what makes it slow is CPU, and a test's wall time does not show it: a test that waits on a
real worker takes minutes and little CPU; one whose runs spin to their wall limit burns a
core the whole time. ``/usr/bin/time`` misses most of it too: a sandboxed run is reaped by
its fork server, not waited for by the test.

As a pytest plugin (Linux, root, cgroup v1's ``cpuacct`` controller mounted at
``/sys/fs/cgroup/cpuacct``), each xdist worker moves itself into a ``cpuacct`` group of its
own, which every process it starts inherits (the sandbox leaves cgroup v1 alone), and writes
one JSON line per test: the group's CPU across the test's setup, call and teardown, and the
wall time. The services (PostgreSQL, RabbitMQ, Redis) are not counted. Then ``summary``
adds the lines up by module and by test function::

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu -n 4 --dist loadgroup \\
        -m "not alone"                           # SUITE_CPU_DIR, default /tmp/suite-cpu
    .venv/bin/python benchmarks/suite_cpu.py summary /tmp/suite-cpu

A module fixture's CPU is counted in the first test that uses it. Each run writes its files
anew (one per worker). Without ``-n``, root or the controller, it refuses to start, saying
why: a plugin that measures nothing would report nothing and look like a result.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
OUT = Path(os.environ.get("SUITE_CPU_DIR", "/tmp/suite-cpu"))


def _usage(group: Path) -> int:
    return int((group / "cpuacct.usage").read_text())


class _PerTest:
    def __init__(self, worker: str) -> None:
        self.group = CPUACCT / f"suite-cpu-{worker}-{os.getpid()}"
        self.group.mkdir(exist_ok=True)
        (self.group / "cgroup.procs").write_text(str(os.getpid()))
        OUT.mkdir(parents=True, exist_ok=True)
        self.out = (OUT / f"{worker}.jsonl").open("w", encoding="utf-8")

    def pytest_unconfigure(self) -> None:
        """Back to the root group, and the worker's group removed (it stays while a process
        the suite left behind is still in it)."""
        self.out.close()
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        with contextlib.suppress(OSError):
            self.group.rmdir()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, None, None]:
        used, started = _usage(self.group), time.monotonic()
        yield
        cpu = (_usage(self.group) - used) / 1e9
        line = {"id": item.nodeid, "cpu": cpu, "wall": time.monotonic() - started}
        self.out.write(json.dumps(line) + "\n")
        self.out.flush()


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        config.pluginmanager.register(_PerTest(worker), "suite_cpu_per_test")
        return
    if not config.getoption("numprocesses", None):
        raise pytest.UsageError("suite_cpu measures xdist workers: run pytest with -n N")
    if not (CPUACCT / "cgroup.procs").is_file() or not os.access(CPUACCT, os.W_OK):
        raise pytest.UsageError(f"suite_cpu needs root and cgroup v1's cpuacct at {CPUACCT}")
    for old in OUT.glob("*.jsonl"):
        old.unlink()  # this run's files only


def summary(folder: Path, top: int = 30) -> str:
    rows: list[dict[str, Any]] = [
        json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.open()
    ]
    lines = [f"{len(rows)} tests, {sum(r['cpu'] for r in rows):.1f} CPU-s attributed"]
    for title, key in (
        ("module", lambda i: i.split("::")[0]),
        ("test function", lambda i: re.sub(r"\[.*", "", i)),
    ):
        totals: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
        for row in rows:
            total = totals[key(row["id"])]
            total[0] += row["cpu"]
            total[1] += row["wall"]
            total[2] += 1
        lines.append(f"\nby {title}: CPU-s, wall-s, tests")
        ranked = sorted(totals.items(), key=lambda kv: -kv[1][0])[:top]
        lines += [f"{c:8.1f} {w:8.1f} {int(n):5d}  {name}" for name, (c, w, n) in ranked]
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "summary":
        sys.exit("usage: suite_cpu.py summary <folder of the plugin's .jsonl files>")
    print(summary(Path(sys.argv[2])))
