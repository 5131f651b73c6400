import unittest

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class MyTests(unittest.TestCase):
    def test_twice(self):
        engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(engine)
        uow = SqlAlchemyEffectTransaction(engine)
        信封 = EventEnvelope("evt-x-331", "ticket.assigned", {"ticket_id": 118})
        self.assertIs(apply_notification_once(信封, uow), True)
        self.assertIs(apply_notification_once(信封, uow), False)
        with Session(engine) as s:
            self.assertEqual(s.scalar(select(func.count()).select_from(NotificationReceipt)), 1)
            self.assertEqual(s.scalar(select(func.count()).select_from(BusinessTask)), 1)
        print(True, False, 1, 1)


outcome = unittest.main(exit=False).result
assert outcome.wasSuccessful()
