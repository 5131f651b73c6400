"""Instrument ``BoundedRetryPolicy.decision`` (EX-11-01): record each call, maybe swap the code."""

from __future__ import annotations

from typing import Any

from grader.harness.describe import exact_int, instance_fields, plain, type_name
from grader.harness.disguise import disguise
from grader.harness.standin import stand_in


def instrument_policy(recorder: Any, code: str) -> None:
    from ticketflow.workers import policy as module

    cls = module.BoundedRetryPolicy
    real = cls.__dict__["decision"]
    impl = stand_in(code, like=real) if code else real
    wrapper = _recording_decision(impl, recorder.record, cls, module.RetryDecision)
    cls.decision = disguise(wrapper, like=real)  # type: ignore[method-assign]


def _recording_decision(impl: Any, record: Any, policy_cls: type, decision_cls: type) -> Any:
    """The wrapper, built so it needs nothing but its closure (it gets ticketflow's globals).

    It records its OWN view: the policy's bounds from the instance ``__dict__`` (only for
    an exact ``BoundedRetryPolicy``), ``retries_so_far`` only as an exact int, the answer's
    fields only from an exact ``RetryDecision`` returned by the implementation.
    """
    describe, as_int, name_of, fields = plain, exact_int, type_name, instance_fields

    def decision(self: Any, error: BaseException, *, retries_so_far: int) -> Any:
        bounds = fields(self) if type(self) is policy_cls else {}
        facts = {
            "function": "BoundedRetryPolicy.decision",
            "policy_type": name_of(self),
            "max_retries": as_int(bounds.get("_max_retries")),
            "base_delay_seconds": as_int(bounds.get("_base_delay_seconds")),
            "error_type": name_of(error),
            "retries_so_far": as_int(retries_so_far),
        }
        try:
            result = impl(self, error, retries_so_far=retries_so_far)
        except BaseException as exc:
            record("call", raised=name_of(exc), **facts)
            raise
        answer = fields(result) if type(result) is decision_cls else {}
        record(
            "call",
            result=[
                describe(answer.get("retry")),
                describe(answer.get("countdown_seconds")),
                describe(answer.get("dead_letter")),
            ],
            result_type=name_of(result),
            **facts,
        )
        return result

    return decision
