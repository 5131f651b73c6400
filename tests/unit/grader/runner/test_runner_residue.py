"""Known hole H11 (tests/hostile/FINDINGS.md): a run can read an earlier run's output in the
memory it inherits from its fork server.

The host reads every run's output, builds its result and sends it; then it frees those
objects, but freed memory is not wiped, and each later run is a fork of the host. All runs of
one host belong to one student (one fork server per student), so this never crosses
students; but it lets a later run of a submission (a twin, a mutant) learn what an earlier
one (the real code's run) printed. The fix is a fork source that never holds run data.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, RunRequest

from .helpers import require_namespaces

PRINT_A_SECRET = "print('HSTL-RESIDUE-' + 'behaviour=' + str(6 * 7), flush=True)\n"
SCAN_MY_MEMORY = r"""
import ctypes
needle = b"HSTL-RESIDUE-" + b"behaviour=42"
found = 0
for line in open("/proc/self/maps").read().splitlines():
    span, perms = line.split()[:2]
    if not perms.startswith("rw"):
        continue
    low, high = (int(x, 16) for x in span.split("-"))
    if high - low <= 256 << 20:
        found += ctypes.string_at(low, high - low).count(needle)
print(found)
"""


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    with ForkServer(isolation="namespaces") as server:
        yield server


@pytest.mark.xfail(reason="known hole H11: freed run data is not wiped in the host", strict=True)
def test_a_run_never_finds_an_earlier_runs_output_in_its_memory(server: ForkServer) -> None:
    assert server.run(RunRequest(PRINT_A_SECRET, "a.py")).stdout == "HSTL-RESIDUE-behaviour=42\n"
    scanned = server.run(RunRequest(SCAN_MY_MEMORY, "b.py"))
    assert scanned.exit_code == 0, scanned.stderr
    assert scanned.stdout == "0\n"
