"""The recording wrappers: same signature and identity as the real function, honest records."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from grader.harness.disguise import disguise
from grader.harness.effects import _recording_apply
from grader.harness.policy import _recording_decision
from tests.support.db import ready_engine
from tests.support.factories import make_envelope
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import effects
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError


class ListRecorder:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def record(self, kind: str, **data: Any) -> None:
        self.records.append({"kind": kind, **data})


def test_policy_wrapper_records_the_question_and_the_answer() -> None:
    real = BoundedRetryPolicy.__dict__["decision"]
    recorder = ListRecorder()
    wrapper = disguise(_recording_decision(real, recorder.record), like=real)
    assert inspect.signature(wrapper) == inspect.signature(real)
    assert wrapper.__qualname__ == "BoundedRetryPolicy.decision"
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    wrapper(policy, RetryableTaskError("t"), retries_so_far=1)
    with pytest.raises(ValueError):
        wrapper(policy, ValueError("v"), retries_so_far=-1)
    assert recorder.records == [
        {
            "kind": "call",
            "function": "BoundedRetryPolicy.decision",
            "max_retries": 2,
            "base_delay_seconds": 5,
            "error_type": "RetryableTaskError",
            "retries_so_far": 1,
            "result": [True, 10, False],
        },
        {
            "kind": "call",
            "function": "BoundedRetryPolicy.decision",
            "max_retries": 2,
            "base_delay_seconds": 5,
            "error_type": "ValueError",
            "retries_so_far": -1,
            "raised": "ValueError",
        },
    ]


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
