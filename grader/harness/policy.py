"""Instrument ``BoundedRetryPolicy.decision`` (EX-11-01): record each call, maybe mutate."""

from __future__ import annotations

from typing import Any

from grader.harness.describe import plain, type_name
from grader.harness.disguise import disguise
from grader.harness.mutants.policy import POLICY_MUTANTS


def instrument_policy(recorder: Any, variant: str) -> None:
    from ticketflow.workers import policy as module

    cls = module.BoundedRetryPolicy
    real = cls.__dict__["decision"]
    impl = real if variant == "real" else disguise(POLICY_MUTANTS[variant], like=real)
    cls.decision = disguise(  # type: ignore[method-assign]
        _recording_decision(impl, recorder.record), like=real
    )


def _recording_decision(impl: Any, record: Any) -> Any:
    """The wrapper, built so it needs nothing but its closure (it gets ticketflow's globals)."""
    describe, name_of = plain, type_name

    def decision(self: Any, error: BaseException, *, retries_so_far: int) -> Any:
        facts = {
            "function": "BoundedRetryPolicy.decision",
            "max_retries": describe(getattr(self, "_max_retries", None)),
            "base_delay_seconds": describe(getattr(self, "_base_delay_seconds", None)),
            "error_type": name_of(error),
            "retries_so_far": describe(retries_so_far),
        }
        try:
            result = impl(self, error, retries_so_far=retries_so_far)
        except BaseException as exc:
            record("call", raised=name_of(exc), **facts)
            raise
        record(
            "call",
            result=[
                describe(getattr(result, "retry", None)),
                describe(getattr(result, "countdown_seconds", None)),
                describe(getattr(result, "dead_letter", None)),
            ],
            **facts,
        )
        return result

    return decision
