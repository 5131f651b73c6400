"""The grading flow with a stand-in fork server: one batch, the real run first, then
shuffled runs whose requests are identical (only the passed oracle socket differs); a
failing real run stops the batch."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
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
RUNS = 1 + len(EX_11_01.twins) + len(EX_11_01.mutants)


class FakeServer:
    """Answers the first run with ``real``, every other with its position, ``max_parallel``
    at a time in request order; remembers every batch and which runs it started."""

    isolation = "namespaces"

    def __init__(self, real: Observations) -> None:
        self.real = real
        self.batches: list[list[RunRequest]] = []
        self.started = 0

    def run_until(
        self,
        requests: Sequence[RunRequest],
        *,
        max_parallel: int = 2,
        stop: Callable[[int, Observations], bool] | None = None,
    ) -> list[Observations | None]:
        self.batches.append(list(requests))
        results: list[Observations | None] = [None] * len(requests)
        self.started = min(max_parallel, len(requests))  # the first wave starts together
        for index in range(len(requests)):
            if index >= self.started:
                self.started += 1
            answer = self.real if index == 0 else observations(exit_code=1, stdout=f"at {index}")
            results[index] = answer
            if stop is not None and stop(index, answer):
                return [results[0], *([None] * (len(requests) - 1))]  # the rest cancelled
        return results


def test_a_failing_real_run_stops_the_batch() -> None:
    server = FakeServer(failed_run())
    observed = _observe(EX_11_01, SUBMISSION, server, jobs=2)  # type: ignore[arg-type]
    assert len(server.batches) == 1 and len(server.batches[0]) == RUNS
    assert server.started == 2  # the real run and one more: the rest never started
    assert server.batches[0][0].prelude_args == {"target": EX_11_01.function_under_test.to_json()}
    assert server.batches[0][0].pass_fd is not None
    assert observed.real.exit_code == failed_run().exit_code
    assert observed.twins == {} and observed.mutants == {}


def test_stand_in_runs_are_shuffled_and_their_requests_are_all_alike() -> None:
    positions: dict[str, set[str]] = {}
    for _ in range(10):
        server = FakeServer(observations(stdout="ok"))
        observed = _observe(EX_11_01, SUBMISSION, server)  # type: ignore[arg-type]
        (batch,) = server.batches
        assert len(batch) == RUNS and server.started == RUNS
        assert observed.real.stdout == "ok"  # the first run is the real one
        assert set(observed.twins) == set(EX_11_01.twins)
        assert set(observed.mutants) == set(EX_11_01.mutants)
        alike = [dataclasses.replace(r, pass_fd=None) for r in batch]
        assert all(r == alike[0] for r in alike)  # every run gets the same request ...
        assert len({r.pass_fd for r in batch}) == len(batch)  # ... and its own oracle
        for name, run in {**observed.twins, **observed.mutants}.items():
            assert run is not None
            positions.setdefault(name, set()).add(run.stdout)
    assert all(len(seen) > 1 for seen in positions.values()), positions  # no fixed order
