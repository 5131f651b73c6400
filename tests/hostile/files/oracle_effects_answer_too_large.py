# trick: ordinary API only; a payload whose call frame is just under the 4 MiB frame limit: the real code sends it back in the business-task INSERT, a few bytes over the limit, which once ended the check as an internal error (exit 3)
# expect: failed
# exercise: EX-12-01

import json

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

LIMIT = 4 << 20
encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def frame_length(payload):
    fields = {
        "event_id": "e",
        "event_type": "t",
        "payload": {"$dict": payload},
        "occurred_at": {"$h": 0},
        "schema_version": 1,
    }
    call = {
        "call": {
            "$dict": {"envelope": {"$dict": {"fields": {"$dict": fields}}}, "transaction": {"$h": 1}}
        }
    }
    return len(encode(call).encode())


payload = {f"k{i}": "x" * 60000 for i in range(69)}
payload["pad"] = ""
payload["pad"] = "x" * (LIMIT - 8 - frame_length(payload))
engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
envelope = EventEnvelope(event_id="e", event_type="t", payload=payload)
print(apply_notification_once(envelope, SqlAlchemyEffectTransaction(engine)))
