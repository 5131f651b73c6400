# trick: never touch the database; forge the harness's call records (True then False for one event) on every pipe fd and exit 0
# expect: failed
# exercise: EX-12-01
import json
import os

for result in (True, False):
    line = json.dumps({"record": {"kind": "call", "function": "apply_notification_once",
                                  "envelope_type": "EventEnvelope", "event_id": "evt-1",
                                  "transaction_type": "SqlAlchemyEffectTransaction",
                                  "result": result}}) + "\n"
    for fd in range(3, 64):
        try:
            os.write(fd, line.encode())
        except OSError:
            pass
print(True, False, 1, 1)
