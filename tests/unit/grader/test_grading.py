"""The grading flow with a stand-in fork server: real run first, then shuffled stand-ins
whose requests carry bytecode and nothing that names them."""

from __future__ import annotations

import base64
import marshal
import types
from collections.abc import Sequence
from pathlib import Path

from grader.codegen import stand_in_names
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
    assert server.batches[0][0].prelude_args == {
        "target": EX_11_01.function_under_test.to_json(),
        "code": "",
    }
    assert observed.twins == {} and observed.mutants == {}


def test_stand_in_runs_are_shuffled_and_their_requests_name_nothing() -> None:
    every_name = set(stand_in_names("policy"))
    positions: dict[str, set[str]] = {}
    for _ in range(10):
        server = FakeServer(observations(stdout="ok"))
        observed = _observe(EX_11_01, SUBMISSION, server)  # type: ignore[arg-type]
        real_batch, rest = server.batches
        assert len(real_batch) == 1
        assert len(rest) == len(EX_11_01.twins) + len(EX_11_01.mutants)
        assert set(observed.twins) == set(EX_11_01.twins)
        assert set(observed.mutants) == set(EX_11_01.mutants)
        codes = set()
        for request in rest:
            assert set(request.prelude_args) == {"target", "code"}
            text = repr(request.to_json())
            assert not [name for name in every_name if name in text]
            code = marshal.loads(base64.b64decode(request.prelude_args["code"]))
            assert isinstance(code, types.CodeType) and code.co_name == "decision"
            codes.add((code.co_code, code.co_consts))
        assert len(codes) == len(rest)  # salted: no two runs share bytecode
        for name, run in {**observed.twins, **observed.mutants}.items():
            assert run is not None
            positions.setdefault(name, set()).add(run.stdout)
    assert all(len(seen) > 1 for seen in positions.values()), positions  # no fixed order
