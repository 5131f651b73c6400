"""EX-12-01, EX-13-01 on the oracle's side: run the implementation on the student's objects.

The envelope is rebuilt from its fields (without validation: it is the student's object
as it is); the transaction is a ``Remote``. A value that was not an envelope is an object
of a class with the same name, so the real code's ``TypeError`` names what the student
passed.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from grader.proxy.oracle.link import ConversationBroken, Link

FIELDS = ("event_id", "event_type", "payload", "occurred_at", "schema_version")


def effects_answer(implementation: Any) -> Any:
    from ticketflow.messaging.envelope import EventEnvelope

    def answer(facts: Any, link: Link) -> Any:
        if type(facts) is not dict or set(facts) != {"envelope", "transaction"}:
            raise ConversationBroken("malformed effects call")
        envelope = _envelope(facts["envelope"], EventEnvelope)
        return implementation(envelope, facts["transaction"])  # usually a Remote

    return answer


def _envelope(shown: Any, envelope_cls: type) -> Any:
    if type(shown) is dict and set(shown) == {"not_an_envelope"}:
        name = shown["not_an_envelope"]
        safe = name if type(name) is str and name.isidentifier() and len(name) < 100 else "object"
        return type(safe, (), {})()
    if type(shown) is not dict or set(shown) != {"fields"} or type(shown["fields"]) is not dict:
        raise ConversationBroken("malformed envelope")
    fields = shown["fields"]
    if set(fields) != set(FIELDS):
        raise ConversationBroken("malformed envelope")
    envelope: Any = object.__new__(envelope_cls)
    for name in FIELDS:
        value = fields[name]
        if name == "payload" and type(value) is dict:
            value = MappingProxyType(value)
        object.__setattr__(envelope, name, value)
    return envelope
