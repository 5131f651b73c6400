"""H14 (tests/hostile/FINDINGS.md): nothing a run finds in the memory it inherits tells its
place in the batch.

A run is a fork of its zygote ("namespaces") or of its host ("rlimits"), and the frames that
forked it are still on its stack: ``sys._getframe().f_back`` reaches them, and their
messages are in its memory too. Each run's id is in them. Ids were numbered 1, 2, 3, ... in
the order the runs started, so a run read its exact place (the real run's is in the first
wave). The pid of the run's PID 1 (as the zygote sees it) was a local of those frames too, and the
zygote's table of live runs was C's to read: pids count up as well. Ids are random now
(``ForkServer``), I's pid is no local, and C drops the zygote's table first thing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, RunRequest

from .helpers import require_namespaces, server_for

#: Every int the frames below the student's hold (in a local, or in a dict a local holds),
#: and the numbers after an ``"id":`` or ``"rid":`` in its own writable memory (the
#: zygote's messages, freed but not wiped).
WHAT_I_INHERIT = r"""
import ctypes, json, re, sys
found = {}
frame, depth = sys._getframe().f_back, 0
while frame is not None:
    for name, value in list(frame.f_locals.items()):
        values = value.items() if type(value) is dict else [(None, value)]
        for key, item in values:
            if type(item) is int and type(key) in (str, type(None)):
                found[f"{depth}:{frame.f_code.co_name}:{name}:{key}"] = item
    frame, depth = frame.f_back, depth + 1
ids = []
for line in open("/proc/self/maps").read().splitlines():
    span, perms = line.split()[:2]
    low, high = (int(x, 16) for x in span.split("-"))
    if perms.startswith("rw") and high - low <= 256 << 20:
        data = ctypes.string_at(low, high - low)
        ids += [int(m) for m in re.findall(rb'"r?id": ?([0-9]{1,20})[,}]', data)]
found["memory:ids"] = sorted(set(ids))
print(json.dumps(found))
"""
RUNS = 10


@pytest.fixture
def server() -> Iterator[ForkServer]:
    """ "namespaces" only: in "rlimits" a run's own pid is the machine's, which counts up
    (``SECURITY.md``: that mode hides nothing from a run)."""
    yield from server_for("namespaces")


def test_no_number_a_run_inherits_grows_with_its_place(server: ForkServer) -> None:
    results = server.run_many([RunRequest(WHAT_I_INHERIT, "probe.py")] * RUNS, max_parallel=2)
    assert all(run.ok for run in results), [run.stderr for run in results]
    seen = [json.loads(run.stdout) for run in results]
    assert len(seen[0]) > 2, seen[0]  # the frames that forked it are there to read
    ids = [rid for found in seen for rid in found.pop("memory:ids")]
    # the zygote's messages, where a run still finds them in its memory, hold random ids
    assert not ids or min(ids) >= 1 << 20, f"run ids that look like counts: {sorted(set(ids))}"
    in_order = []
    for key in set.intersection(*(set(found) for found in seen)):
        values = [found[key] for found in seen]
        if len(set(values)) > 1 and (values == sorted(values) or values == sorted(values)[::-1]):
            in_order.append(f"{key}: {values}")
    assert not in_order, "a run can read its place:\n" + "\n".join(in_order)


def test_the_probe_finds_what_it_looks_for(server: ForkServer) -> None:
    """The control: an id the run puts in its own memory is found, and the frames below
    its own are there (the scan above would have seen the old ids and pids)."""
    source = "_ = b'" + '{"op": "start", "rid": 1234' + "}'\n" + WHAT_I_INHERIT
    found = json.loads(server.run(RunRequest(source, "probe.py")).stdout)
    assert 1234 in found["memory:ids"], found
    assert any(":_serve:" in key for key in found), found  # the zygote's loop, below the run


#: What CPython's own bookkeeping says as the run starts, read before anything else (an
#: import of its own could trigger a collection), then a pause, so that the batch lasts
#: longer than one run (H17).
BOOKKEEPING = """
import gc, sys
found = {"gc counts": list(gc.get_count()), "allocated blocks": sys.getallocatedblocks()}
found["gc objects"] = len(gc.get_objects())
import json, logging, time
found["logging started ago"] = time.time() - logging._startTime
print(json.dumps(found))
time.sleep(0.3)
"""


@pytest.fixture
def logging_server() -> Iterator[ForkServer]:
    """A server whose host imported logging before its runs, as a master does."""
    require_namespaces()
    with ForkServer(isolation="namespaces", preload=["logging"]) as server:
        yield server


def test_the_interpreters_bookkeeping_does_not_count_the_runs(logging_server: ForkServer) -> None:
    """H17: the zygote's collector counts and free lists grew by about 3 per run it started
    (gc.get_count()[0] was 41, 44, 50, 52, 55, ...), and ``logging._startTime`` dated the
    batch. Now every run after the first wave starts with the same counts, give or take the
    block or two a busy machine leaves (the first two runs of a server may differ: the real
    run is at a random one of those two places), and logging's clock starts with the run."""
    runs = [RunRequest(BOOKKEEPING, "probe.py")] * RUNS
    results = logging_server.run_many(runs, max_parallel=2)
    assert all(run.ok for run in results), [run.stderr for run in results]
    seen = [json.loads(run.stdout) for run in results]
    for key in ("gc counts", "gc objects", "allocated blocks"):
        later = [sum(found[key]) if key == "gc counts" else found[key] for found in seen[2:]]
        # a busy machine can leave a block or two more or less in the zygote at one fork:
        # noise; counting runs made 8 later runs span about 24
        assert max(later) - min(later) <= 4, (key, [f[key] for f in seen])
    ages = [found["logging started ago"] for found in seen]
    assert max(ages) < 1.0, ages  # the batch itself lasts over 1.5 s
