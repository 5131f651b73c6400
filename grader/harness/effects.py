"""Instrument ``apply_notification_once`` (EX-12-01, EX-13-01): record each call, maybe swap."""

from __future__ import annotations

from typing import Any

from grader.harness.describe import instance_fields, plain, type_name
from grader.harness.disguise import disguise
from grader.harness.standin import stand_in


def instrument_effects(recorder: Any, code: str) -> None:
    from ticketflow.messaging import envelope as envelope_module
    from ticketflow.notifications import effects as module

    real = module.__dict__["apply_notification_once"]
    impl = stand_in(code, like=real) if code else real
    wrapper = _recording_apply(impl, recorder.record, envelope_module.EventEnvelope)
    module.apply_notification_once = disguise(wrapper, like=real)


def _recording_apply(impl: Any, record: Any, envelope_cls: type) -> Any:
    """Records the event id only from an exact ``EventEnvelope``'s own fields."""
    describe, name_of, fields = plain, type_name, instance_fields

    def apply_notification_once(envelope: Any, transaction: Any) -> Any:
        own = fields(envelope) if type(envelope) is envelope_cls else {}
        facts = {
            "function": "apply_notification_once",
            "envelope_type": name_of(envelope),
            "event_id": describe(own.get("event_id")),
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
