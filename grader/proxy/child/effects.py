"""EX-12-01, EX-13-01: ``apply_notification_once`` becomes a recording proxy to the oracle.

The student's envelope travels as its fields; its transaction stays here and the oracle
drives it through the conversation (``grader.proxy.child.conversation``): every ``with``,
``session``, ``connection()``, ``execute(statement, row)`` and ``commit()`` the
implementation performs is performed here, on the student's own objects, with statements
rebuilt from the student's ticketflow (``grader.proxy.child.statements``). So the student's
database, listeners and injected failures see what they would see in-process.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader.proxy.child.conversation import Channel, Conversation
from grader.proxy.child.describe import instance_fields, plain, type_name
from grader.proxy.child.disguise import disguise
from grader.proxy.child.statements import rebuilders

ENVELOPE_FIELDS = ("event_id", "event_type", "payload", "occurred_at", "schema_version")


def instrument_effects(recorder: Any, channel: Channel) -> None:
    from ticketflow.messaging import envelope as envelope_module
    from ticketflow.notifications import effects as module

    real = module.__dict__["apply_notification_once"]
    envelope_cls = envelope_module.EventEnvelope
    apply = applying(Conversation(channel, rebuilders()), envelope_cls)
    wrapper = _recording_apply(apply, recorder.record, envelope_cls)
    module.apply_notification_once = disguise(wrapper, like=real)


def applying(conversation: Conversation, envelope_cls: type) -> Any:
    """The proxy's implementation: the call's facts out, the oracle's answer back."""
    call, name_of = conversation.call, type_name

    def apply_notification_once(envelope: Any, transaction: Any) -> Any:
        if isinstance(envelope, envelope_cls):
            fields = {name: getattr(envelope, name) for name in ENVELOPE_FIELDS}
            payload = fields["payload"]
            if isinstance(payload, Mapping):
                fields["payload"] = dict(payload)
            shown: dict[str, Any] = {"fields": fields}
        else:
            shown = {"not_an_envelope": name_of(envelope)}
        return call({"envelope": shown, "transaction": transaction})

    return apply_notification_once


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
