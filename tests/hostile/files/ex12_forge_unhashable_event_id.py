# trick: forge apply_notification_once records whose event_id is a dict/list (unhashable), to crash the verdict into an internal error
# expect: failed
# exercise: EX-12-01
import json
import os

for event_id in ({"id": 1}, [1], {"id": 1}):
    for result in (True, False):
        record = {"record": {"kind": "call", "function": "apply_notification_once",
                             "envelope_type": "EventEnvelope", "event_id": event_id,
                             "transaction_type": "SqlAlchemyEffectTransaction", "result": result}}
        for fd in range(3, 32):
            try:
                os.write(fd, (json.dumps(record) + "\n").encode())
            except OSError:
                pass
print(True, False, 1, 1)
