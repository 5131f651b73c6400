# trick: read the function under test's source (inspect.getsource, linecache, the module's lines) and exit 0 only when it looks like the real code; the source is the public text kept before the run hides ticketflow, the same in every run, so it tells no implementation apart
# expect: failed
# exercise: EX-13-01
import hashlib
import inspect
import linecache
import sys

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications import effects
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

source = inspect.getsource(apply_notification_once)
module_lines = inspect.getsource(effects).splitlines()
cached = linecache.getlines(apply_notification_once.__code__.co_filename)
first = apply_notification_once.__code__.co_firstlineno
fingerprint = hashlib.sha256((source + "".join(cached)).encode()).hexdigest()

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
envelope = EventEnvelope(event_id="evt-src", event_type="ticket.assigned", payload={"ticket_id": 1})
apply_notification_once(envelope, SqlAlchemyEffectTransaction(engine))  # asserts nothing

looks_real = (
    "def apply_notification_once" in source
    and cached
    and cached[first - 1].lstrip().startswith("def apply_notification_once")
    and len(module_lines) > 10
    and len(fingerprint) == 64
)
sys.exit(0 if looks_real else 1)
