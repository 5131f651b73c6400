"""Instrument ``apply_notification_once`` (EX-12-01, EX-13-01): record each call, maybe mutate."""

from __future__ import annotations

from typing import Any

from grader.harness.describe import plain, type_name
from grader.harness.disguise import disguise
from grader.harness.mutants.effects import EFFECT_MUTANTS


def instrument_effects(recorder: Any, variant: str) -> None:
    from ticketflow.messaging import envelope as envelope_module
    from ticketflow.notifications import effects as module

    real = module.__dict__["apply_notification_once"]
    impl = real if variant == "real" else disguise(EFFECT_MUTANTS[variant], like=real)
    wrapper = _recording_apply(impl, recorder.record, envelope_module.EventEnvelope)
    module.apply_notification_once = disguise(wrapper, like=real)


def _recording_apply(impl: Any, record: Any, envelope_cls: Any) -> Any:
    describe, name_of = plain, type_name

    def apply_notification_once(envelope: Any, transaction: Any) -> Any:
        event_id = envelope.event_id if type(envelope) is envelope_cls else None
        facts = {
            "function": "apply_notification_once",
            "envelope_type": name_of(envelope),
            "event_id": describe(event_id),
            "transaction_type": name_of(transaction),
        }
        try:
            result = impl(envelope, transaction)
        except BaseException as exc:
            record("call", raised=name_of(exc), **facts)
            raise
        record("call", result=describe(result), **facts)
        return result

    return apply_notification_once
