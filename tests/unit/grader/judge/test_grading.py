"""The grading flow with a stand-in fork server: one batch, the real run at a uniformly
random place, shuffled runs whose requests are identical (only the passed oracle socket
differs); a failing real run stops the batch."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from grader.judge import grading
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.grading import observe
from grader.judge.submission import Submission
from grader.runner import Observations, RunRequest
from tests.unit.grader.factories import failed_run, observations

EX_11_01 = get_exercise("EX-11-01")
assert isinstance(EX_11_01, CodeExercise)
SUBMISSION = Submission(Path("retry_policy_probe.py"), "print('probe')\n", "retry_policy_probe.py")
RUNS = 1 + len(EX_11_01.twins) + len(EX_11_01.mutants)


class FakeServer:
    """Answers every run with ``answer`` (with its position as stdout), ``max_parallel`` at a
    time in request order, making each run's passed descriptor as it starts it (as
    ``ForkServer.run_until`` does); remembers every batch, and every request it started."""

    isolation = "namespaces"

    def __init__(self, answer: Observations) -> None:
        self.answer = answer
        self.batches: list[list[RunRequest]] = []
        self.sent: list[RunRequest] = []

    @property
    def started(self) -> int:
        return len(self.sent)

    def run_until(
        self,
        requests: Sequence[RunRequest],
        *,
        max_parallel: int = 2,
        stop: Callable[[int, Observations], bool] | None = None,
        pass_fd_for: Callable[[int], int] | None = None,
        promote: Callable[[int, Observations], int | None] | None = None,
    ) -> list[Observations | None]:
        self.batches.append(list(requests))
        results: list[Observations | None] = [None] * len(requests)

        def start(index: int) -> None:
            fd = pass_fd_for(index) if pass_fd_for is not None else None
            self.sent.append(dataclasses.replace(requests[index], pass_fd=fd))

        for index in range(min(max_parallel, len(requests))):  # the first wave starts together
            start(index)
        for index in range(len(requests)):
            if index >= self.started:
                start(index)
            results[index] = dataclasses.replace(self.answer, stdout=f"at {index}")
            if stop is not None and stop(index, self.answer):  # cancel the rest
                return [run if at == index else None for at, run in enumerate(results)]
        return results


def test_a_failing_real_run_stops_the_batch() -> None:
    server = FakeServer(failed_run())
    observed = observe(EX_11_01, SUBMISSION, server, jobs=2)  # type: ignore[arg-type]
    assert len(server.batches) == 1 and len(server.batches[0]) == RUNS
    real_at = int(observed.real.stdout.removeprefix("at "))
    assert server.started <= real_at + 2  # the runs in flight at most: the rest never started
    assert server.batches[0][0].prelude_args == {"target": EX_11_01.function_under_test.to_json()}
    assert all(sent.pass_fd is not None for sent in server.sent)
    assert observed.real.exit_code == failed_run().exit_code
    assert observed.twins == {} and observed.mutants == {}


def test_stand_in_runs_are_shuffled_and_their_requests_are_all_alike() -> None:
    positions: dict[str, set[str]] = {}
    for _ in range(10):
        server = FakeServer(observations(stdout="ok"))
        observed = observe(EX_11_01, SUBMISSION, server)  # type: ignore[arg-type]
        (batch,) = server.batches
        assert len(batch) == RUNS and server.started == RUNS
        batch = server.sent
        assert set(observed.twins) == set(EX_11_01.twins)
        assert set(observed.mutants) == set(EX_11_01.mutants)
        alike = [dataclasses.replace(r, pass_fd=None) for r in batch]
        assert all(r == alike[0] for r in alike)  # every run gets the same request ...
        assert len({r.pass_fd for r in batch}) == len(batch)  # ... and its own oracle
        for name, run in {"real": observed.real, **observed.twins, **observed.mutants}.items():
            assert run is not None
            positions.setdefault(name, set()).add(run.stdout)
    assert all(len(seen) > 1 for seen in positions.values()), positions  # no fixed order


#: χ² with 12 degrees of freedom (13 places) exceeded with probability 0.001.
CHI2_12_P001 = 32.909


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_real_run_is_at_a_uniformly_random_place(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """600 gradings, each through ``observe``: the real run's place is uniform over all 13
    (χ² at p = 0.001), whatever the parallelism: no place tells a run what it is."""
    from grader.proxy.oracle import session

    counts = [0] * RUNS

    def recording(
        server: object, request: object, target: object, names: list[str], **options: object
    ) -> list[Observations]:
        counts[names.index("real")] += 1
        assert sorted(names) == sorted(["real", *EX_11_01.twins, *EX_11_01.mutants])
        return [observations(stdout="ok") for _ in names]

    monkeypatch.setattr(session, "run_with_oracles", recording)
    # Seeded, so the verdict is the same in every suite: drawn from ``SystemRandom`` a test
    # at p = 0.001 fails one suite in a thousand by design (it did once, 2026-12-04, χ² 35.4).
    # The shuffle is the same code either way; the stand-in test above uses the real source.
    seeded = random.Random(f"issue 32, jobs {jobs}")
    monkeypatch.setattr(grading, "batch_order", functools.partial(grading.batch_order, rng=seeded))
    checks = 600
    for _ in range(checks):
        observe(EX_11_01, SUBMISSION, FakeServer(observations()), jobs=jobs)  # type: ignore[arg-type]
    expected = checks / RUNS
    chi2 = sum((seen - expected) ** 2 / expected for seen in counts)
    assert RUNS == 13 and chi2 < CHI2_12_P001, counts
