"""The grading flow with a stand-in fork server: real run first, then shuffled runs whose
requests are identical (only the passed oracle socket differs)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from grader.exercises import get_exercise
from grader.exercises.spec import CodeExercise
from grader.grading import _observe
from grader.runner import Observations, RunRequest
from grader.submission import Submission
from tests.unit.grader.factories import failed_run, observations

EX_11_01 = get_exercise("EX-11-01")
assert isinstance(EX_11_01, CodeExercise)
SUBMISSION = Submission(Path("retry_policy_probe.py"), "print('probe')\n", "retry_policy_probe.py")


class FakeServer:
    """Answers every run with ``answer(request)``; remembers every request and batch."""

    isolation = "namespaces"

    def __init__(self, real: Observations) -> None:
        self.real = real
        self.batches: list[list[RunRequest]] = []

    def run(self, request: RunRequest) -> Observations:
        return self.run_many([request], max_parallel=1)[0]

    def run_many(
        self, requests: Sequence[RunRequest], *, max_parallel: int = 2
    ) -> list[Observations]:
        self.batches.append(list(requests))
        if len(self.batches) == 1:
            return [self.real]
        return [observations(exit_code=1, stdout=f"position {i}") for i in range(len(requests))]


def test_a_failing_real_run_is_the_only_run() -> None:
    server = FakeServer(failed_run())
    observed = _observe(EX_11_01, SUBMISSION, server)  # type: ignore[arg-type]
    assert len(server.batches) == 1 and len(server.batches[0]) == 1
    assert server.batches[0][0].prelude_args == {"target": EX_11_01.function_under_test.to_json()}
    assert server.batches[0][0].pass_fd is not None
    assert observed.twins == {} and observed.mutants == {}


def test_stand_in_runs_are_shuffled_and_their_requests_are_all_alike() -> None:
    positions: dict[str, set[str]] = {}
    for _ in range(10):
        server = FakeServer(observations(stdout="ok"))
        observed = _observe(EX_11_01, SUBMISSION, server)  # type: ignore[arg-type]
        real_batch, rest = server.batches
        assert len(real_batch) == 1
        assert len(rest) == len(EX_11_01.twins) + len(EX_11_01.mutants)
        assert set(observed.twins) == set(EX_11_01.twins)
        assert set(observed.mutants) == set(EX_11_01.mutants)
        alike = [dataclasses.replace(r, pass_fd=None) for r in (*real_batch, *rest)]
        assert all(r == alike[0] for r in alike)  # every run gets the same request ...
        assert len({r.pass_fd for r in rest}) == len(rest)  # ... and its own oracle
        for name, run in {**observed.twins, **observed.mutants}.items():
            assert run is not None
            positions.setdefault(name, set()).add(run.stdout)
    assert all(len(seen) > 1 for seen in positions.values()), positions  # no fixed order
