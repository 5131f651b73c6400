import unittest

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Suite(unittest.TestCase):
    def test_twice(self):
        engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(engine)
        txn = SqlAlchemyEffectTransaction(engine)
        信封 = EventEnvelope(event_id="evt-hw-544", event_type="ticket.assigned", payload={"ticket_id": 463})
        self.assertIs(apply_notification_once(信封, txn), True)
        self.assertIs(apply_notification_once(信封, txn), False)
        with Session(engine) as s:
            self.assertEqual(s.scalar(select(func.count()).select_from(NotificationReceipt)), 1)
            self.assertEqual(s.scalar(select(func.count()).select_from(BusinessTask)), 1)
        print(True, False, 1, 1)


outcome = unittest.main(exit=False).result
assert outcome.wasSuccessful()
