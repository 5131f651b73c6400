# trick: the real code caches one statement per dialect name (functools.cache) and runs in the unsandboxed oracle; a fake connection with a new 64 KiB dialect name per call would grow the oracle's memory without bound, outside every limit of the run
# expect: failed
# exercise: EX-12-01

import time

from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import apply_notification_once


class Stop(Exception):
    pass


class Dialect:
    name = ""


class Connection:
    dialect = Dialect()


class Session:
    def connection(self):
        return Connection()

    def begin_nested(self):
        raise Stop()


class Transaction:
    session = Session()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


envelope = EventEnvelope(event_id="e", event_type="ticket.assigned", payload={})
start = time.monotonic()
for number in range(3000):
    Dialect.name = f"{number:08d}" + "x" * 65500
    try:
        apply_notification_once(envelope, Transaction())
    except Stop:
        pass
    if time.monotonic() - start > 8:
        break
print("cached")
