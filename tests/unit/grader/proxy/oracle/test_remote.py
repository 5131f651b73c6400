"""The student's oracle process (``grader.proxy.oracle.remote``): forked from the master, it
answers every run's conversation like an oracle thread would, keeps the stand-ins out of
every run's memory, and its faults are the grader's (internal errors), never a verdict."""

from __future__ import annotations

import os
import signal
import struct
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.grading import PRELUDE
from grader.proxy.oracle.implementations import REAL
from grader.proxy.oracle.remote import OracleProcess
from grader.proxy.oracle.session import LocalOracles, OracleHandle, run_with_oracles
from grader.runner import ForkServer, Master, RunnerError, RunRequest
from grader.variants import policy as policy_variants
from grader.variants.targets import POLICY, Target
from tests.unit.grader.runner.helpers import require_namespaces, run
from tests.unit.grader.runner.test_runner_master import SCAN

REPO = Path(__file__).resolve().parents[5]
PROBE = (REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py").read_text(encoding="utf-8")
PRELOAD = get_exercise("EX-11-01").all_preload


#: The "rlimits" fallback (only where the kernel refuses user namespaces) is held to a few
#: cases: this module's is the first test, which runs in both modes.
BOTH = pytest.mark.parametrize("master", ["namespaces", "rlimits"], indirect=True)


@pytest.fixture()
def master(request: pytest.FixtureRequest) -> Iterator[Master]:
    mode = getattr(request, "param", "namespaces")
    if mode == "namespaces":
        require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    with Master(preload=PRELOAD, isolation=mode) as master:
        yield master


@pytest.fixture
def student(master: Master) -> Iterator[tuple[ForkServer, OracleProcess]]:
    oracles = OracleProcess.start(master, POLICY)
    with master.server() as server:
        try:
            yield server, oracles
        finally:
            oracles.close()


#: Prints each pipe's and socket's inode number minus the oracle socket's (fd 4).
OFFSETS = """
import os, stat
mine = os.fstat(4).st_ino
seen = []
for name in sorted(os.listdir("/proc/self/fd"), key=int):
    try:
        found = os.fstat(int(name))
    except OSError:
        continue
    if stat.S_ISFIFO(found.st_mode) or stat.S_ISSOCK(found.st_mode):
        seen.append((int(name) if int(name) < 10 else "high", found.st_ino - mine))
print(seen)
"""


def _request(source: str = PROBE) -> RunRequest:
    return RunRequest(
        source=source,
        filename="retry_policy_probe.py",
        prelude=PRELUDE,
        prelude_args={"target": POLICY.to_json()},
    )


def _mutants() -> list[str]:
    return list(get_exercise("EX-11-01").mutants)


@BOTH
def test_runs_answered_by_the_oracle_process_match_oracle_threads(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    server, oracles = student
    names = [REAL, *_mutants()]
    remote = run_with_oracles(server, _request(), POLICY, names, max_parallel=2, source=oracles)
    local = run_with_oracles(
        server, _request(), POLICY, names, max_parallel=2, source=LocalOracles()
    )
    assert remote[0].ok, remote[0].stderr
    assert [r.ok for r in remote] == [r.ok for r in local] == [True] + [False] * len(_mutants())


def test_junk_from_one_run_breaks_only_its_own_conversation(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    _, oracles = student
    junk = oracles.oracle(POLICY, REAL)
    os.write(junk.student_fd, struct.pack(">I", 5) + b"nope!")
    outcome = junk.close()
    assert outcome.bug is None and "not a JSON frame" in str(outcome.broken)
    quiet = oracles.oracle(POLICY, REAL)
    assert quiet.close().broken is None  # the process still serves the next run


def test_an_unknown_implementation_is_an_internal_error(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    server, oracles = student
    with pytest.raises(RunnerError, match="oracle could not start"):
        run_with_oracles(
            server, _request(), POLICY, ["no_such_mutant"], max_parallel=1, source=oracles
        )


def test_an_oracle_process_that_dies_is_an_internal_error_not_a_hang(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    server, oracles = student
    oracles._process.kill()
    oracles._process.wait(timeout=60)
    with pytest.raises(RunnerError, match="oracle"):
        run_with_oracles(server, _request(), POLICY, [REAL], max_parallel=1, source=oracles)


def test_closing_ends_the_oracle_process(master: Master) -> None:
    oracles = OracleProcess.start(master, POLICY)
    process = oracles._process
    assert process.poll() is None
    oracles.close()
    assert process.wait(timeout=60) is not None
    with pytest.raises(RunnerError, match="gone"):
        oracles.oracle(POLICY, REAL)


def _scan_for_a_mutant_name() -> tuple[str, str]:
    name = _mutants()[0]
    assert callable(getattr(policy_variants, name))
    half = len(name) // 2
    return name, SCAN.format(head=name[:half], tail=name[half:])


def test_no_run_can_find_the_stand_ins_in_its_memory(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    server, oracles = student
    run_with_oracles(server, _request(), POLICY, [REAL], max_parallel=1, source=oracles)
    _, scan = _scan_for_a_mutant_name()
    observed = run(server, scan)
    assert observed.exit_code == 0, observed.stderr
    assert observed.stdout.strip() == "found 0"


def test_the_scan_would_find_stand_ins_a_master_had_loaded() -> None:
    """Control: the same scan finds the name when the stand-ins are in the run's ancestry."""
    with (
        Master(preload=[*PRELOAD, "grader.variants.policy"], isolation="rlimits") as master,
        master.server() as server,
    ):
        _, scan = _scan_for_a_mutant_name()
        observed = run(server, scan)
    assert observed.exit_code == 0, observed.stderr
    assert observed.stdout.strip() != "found 0"


def test_a_helper_that_stops_reporting_costs_one_deadline_for_the_whole_batch(
    master: Master, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.proxy.oracle import remote

    monkeypatch.setattr(remote, "JOIN_SECONDS", 0.5)
    oracles = OracleProcess.start(master, POLICY)
    try:
        handles = [oracles.oracle(POLICY, REAL) for _ in range(8)]
        os.kill(oracles._process.pid, signal.SIGSTOP)  # as a helper stuck holding its GIL
        start = time.monotonic()
        outcomes = [handle.close() for handle in handles]
        assert time.monotonic() - start < 3, "each report waited for its own deadline"
        assert all(outcome.bug and "did not report" in outcome.bug for outcome in outcomes)
        assert oracles._process.wait(timeout=60) is not None  # and it was killed
    finally:
        oracles.close()


def test_a_helper_dies_with_its_master() -> None:
    master = Master(preload=PRELOAD, isolation="rlimits")
    oracles = OracleProcess.start(master, POLICY)
    try:
        os.kill(master.pid, signal.SIGKILL)  # as when the grader is killed: its master goes
        assert oracles._process.wait(timeout=60) is not None, "the oracle process outlived it"
    finally:
        oracles.close()
        master.close()


def test_a_runs_descriptors_say_nothing_of_its_place(
    student: tuple[ForkServer, OracleProcess],
) -> None:
    """Inode numbers come from one counter. A run that compares its oracle socket's inode
    with its pipes' could once tell its place in the batch (R5: the sockets were all made
    before the first run, the pipes as each run started). Now each run's socket and pipes
    are made together as it starts: every run sees the same offsets.

    The counter is the whole machine's, so a busy neighbour that takes an inode between two
    of those calls shifts one run's numbers by chance (seen: one run in five, beside a
    second test suite). Noise hits a random place; a leak hits its place every time. So up
    to five batches are run (stopping at one where all runs agree), and every place must
    show the common offsets at least once. The old order never gave two runs of a batch
    the same offsets, so all places but one would fail that."""
    server, oracles = student
    names = [REAL, *_mutants()]
    by_place: list[list[str]] = [[] for _ in names]
    for _ in range(5):
        results = run_with_oracles(
            server, _request(OFFSETS), POLICY, names, max_parallel=2, source=oracles
        )
        assert all(run and run.ok for run in results), [run and run.stderr for run in results]
        shown = [run.stdout if run else "" for run in results]
        for place, printed in enumerate(shown):
            by_place[place].append(printed)
        if len(set(shown)) == 1:
            break
    (common, _), *_ = Counter(printed for seen in by_place for printed in seen).most_common(1)
    assert "(4, 0)" in common and "(1, 1)" in common, common
    apart = {place: seen for place, seen in enumerate(by_place) if common not in seen}
    assert not apart, (common, apart)


def test_a_run_never_started_gets_no_oracle() -> None:
    """Each run's oracle is made as the run starts (``pass_fd_for``), in run order."""

    class Recording(LocalOracles):
        def __init__(self) -> None:
            self.order: list[str] = []

        def oracle(self, target: Target | str, name: str) -> OracleHandle:
            self.order.append(name)
            return super().oracle(target, name)

    class StartsTwo:
        def run_until(self, requests: list[RunRequest], **options: Any) -> list[None]:
            for index in range(2):
                options["pass_fd_for"](index)
            raise RunnerError("no more runs here")

    names = [REAL, *_mutants()]
    source = Recording()
    with pytest.raises(RunnerError, match="no more runs"):
        run_with_oracles(StartsTwo(), _request(), POLICY, names, max_parallel=2, source=source)  # type: ignore[arg-type]
    assert source.order == names[:2]
