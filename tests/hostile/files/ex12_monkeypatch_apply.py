# trick: replace apply_notification_once with a stub answering True then False, so the asserts hold against every mutant
# expect: failed
# exercise: EX-12-01
import itertools

import ticketflow.notifications.effects as effects
from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope

answers = itertools.chain([True], itertools.repeat(False))
effects.apply_notification_once = lambda envelope, transaction: next(answers)

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = effects.SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})
first = effects.apply_notification_once(envelope, transaction)
second = effects.apply_notification_once(envelope, transaction)
assert (first, second) == (True, False)
print(first, second, 1, 1)
