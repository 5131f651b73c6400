"""H13 (tests/hostile/FINDINGS.md): a run must never find another run's output in the memory
it inherits.

Every run is a fork, and a fork copies its parent's memory, freed memory included. The host
reads every run's output and builds every result; when it forked the runs itself, a later run
of a submission (a mutant) could read what an earlier one (the real code's run) printed, in
the host's freed memory or in its live buffers. Runs are now forked by the zygote
(``grader.runner.zygote``), which never holds a run's data. Each test scans the run's own
memory for a line another run printed; the scan must find a copy the run makes itself.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, RunRequest

from .helpers import require_namespaces

PRINT_A_SECRET = "print('HSTL-RESIDUE-' + 'behaviour=' + str(6 * 7), flush=True)\n"
SCAN_MY_MEMORY = r"""
import ctypes
needle = b"HSTL-RESIDUE-" + b"behaviour=4"  # + "2": never whole in this run's own objects
found = 0
for line in open("/proc/self/maps").read().splitlines():
    span, perms = line.split()[:2]
    if not perms.startswith("rw"):
        continue
    low, high = (int(x, 16) for x in span.split("-"))
    if high - low > 256 << 20:
        continue
    data = ctypes.string_at(low, high - low)
    at = data.find(needle)
    while at >= 0:
        found += data[at + len(needle) : at + len(needle) + 1] == b"2"
        at = data.find(needle, at + 1)
print(found)
"""


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    with ForkServer(isolation="namespaces") as server:
        yield server


def test_a_run_never_finds_an_earlier_runs_output_in_its_memory(server: ForkServer) -> None:
    assert server.run(RunRequest(PRINT_A_SECRET, "a.py")).stdout == "HSTL-RESIDUE-behaviour=42\n"
    assert _scan(server, SCAN_MY_MEMORY) == "0\n"


def test_a_run_never_finds_the_output_of_a_run_still_going(server: ForkServer) -> None:
    printer = PRINT_A_SECRET + "import time\ntime.sleep(1.5)\n"
    pause = "import time\ntime.sleep(0.4)\n"  # so the scan starts while the printer is alive
    requests = [RunRequest(printer, "a.py"), RunRequest(pause, "x.py")]
    requests.append(RunRequest(SCAN_MY_MEMORY, "b.py"))
    printed, _, scanned = server.run_many(requests, max_parallel=2)
    assert printed.stdout == "HSTL-RESIDUE-behaviour=42\n"
    assert scanned.exit_code == 0, scanned.stderr
    assert scanned.stdout == "0\n"


def test_the_scan_finds_a_copy_the_run_makes_itself(server: ForkServer) -> None:
    own = "secret = 'HSTL-RESIDUE-' + 'behaviour=' + str(6 * 7)\n"
    assert _scan(server, own + SCAN_MY_MEMORY) != "0\n"


def _scan(server: ForkServer, source: str) -> str:
    scanned = server.run(RunRequest(source, "b.py"))
    assert scanned.exit_code == 0, scanned.stderr
    return scanned.stdout
