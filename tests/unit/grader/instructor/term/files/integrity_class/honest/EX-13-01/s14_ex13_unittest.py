import unittest

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Simulated(Exception):
    pass


class DeliveryTwice(unittest.TestCase):
    def setUp(self):
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.left = 1
        event.listen(self.engine, "before_cursor_execute", self.maybe_fail)

    def maybe_fail(self, conn, cursor, statement, *rest):
        if self.left and statement.upper().lstrip().startswith("INSERT INTO BUSINESS_TASKS"):
            self.left -= 1
            raise Simulated("injected")

    def rows(self):
        with Session(self.engine) as s:
            return [s.scalar(select(func.count()).select_from(m)) for m in (NotificationReceipt, BusinessTask)]

    def test_atomic(self):
        tx = SqlAlchemyEffectTransaction(self.engine)
        ev = EventEnvelope("evt-x-151", "ticket.assigned", {"ticket_id": 226})
        with self.assertRaises(Simulated):
            apply_notification_once(ev, tx)
        self.assertEqual(self.rows(), [0, 0])
        self.assertTrue(apply_notification_once(ev, tx) is True)
        self.assertEqual(self.rows(), [1, 1])
        self.assertTrue(apply_notification_once(ev, tx) is False)
        self.assertEqual(self.rows(), [1, 1])


res = unittest.main(exit=False).result
assert res.wasSuccessful()
print("atomic")
