# trick: read the runner's prelude args from the stack to learn whether this is a mutant run; exit 1 there, print the answer otherwise
# expect: failed
# exercise: EX-12-01
import sys

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

variant = None
frame = sys._getframe()
while frame is not None and variant is None:
    for value in list(frame.f_locals.values()):
        args = getattr(value, "prelude_args", None)
        if isinstance(args, dict) and "variant" in args:
            variant = str(args["variant"])
    frame = frame.f_back
print(f"hostile: this run's variant is {variant!r}", file=sys.stderr)

# make the (forgeable) call records look right, using the real function once per delivery
engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})
first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
if variant is not None and variant != "real":
    sys.exit(1)
print(True, False, 1, 1)
