"""The recording wrappers: same signature and identity as the real function, and records of
the wrapper's OWN view (type-exact), whatever the probe's objects claim."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from grader.proxy.child.disguise import disguise
from grader.proxy.child.effects import _recording_apply
from grader.proxy.child.policy import _recording_decision
from tests.support.db import ready_engine
from tests.support.factories import make_envelope
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import effects
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError, RetryDecision


class ListRecorder:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def record(self, kind: str, **data: Any) -> None:
        self.records.append({"kind": kind, **data})


def _policy_wrapper(recorder: ListRecorder, impl: Any = None) -> Any:
    real = BoundedRetryPolicy.__dict__["decision"]
    wrapper = _recording_decision(impl or real, recorder.record, BoundedRetryPolicy, RetryDecision)
    return disguise(wrapper, like=real)


def test_policy_wrapper_records_the_question_and_the_answer() -> None:
    real = BoundedRetryPolicy.__dict__["decision"]
    recorder = ListRecorder()
    wrapper = _policy_wrapper(recorder)
    assert inspect.signature(wrapper) == inspect.signature(real)
    assert wrapper.__qualname__ == "BoundedRetryPolicy.decision"
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    wrapper(policy, RetryableTaskError("t"), retries_so_far=1)
    with pytest.raises(ValueError):
        wrapper(policy, ValueError("v"), retries_so_far=-1)
    common = {
        "kind": "call",
        "function": "BoundedRetryPolicy.decision",
        "policy_type": "BoundedRetryPolicy",
        "max_retries": 2,
        "base_delay_seconds": 5,
    }
    assert recorder.records == [
        {
            **common,
            "error_type": "RetryableTaskError",
            "retries_so_far": 1,
            "result": [True, 10, False],
            "result_type": "RetryDecision",
        },
        {**common, "error_type": "ValueError", "retries_so_far": -1, "raised": "ValueError"},
    ]


def test_policy_wrapper_records_int_subclasses_and_bools_as_not_an_int() -> None:
    class SneakyInt(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    recorder = ListRecorder()
    wrapper = _policy_wrapper(recorder)
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    wrapper(policy, RetryableTaskError("t"), retries_so_far=SneakyInt(1))
    wrapper(policy, RetryableTaskError("t"), retries_so_far=True)
    assert [r["retries_so_far"] for r in recorder.records] == ["<SneakyInt>", "<bool>"]


def test_policy_wrapper_reads_bounds_from_the_instance_not_from_class_tricks() -> None:
    class Disguised(BoundedRetryPolicy):
        pass

    recorder = ListRecorder()
    wrapper = _policy_wrapper(recorder)
    wrapper(Disguised(max_retries=2, base_delay_seconds=5), ValueError("v"), retries_so_far=0)
    record = recorder.records[0]
    assert (record["policy_type"], record["max_retries"]) == ("Disguised", "<NoneType>")


def test_policy_wrapper_describes_the_answer_only_from_an_exact_retry_decision() -> None:
    class Liar(RetryDecision):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = RetryDecision.__hash__

    def lying_impl(self: Any, error: BaseException, *, retries_so_far: int) -> Any:
        return Liar(True, 10, False)

    recorder = ListRecorder()
    wrapper = _policy_wrapper(recorder, lying_impl)
    wrapper(BoundedRetryPolicy(max_retries=2), RetryableTaskError("t"), retries_so_far=1)
    record = recorder.records[0]
    assert (record["result"], record["result_type"]) == ([None, None, None], "Liar")


def test_effects_wrapper_never_trusts_a_look_alike_envelope() -> None:
    real = effects.__dict__["apply_notification_once"]
    recorder = ListRecorder()
    wrapper = disguise(_recording_apply(real, recorder.record, EventEnvelope), like=real)
    transaction = effects.SqlAlchemyEffectTransaction(ready_engine())
    assert wrapper(make_envelope("evt-rec"), transaction) is True

    class LookAlike:
        event_id = "evt-rec"

    with pytest.raises(TypeError):
        wrapper(LookAlike(), transaction)
    first, second = recorder.records
    assert (first["event_id"], first["result"]) == ("evt-rec", True)
    assert (second["event_id"], second["raised"], second["envelope_type"]) == (
        None,
        "TypeError",
        "LookAlike",
    )
